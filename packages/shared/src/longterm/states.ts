import { defineStateMachine } from '../state-machine';

/**
 * A long-term deal (长协, DESIGN.md §8 "Long-term deals") from the seller's offer to the end of its period. The
 * seller drafts and publishes an offer to one named buyer or to all audited buyers (征集中); accepting one buyer's
 * application generates the framework contract (待签署); its taking effect starts the period's call-offs (执行中);
 * the period's end makes it 已到期. The operator terminates one with a reason, and voiding its contract does too.
 */
export const LongTermStates = defineStateMachine({
  label: '长协状态',
  states: {
    draft: '草稿',
    open: '征集中',
    signing: '待签署',
    executing: '执行中',
    expired: '已到期',
    terminated: '已终止',
    withdrawn: '已撤回',
  },
  moves: {
    publish: { from: ['draft'], to: 'open', event: 'longterm.published' },
    withdraw: { from: ['draft', 'open'], to: 'withdrawn', event: 'longterm.withdrawn' },
    /** the seller accepts one application: the framework contract is generated */
    accept: { from: ['open'], to: 'signing', event: 'longterm.accepted' },
    /** the framework contract took effect */
    execute: { from: ['signing'], to: 'executing', event: 'longterm.executing' },
    expire: { from: ['executing'], to: 'expired', event: 'longterm.expired' },
    terminate: { from: ['signing', 'executing'], to: 'terminated', event: 'longterm.terminated' },
  },
});

/** A buyer's application (申请) to an open offer. Accepting one declines the others. */
export const LongTermApplicationStates = defineStateMachine({
  label: '长协申请状态',
  states: { pending: '待处理', accepted: '已接受', declined: '未接受', withdrawn: '已撤回' },
  moves: {
    accept: { from: ['pending'], to: 'accepted', event: 'longtermapplication.accepted' },
    decline: { from: ['pending'], to: 'declined', event: 'longtermapplication.declined' },
    withdraw: { from: ['pending'], to: 'withdrawn', event: 'longtermapplication.withdrawn' },
  },
});

/**
 * A month's call-off (月度调运): issued by the seller (or requested by the buyer) for the current month at the
 * month's price, confirmed by the other side, when it becomes a deal of kind long-term (`deal.created`) and runs
 * the spot chain: contract, order, trucks, settlement, invoices.
 */
export const CallOffStates = defineStateMachine({
  label: '月度调运状态',
  states: { pending: '待确认', accepted: '已确认', declined: '已拒绝', withdrawn: '已撤回' },
  moves: {
    accept: { from: ['pending'], to: 'accepted', event: 'calloff.accepted' },
    decline: { from: ['pending'], to: 'declined', event: 'calloff.declined' },
    withdraw: { from: ['pending'], to: 'withdrawn', event: 'calloff.withdrawn' },
  },
});
