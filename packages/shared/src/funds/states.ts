import { defineStateMachine } from '../state-machine';

/** A declared bank transfer in (入金): the operator confirms it (the money is credited) or rejects it. */
export const DepositInStates = defineStateMachine({
  label: '入金申请状态',
  states: { pending: '待确认', confirmed: '已入账', rejected: '已驳回' },
  moves: {
    confirm: { from: ['pending'], to: 'confirmed', event: 'funds.deposit_in_confirmed' },
    reject: { from: ['pending'], to: 'rejected', event: 'funds.deposit_in_rejected' },
  },
});

/** A withdrawal (出金) is frozen when asked; the operator pays it out or rejects it (the money is released). */
export const WithdrawalStates = defineStateMachine({
  label: '出金申请状态',
  states: { pending: '待付款', paid: '已付款', rejected: '已驳回' },
  moves: {
    pay: { from: ['pending'], to: 'paid', event: 'funds.withdrawal_paid' },
    reject: { from: ['pending'], to: 'rejected', event: 'funds.withdrawal_rejected' },
  },
});

/** A trade deposit frozen for a subscription or an enrolment. */
export const TradeDepositStates = defineStateMachine({
  label: '保证金状态',
  states: { frozen: '已冻结', performance: '履约保证金', released: '已释放', applied: '已抵扣货款', forfeited: '违约划转' },
  moves: {
    toPerformance: { from: ['frozen'], to: 'performance', event: 'funds.deposit_performance' },
    release: { from: ['frozen', 'performance'], to: 'released', event: 'funds.deposit_released' },
    apply: { from: ['frozen', 'performance'], to: 'applied', event: 'funds.deposit_applied' },
    /** a contract voided for this side's breach: the deposit goes to the other side */
    forfeit: { from: ['frozen', 'performance'], to: 'forfeited', event: 'funds.deposit_forfeited' },
  },
});
