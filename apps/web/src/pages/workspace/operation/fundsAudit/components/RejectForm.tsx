import { ProFormTextArea } from '@ant-design/pro-components';
import GuardedModalForm from '@/components/GuardedModalForm';
import { Descriptions, message } from 'antd';
import { errorMessage } from '@/app/request';
import Money from '@/components/Money';
import { rejectTransfer, type Transfer, type TransferKind } from '@/services/funds';

/** 驳回 with a reason the enterprise will see; a withdrawal's frozen amount is released. */
export default function RejectForm({ kind, record, onClose, onDone }: { kind: TransferKind; record: Transfer | null; onClose: () => void; onDone: () => void }) {
  return (
    <GuardedModalForm<{ reason: string }>
      title={kind === 'depositIn' ? '驳回入金申请' : '驳回出金申请'}
      open={Boolean(record)}
      width={480}
      modalProps={{ destroyOnHidden: true, maskClosable: false, onCancel: onClose }}
      submitter={{ searchConfig: { submitText: '确认驳回', resetText: '取消' }, submitButtonProps: { danger: true } }}
      onFinish={async ({ reason }) => {
        if (!record) return false;
        try {
          await rejectTransfer(kind, record.id, reason.trim());
        } catch (error) {
          message.error(errorMessage(error));
          return false;
        }
        message.success(kind === 'depositIn' ? '已驳回' : '已驳回，金额已解冻');
        onDone();
        onClose();
        return true;
      }}
    >
      {record ? (
        <Descriptions column={1} size="small" bordered style={{ marginBottom: 16 }}>
          <Descriptions.Item label="企业">{record.enterpriseName}</Descriptions.Item>
          <Descriptions.Item label="金额">
            <Money fen={record.amount} strong />
          </Descriptions.Item>
        </Descriptions>
      ) : null}
      <ProFormTextArea
        name="reason"
        label="驳回原因"
        placeholder={kind === 'depositIn' ? '如：未查到该笔到账，请核对转账信息' : '如：收款账户信息有误'}
        fieldProps={{ maxLength: 200, showCount: true, rows: 3 }}
        rules={[
          { required: true, whitespace: true, message: '请填写驳回原因' },
          { min: 2, message: '请填写驳回原因' },
        ]}
      />
    </GuardedModalForm>
  );
}
