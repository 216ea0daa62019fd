import { Progress, Space, Tag } from 'antd';
import { ORDER_STATUS } from '@coalx/shared';
import { ORDER_STATUS_COLOR, signedProgress } from '@/lib/order';
import type { OrderSummary } from '@/services/order';
import './order.css';

/** The order's state, and 逾期 beside 待付款 once the payment deadline has passed. */
export function OrderStatusTag({ status, overdue }: { status: string; overdue?: boolean }) {
  return (
    <Space size={4} wrap={false}>
      <Tag color={ORDER_STATUS_COLOR[status] ?? 'default'} className="coalx-order-status" data-status={status}>
        {(ORDER_STATUS as Record<string, string>)[status] ?? status}
      </Tag>
      {overdue ? <Tag color="red">逾期</Tag> : null}
    </Space>
  );
}

/** 已签收 x / 合同 y 吨 with a small bar (the list's progress column). */
export function SignedProgress({ order }: { order: Pick<OrderSummary, 'quantity' | 'progress'> }) {
  const { text, percent } = signedProgress(order);
  // the two halves wrap as wholes on a narrow column, so no number is ever cut
  const [signed, contract] = text.split(' / ');
  return (
    <div className="coalx-order-progress" title={text}>
      <div className="coalx-order-progress-text coalx-num">
        <span>{signed}</span> / <span>{contract}</span>
      </div>
      <Progress percent={percent} size="small" showInfo={false} strokeColor="#1a56db" />
    </div>
  );
}
