import { OrderTerminateSchema } from '@coalx/shared';
import { ask } from '@/components/longTerm/LongTermParts';
import { yuan } from '@/components/Money';
import ReasonModal from '@/components/ReasonModal';
import { terminateOrder, type OrderDetail } from '@/services/order';

interface Props {
  detail: OrderDetail;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onDone: (detail: OrderDetail) => void;
}

/** 终止订单 (the trading centre): a reason, then a confirmation that says where the escrow goes. */
export default function TerminateModal({ detail, open, onOpenChange, onDone }: Props) {
  return (
    <ReasonModal
      title={`终止订单 · ${detail.orderNo}`}
      open={open}
      onOpenChange={onOpenChange}
      label="终止原因"
      placeholder="如：买方逾期未付款，经联系确认不再履行"
      minLength={2}
      schema={OrderTerminateSchema}
      confirm={() =>
        ask({
          title: `确认终止订单 ${detail.orderNo}？`,
          content:
            detail.escrow > 0
              ? `终止后订单不可恢复；买方托管的货款 ${yuan(detail.escrow)} 将立即解冻退回买方可用资金。`
              : '终止后订单不可恢复；本订单尚无托管货款，不涉及资金变动。',
          okText: '确认终止',
          danger: true,
        })
      }
      submit={(values) => terminateOrder(detail.id, values)}
      done="订单已终止"
      failure="终止失败，请稍后重试"
      onDone={onDone}
    />
  );
}
