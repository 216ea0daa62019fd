import { ProFormTextArea } from '@ant-design/pro-components';
import { message } from 'antd';
import { LongTermTerminateSchema } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import GuardedModalForm from '@/components/GuardedModalForm';
import { ask } from '@/components/longTerm/LongTermParts';
import { terminateLongTerm, type LongTermDetail } from '@/services/longTerm';

/** 终止长协 (the trading centre): a reason, then a confirmation saying what ends with it and what does not. */
export default function TerminateModal({ detail, open, onOpenChange, onDone }: { detail: LongTermDetail; open: boolean; onOpenChange: (open: boolean) => void; onDone: (next: LongTermDetail) => void }) {
  return (
    <GuardedModalForm<{ reason: string }>
      title={`终止长协 · ${detail.dealNo}`}
      open={open}
      onOpenChange={onOpenChange}
      width={520}
      modalProps={{ destroyOnHidden: true, maskClosable: false }}
      submitter={{ searchConfig: { submitText: '下一步', resetText: '取消' } }}
      onFinish={async (values) => {
        const checked = LongTermTerminateSchema.safeParse(values);
        if (!checked.success) {
          message.error(checked.error.issues[0]?.message ?? '填写有误');
          return false;
        }
        const ok = await ask({
          title: `确认终止长协 ${detail.dealNo}？`,
          content: `终止后不可恢复：待确认的月度调运将被撤回，框架合同${detail.contractNo ? ` ${detail.contractNo} ` : ''}随之终止；已确认调运的月度合同与订单照常履行。`,
          okText: '确认终止',
          danger: true,
        });
        if (!ok) return false;
        try {
          const next = await terminateLongTerm(detail.id, checked.data.reason);
          message.success('长协已终止');
          onDone(next);
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
        placeholder="如：买方连续三个月履约率低于预警线，经双方协商终止"
        fieldProps={{ maxLength: 200, showCount: true, rows: 3 }}
        rules={[{ required: true, message: '请输入终止原因' }, { min: 2, message: '终止原因至少 2 个字' }]}
      />
    </GuardedModalForm>
  );
}
