/** One order's trucks, weigh tickets, sign-for and lab reports (订单详情): built by the delivery work. */
export default function OrderDelivery(_props: { orderId: number }) {
  return null;
}
