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
