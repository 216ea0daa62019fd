import { defineStateMachine } from '../state-machine';

/**
 * A driver with a vehicle (司机), registered by the enterprise that arranges transport and audited by the trading
 * centre (司机审核). Only approved drivers are dispatched. An edit of an approved or rejected driver sends it back
 * for audit; the enterprise may stop using a driver (停用) and take it up again (which needs a new audit).
 */
export const DriverStates = defineStateMachine({
  label: '司机审核状态',
  states: { pending: '待审核', approved: '已通过', rejected: '已驳回', disabled: '已停用' },
  moves: {
    approve: { from: ['pending'], to: 'approved', event: 'driver.approved' },
    reject: { from: ['pending'], to: 'rejected', event: 'driver.rejected' },
    resubmit: { from: ['approved', 'rejected', 'disabled'], to: 'pending', event: 'driver.resubmitted' },
    disable: { from: ['pending', 'approved', 'rejected'], to: 'disabled', event: 'driver.disabled' },
  },
});
