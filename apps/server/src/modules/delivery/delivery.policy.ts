/**
 * Delivery (trucks, weigh tickets, sign-for, lab reports) acts on orders: who may do what is the order's policy
 * (the buyer, the seller, the transporting side, the operator), asked with the order each action belongs to.
 */
export { orderPolicy as deliveryPolicy, orderSideOf } from '../order/order.policy';
