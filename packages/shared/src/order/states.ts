import { defineStateMachine } from '../state-machine';

/**
 * An order (订单) from its contract taking effect to its end (DESIGN.md §8 "Orders, payment and delivery"). The
 * buyer's prepayment into escrow makes it 待发货 (a contract with no prepayment starts there at once); the first
 * truck dispatched makes it 发运中; the seller declaring delivery finished, or the signed tons reaching the contract
 * quantity, makes it 待结算. Settlement (issue 15) takes it to 已结算 and the confirmed invoices to 已完成. The
 * operator may terminate an order that is not yet settled, with a reason; its escrow goes back to the buyer.
 */
export const OrderStates = defineStateMachine({
  label: '订单状态',
  states: {
    unpaid: '待付款',
    awaiting_shipment: '待发货',
    shipping: '发运中',
    awaiting_settlement: '待结算',
    settled: '已结算',
    completed: '已完成',
    terminated: '已终止',
  },
  moves: {
    pay: { from: ['unpaid'], to: 'awaiting_shipment', event: 'order.paid' },
    ship: { from: ['awaiting_shipment'], to: 'shipping', event: 'order.shipping' },
    finishDelivery: { from: ['shipping'], to: 'awaiting_settlement', event: 'order.delivered' },
    settle: { from: ['awaiting_settlement'], to: 'settled', event: 'order.settled' },
    complete: { from: ['settled'], to: 'completed', event: 'order.completed' },
    terminate: { from: ['unpaid', 'awaiting_shipment', 'shipping', 'awaiting_settlement'], to: 'terminated', event: 'order.terminated' },
  },
});

/** States in which trucks may still be dispatched against the order. */
export const ORDER_DISPATCHABLE_STATES = ['awaiting_shipment', 'shipping'] as const;
