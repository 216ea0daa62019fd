import { defineStateMachine } from '../state-machine';

/**
 * A settlement statement (结算单, DESIGN.md §8): the seller issues it for an order in 待结算; the buyer confirms it
 * (the money moves in the same transaction) or disputes it with a reason; the operator rules on a dispute, either
 * upholding the statement (the money moves as on confirmation) or sending it back (已退回: the seller issues a new one).
 */
export const StatementStates = defineStateMachine({
  label: '结算单状态',
  states: {
    pending: '待确认',
    confirmed: '已确认',
    disputed: '有异议',
    returned: '已退回',
  },
  moves: {
    confirm: { from: ['pending'], to: 'confirmed', event: 'statement.confirmed' },
    dispute: { from: ['pending'], to: 'disputed', event: 'statement.disputed' },
    uphold: { from: ['disputed'], to: 'confirmed', event: 'statement.upheld' },
    sendBack: { from: ['disputed'], to: 'returned', event: 'statement.returned' },
  },
});

/** States in which a statement still stands (one per order at a time). */
export const STATEMENT_LIVE_STATES = ['pending', 'disputed', 'confirmed'] as const;
