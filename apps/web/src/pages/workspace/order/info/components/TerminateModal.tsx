import { ProFormTextArea } from '@ant-design/pro-components';
import { Modal, message } from 'antd';
import { OrderTerminateSchema } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import GuardedModalForm from '@/components/GuardedModalForm';
import { yuan } from '@/components/Money';
import { terminateOrder, type OrderDetail } from '@/services/order';

interface Props {
  detail: OrderDetail;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onDone: (detail: OrderDetail) => void;
}

const confirm = (detail: OrderDetail) =>
  new Promise<boolean>((resolve) => {
    Modal.confirm({
      title: `确认终止订单 ${detail.orderNo}？`,
      content:
        detail.escrow > 0
          ? `终止后订单不可恢复；买方托管的货款 ${yuan(detail.escrow)} 将立即解冻退回买方可用资金。`
          : '终止后订单不可恢复；本订单尚无托管货款，不涉及资金变动。',
      okText: '确认终止',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: () => resolve(true),
      onCancel: () => resolve(false),
    });
  });

/** 终止订单 (the trading centre): a reason, then a confirmation that says where the escrow goes. */
export default function TerminateModal({ detail, open, onOpenChange, onDone }: Props) {
  return (
    <GuardedModalForm<{ reason: string }>
      title={`终止订单 · ${detail.orderNo}`}
      open={open}
      onOpenChange={onOpenChange}
      width={520}
      modalProps={{ destroyOnHidden: true, maskClosable: false }}
      submitter={{ searchConfig: { submitText: '下一步', resetText: '取消' } }}
      onFinish={async (values) => {
        const checked = OrderTerminateSchema.safeParse(values);
        if (!checked.success) {
          message.error(checked.error.issues[0]?.message ?? '填写有误');
          return false;
        }
        if (!(await confirm(detail))) return false;
        try {
          const saved = await terminateOrder(detail.id, checked.data);
          message.success('订单已终止');
          onDone(saved);
          return true;
        } catch (error) {
          message.error(errorMessage(error, '终止失败，请稍后重试'));
          return false;
        }
      }}
    >
      <ProFormTextArea
        name="reason"
        label="终止原因"
        placeholder="如：买方逾期未付款，经联系确认不再履行"
        fieldProps={{ maxLength: 200, showCount: true, rows: 3 }}
        rules={[{ required: true, message: '请输入终止原因' }, { min: 2, message: '终止原因至少 2 个字' }]}
      />
    </GuardedModalForm>
  );
}
