import { ProFormDatePicker, ProFormRadio } from '@ant-design/pro-components';
import dayjs, { type Dayjs } from 'dayjs';
import { BREACH_RULINGS, ContractExtendSchema, ContractVoidSchema } from '@coalx/shared';
import { yuan } from '@/components/Money';
import { confirmMoney } from '@/components/MoneyConfirm';
import ReasonModal from '@/components/ReasonModal';
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
    <ReasonModal
      title={`作废合同并认定违约 · ${detail.contractNo}`}
      open={open}
      onOpenChange={onOpenChange}
      width={560}
      label="作废原因"
      placeholder="如：买方逾期未签署合同，经联系仍未签署"
      schema={ContractVoidSchema}
      confirm={(values) =>
        confirmMoney({
          title: '确认作废合同',
          rows: [
            { label: '合同编号', value: detail.contractNo },
            { label: '合同金额', value: yuan(detail.amount) },
            { label: '违约认定', value: BREACH_RULINGS[values.breachBy] },
            { label: '履约保证金', value: yuan(detail.depositFen), strong: true },
          ],
          next: <span data-testid="void-outcome">{depositOutcome(detail, values.breachBy)} 合同作废后不可恢复。</span>,
          okText: '确认作废',
        })
      }
      submit={(values) => voidContract(detail.id, values)}
      done="合同已作废"
      failure="作废失败，请稍后重试"
      onDone={onDone}
    >
      <ProFormRadio.Group
        name="breachBy"
        label="违约认定"
        options={Object.entries(BREACH_RULINGS).map(([value, label]) => ({ value, label }))}
        rules={[{ required: true, message: '请认定违约方' }]}
      />
    </ReasonModal>
  );
}

/** 延期: once per contract, a reason and the new last day for signing. */
export function ExtendModal({ detail, open, onOpenChange, onDone }: RulingProps) {
  return (
    <ReasonModal
      title={`延期签署 · ${detail.contractNo}`}
      open={open}
      onOpenChange={onOpenChange}
      label="延期原因"
      schema={ContractExtendSchema}
      submitText="确认延期"
      submit={(values) => extendContract(detail.id, values)}
      done={(saved) => `签署截止已延至 ${saved.signDeadline}`}
      failure="延期失败，请稍后重试"
      onDone={onDone}
    >
      <p>原签署截止：{detail.signDeadline}。每份合同只能延期一次，新的截止时间为所选日期当天 23:59:59（北京时间）。</p>
      <ProFormDatePicker
        name="until"
        label="新的签署截止日期"
        width="md"
        fieldProps={{ format: 'YYYY-MM-DD', disabledDate: (d: Dayjs) => d.isBefore(dayjs(), 'day') }}
        rules={[{ required: true, message: '请选择新的签署截止日期' }]}
      />
    </ReasonModal>
  );
}
