import { defineStateMachine } from '../state-machine';

/** An enterprise's audit: the operator decides a pending one; a rejected one is corrected and resubmitted. */
export const EnterpriseAuditStates = defineStateMachine({
  label: '企业审核状态',
  states: { pending: '待审核', approved: '已通过', rejected: '已驳回' },
  moves: {
    approve: { from: ['pending'], to: 'approved', event: 'enterprise.approved' },
    reject: { from: ['pending'], to: 'rejected', event: 'enterprise.rejected' },
    resubmit: { from: ['rejected'], to: 'pending', event: 'enterprise.resubmitted' },
  },
});

/** An application to change an approved enterprise's legal data. */
export const ChangeRequestStates = defineStateMachine({
  label: '变更申请状态',
  states: { pending: '待审核', approved: '已通过', rejected: '已驳回' },
  moves: {
    approve: { from: ['pending'], to: 'approved', event: 'enterprise.change_approved' },
    reject: { from: ['pending'], to: 'rejected', event: 'enterprise.change_rejected' },
  },
});

/**
 * A suspension of an enterprise's trading (暂停交易) by the trading centre: active from its birth, until the operator
 * lifts it early or its end time passes (the scheduler then marks it ended; the trading check already ignores an
 * active row whose end time has passed, so a period never lasts longer than it said).
 */
export const TradingSuspensionStates = defineStateMachine({
  label: '暂停交易状态',
  states: { active: '暂停中', lifted: '已恢复', ended: '已到期' },
  moves: {
    lift: { from: ['active'], to: 'lifted', event: 'enterprise.trading_resumed' },
    end: { from: ['active'], to: 'ended', event: 'enterprise.trading_suspension_ended' },
  },
});
