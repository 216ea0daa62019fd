import { ProFormDatePicker, ProFormRadio, ProFormTextArea } from '@ant-design/pro-components';
import { message } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { BREACH_RULINGS, ContractExtendSchema, ContractVoidSchema, type BreachRuling } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import GuardedModalForm from '@/components/GuardedModalForm';
import { yuan } from '@/components/Money';
import { confirmMoney } from '@/components/MoneyConfirm';
import { depositOutcome } from '@/lib/contract';
import { extendContract, voidContract, type ContractDetail } from '@/services/contract';

interface RulingProps {
  detail: ContractDetail;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onDone: (detail: ContractDetail) => void;
}

/** 作废并认定违约: a reason and who breached, then a confirmation that says where the deposits go. */
export function VoidModal({ detail, open, onOpenChange, onDone }: RulingProps) {
  return (
    <GuardedModalForm<{ reason: string; breachBy: BreachRuling }>
      title={`作废合同并认定违约 · ${detail.contractNo}`}
      open={open}
      onOpenChange={onOpenChange}
      width={560}
      modalProps={{ destroyOnHidden: true, maskClosable: false }}
      submitter={{ searchConfig: { submitText: '下一步', resetText: '取消' } }}
      onFinish={async (values) => {
        const checked = ContractVoidSchema.safeParse(values);
        if (!checked.success) {
          message.error(checked.error.issues[0]?.message ?? '填写有误');
          return false;
        }
        const ok = await confirmMoney({
          title: '确认作废合同',
          rows: [
            { label: '合同编号', value: detail.contractNo },
            { label: '合同金额', value: yuan(detail.amount) },
            { label: '违约认定', value: BREACH_RULINGS[checked.data.breachBy] },
            { label: '履约保证金', value: yuan(detail.depositFen), strong: true },
          ],
          next: <span data-testid="void-outcome">{depositOutcome(detail, checked.data.breachBy)} 合同作废后不可恢复。</span>,
          okText: '确认作废',
        });
        if (!ok) return false;
        try {
          const saved = await voidContract(detail.id, checked.data);
          message.success('合同已作废');
          onDone(saved);
          return true;
        } catch (error) {
          message.error(errorMessage(error, '作废失败，请稍后重试'));
          return false;
        }
      }}
    >
      <ProFormRadio.Group
        name="breachBy"
        label="违约认定"
        options={Object.entries(BREACH_RULINGS).map(([value, label]) => ({ value, label }))}
        rules={[{ required: true, message: '请认定违约方' }]}
      />
      <ProFormTextArea name="reason" label="作废原因" placeholder="如：买方逾期未签署合同，经联系仍未签署" fieldProps={{ maxLength: 200, showCount: true, rows: 3 }} rules={[{ required: true, message: '请输入作废原因' }]} />
    </GuardedModalForm>
  );
}

/** 延期: once per contract, a reason and the new last day for signing. */
export function ExtendModal({ detail, open, onOpenChange, onDone }: RulingProps) {
  return (
    <GuardedModalForm<{ reason: string; until: string }>
      title={`延期签署 · ${detail.contractNo}`}
      open={open}
      onOpenChange={onOpenChange}
      width={520}
      modalProps={{ destroyOnHidden: true, maskClosable: false }}
      submitter={{ searchConfig: { submitText: '确认延期', resetText: '取消' } }}
      onFinish={async (values) => {
        const checked = ContractExtendSchema.safeParse(values);
        if (!checked.success) {
          message.error(checked.error.issues[0]?.message ?? '填写有误');
          return false;
        }
        try {
          const saved = await extendContract(detail.id, checked.data);
          message.success(`签署截止已延至 ${saved.signDeadline}`);
          onDone(saved);
          return true;
        } catch (error) {
          message.error(errorMessage(error, '延期失败，请稍后重试'));
          return false;
        }
      }}
    >
      <p>原签署截止：{detail.signDeadline}。每份合同只能延期一次，新的截止时间为所选日期当天 23:59:59（北京时间）。</p>
      <ProFormDatePicker
        name="until"
        label="新的签署截止日期"
        width="md"
        fieldProps={{ format: 'YYYY-MM-DD', disabledDate: (d: Dayjs) => d.isBefore(dayjs(), 'day') }}
        rules={[{ required: true, message: '请选择新的签署截止日期' }]}
      />
      <ProFormTextArea name="reason" label="延期原因" fieldProps={{ maxLength: 200, showCount: true, rows: 3 }} rules={[{ required: true, message: '请输入延期原因' }]} />
    </GuardedModalForm>
  );
}
