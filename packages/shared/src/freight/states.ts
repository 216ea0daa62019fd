import { defineStateMachine } from '../state-machine';

/**
 * A freight statement (运费结算单) of the transporting enterprise with one carrier. Carriers are not platform users,
 * so "confirmed by the carrier side" is recorded by the enterprise with the carrier's signed copy uploaded; paying
 * happens off the platform (a bank transfer to the carrier) and is recorded with its voucher. A draft may be voided,
 * which frees its trucks for another statement.
 */
export const FreightStatementStates = defineStateMachine({
  label: '运费结算单状态',
  states: { draft: '草稿', confirmed: '已确认', paid: '已付款', cancelled: '已作废' },
  moves: {
    confirm: { from: ['draft'], to: 'confirmed', event: 'freight.confirmed' },
    pay: { from: ['confirmed'], to: 'paid', event: 'freight.paid' },
    cancel: { from: ['draft'], to: 'cancelled', event: 'freight.cancelled' },
  },
});
