import { defineStateMachine } from '../state-machine';

/**
 * A VAT invoice (增值税发票) the seller registers against a settled order (DESIGN.md §8 "Settlement, invoices,
 * freight"): 待确认 until the buyer confirms receipt; a red-letter invoice (红字发票) the seller registers against it
 * makes it 已红冲. The red-letter invoice is a row of its own, 红字发票 from the start, with negative amounts.
 */
export const InvoiceStates = defineStateMachine({
  label: '发票状态',
  states: { pending: '待确认', confirmed: '已确认', reversed: '已红冲', red: '红字发票' },
  moves: {
    confirm: { from: ['pending'], to: 'confirmed', event: 'invoice.confirmed' },
    reverse: { from: ['pending', 'confirmed'], to: 'reversed', event: 'invoice.reversed' },
  },
});

/** Invoices that count towards the settled amount (not reversed, not red-letter). */
export const INVOICE_LIVE_STATES = ['pending', 'confirmed'] as const;
