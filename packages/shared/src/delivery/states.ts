import { defineStateMachine } from '../state-machine';

/**
 * One truck sent against an order (派车单 / 提煤单): loaded at the mine (the seller's weigh ticket), arrived at the
 * buyer (the buyer's weigh ticket), then signed for by the buyer or disputed. A dispute is answered by the seller
 * and ruled by the operator (signed with the tons ruled, or refused). No answer from the buyer within the
 * auto sign-for period counts as signed. A truck not yet loaded may be cancelled by the side that sent it.
 */
export const DispatchStates = defineStateMachine({
  label: '派车单状态',
  states: {
    dispatched: '已派车',
    loaded: '已装车',
    arrived: '已到货',
    signed: '已签收',
    disputed: '有异议',
    refused: '已拒收',
    cancelled: '已取消',
  },
  moves: {
    load: { from: ['dispatched'], to: 'loaded', event: 'dispatch.loaded' },
    arrive: { from: ['loaded'], to: 'arrived', event: 'dispatch.arrived' },
    sign: { from: ['arrived'], to: 'signed', event: 'dispatch.signed' },
    autoSign: { from: ['arrived'], to: 'signed', event: 'dispatch.auto_signed' },
    dispute: { from: ['arrived'], to: 'disputed', event: 'dispatch.disputed' },
    ruleSigned: { from: ['disputed'], to: 'signed', event: 'dispatch.ruled' },
    ruleRefused: { from: ['disputed'], to: 'refused', event: 'dispatch.refused' },
    cancel: { from: ['dispatched'], to: 'cancelled', event: 'dispatch.cancelled' },
  },
});

/** A lab report (化验单) for an order or a batch: the other side accepts or disputes it. */
export const QualityReportStates = defineStateMachine({
  label: '化验单状态',
  states: { submitted: '待确认', accepted: '已确认', disputed: '有异议' },
  moves: {
    accept: { from: ['submitted'], to: 'accepted', event: 'qualityreport.accepted' },
    dispute: { from: ['submitted'], to: 'disputed', event: 'qualityreport.disputed' },
  },
});

/** Dispatches that still hold planned tons against the order (a cancelled or refused truck gives its tons back). */
export const DISPATCH_LIVE_STATES = ['dispatched', 'loaded', 'arrived', 'signed', 'disputed'] as const;
