import { useEffect } from 'react';
import { ProFormDatePicker, ProFormDigit, ProFormGroup, ProFormList, ProFormSelect, ProFormText, ProFormTextArea } from '@ant-design/pro-components';
import { Alert, Form, message, Modal } from 'antd';
import { ContractEditSchema, TESTING_BASES, TRANSPORT_ARRANGERS, WEIGHING_BASES } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import GuardedModalForm from '@/components/GuardedModalForm';
import { saveContractTerms, type ContractDetail, type ContractTerms } from '@/services/contract';

/** The form holds the per-step deductions in yuan; the contract keeps fen. */
interface TermsForm extends Omit<ContractTerms, 'qualityAdjustments'> {
  qualityAdjustments: Omit<ContractTerms['qualityAdjustments'], 'qnetTiers' | 'fenPerStStep' | 'fenPerAdStep'> & {
    qnetTiers: { from: number; to: number; yuanPer100Kcal: number }[];
    yuanPerStStep: number;
    yuanPerAdStep: number;
  };
}

const toYuan = (fen: number) => fen / 100;
const toFen = (yuan: number | null | undefined) => Math.round(Number(yuan ?? 0) * 100);

function toForm(terms: ContractTerms): TermsForm {
  const { qnetTiers, fenPerStStep, fenPerAdStep, ...quality } = terms.qualityAdjustments;
  return {
    ...terms,
    qualityAdjustments: {
      ...quality,
      qnetTiers: qnetTiers.map((t) => ({ from: t.from, to: t.to, yuanPer100Kcal: toYuan(t.fenPer100Kcal) })),
      yuanPerStStep: toYuan(fenPerStStep),
      yuanPerAdStep: toYuan(fenPerAdStep),
    },
  };
}

function fromForm(values: TermsForm): ContractTerms {
  const { qnetTiers, yuanPerStStep, yuanPerAdStep, ...quality } = values.qualityAdjustments;
  return {
    ...values,
    remark: values.remark ?? '',
    qualityAdjustments: {
      ...quality,
      qnetTiers: (qnetTiers ?? []).map((t) => ({ from: Number(t.from), to: Number(t.to), fenPer100Kcal: toFen(t.yuanPer100Kcal) })),
      fenPerStStep: toFen(yuanPerStStep),
      fenPerAdStep: toFen(yuanPerAdStep),
    },
  };
}

const options = (map: Record<string, string>) => Object.entries(map).map(([value, label]) => ({ value, label }));

/** What an edit does to a signature already made, said before it is saved. */
function signatureWarning(detail: ContractDetail): string | null {
  const signed = [detail.sellerSignedAt ? '卖方' : null, detail.buyerSignedAt ? '买方' : null].filter(Boolean);
  if (signed.length === 0) return null;
  return `${signed.join('、')}已签署本合同。保存修改将清除已有签署，合同文件按新条款重新生成，双方须重新签署。`;
}

function confirmSave(detail: ContractDetail): Promise<boolean> {
  const warning = signatureWarning(detail);
  return new Promise((resolve) => {
    Modal.confirm({
      title: '确认修改合同条款？',
      content: (
        <div data-testid="terms-confirm">
          {warning ? <Alert type="warning" showIcon message={warning} style={{ marginBottom: 8 }} /> : null}
          <p>合同 {detail.contractNo} 的条款修改后立即生效，对方将看到新的合同文本。</p>
        </div>
      ),
      okText: warning ? '清除签署并保存' : '保存修改',
      okButtonProps: warning ? { danger: true } : undefined,
      cancelText: '再看看',
      onOk: () => resolve(true),
      onCancel: () => resolve(false),
    });
  });
}

export interface TermsModalProps {
  detail: ContractDetail;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSaved: (detail: ContractDetail) => void;
}

/** 编辑条款: every ContractTerms field, including the quality adjustment tiers, checked with the shared schema. */
export default function TermsModal({ detail, open, onOpenChange, onSaved }: TermsModalProps) {
  const [form] = Form.useForm<TermsForm>();
  useEffect(() => {
    if (open) form.setFieldsValue(toForm(detail.terms));
  }, [open, detail, form]);

  const warning = signatureWarning(detail);
  const percent = (name: string | string[], label: string, max: number, precision = 2) => (
    <ProFormDigit name={name} label={label} width="xs" min={0} max={max} fieldProps={{ precision, addonAfter: '%' }} rules={[{ required: true, message: `请输入${label}` }]} />
  );

  return (
    <GuardedModalForm<TermsForm>
      title={`编辑条款 · ${detail.contractNo}`}
      form={form}
      open={open}
      onOpenChange={onOpenChange}
      width={880}
      layout="vertical"
      modalProps={{ destroyOnHidden: true, maskClosable: false }}
      submitter={{ searchConfig: { submitText: '保存条款', resetText: '取消' } }}
      onFinish={async (values) => {
        const terms = fromForm(values);
        const checked = ContractEditSchema.safeParse({ terms });
        if (!checked.success) {
          message.error(checked.error.issues[0]?.message ?? '条款填写有误');
          return false;
        }
        if (!(await confirmSave(detail))) return false;
        try {
          const saved = await saveContractTerms(detail.id, checked.data.terms);
          message.success(warning ? '条款已保存，已有签署已清除，请双方重新签署' : '条款已保存');
          onSaved(saved);
          return true;
        } catch (error) {
          message.error(errorMessage(error, '保存失败，请稍后重试'));
          return false;
        }
      }}
    >
      {warning ? <Alert type="warning" showIcon message={warning} style={{ marginBottom: 16 }} /> : null}
      <ProFormGroup title="数量与交收">
        {percent('quantityTolerancePct', '溢短装比例 (±)', 20)}
        {percent('transitLossPct', '合理途损', 5)}
        <ProFormText name="deliveryPlace" label="交收地点" width="md" rules={[{ required: true, message: '请输入交收地点' }]} fieldProps={{ maxLength: 100 }} />
        <ProFormDatePicker name="deliveryDateStart" label="交收开始日期" width="sm" fieldProps={{ format: 'YYYY-MM-DD' }} rules={[{ required: true, message: '请选择交收开始日期' }]} />
        <ProFormDatePicker name="deliveryDateEnd" label="交收结束日期" width="sm" fieldProps={{ format: 'YYYY-MM-DD' }} rules={[{ required: true, message: '请选择交收结束日期' }]} />
      </ProFormGroup>
      <ProFormGroup title="运输、计量与化验">
        <ProFormSelect name="transportArranger" label="运输责任方" width="sm" options={options(TRANSPORT_ARRANGERS)} rules={[{ required: true, message: '请选择运输责任方' }]} />
        <ProFormSelect name="weighingBasis" label="计量依据" width="md" options={options(WEIGHING_BASES)} rules={[{ required: true, message: '请选择计量依据' }]} />
        <ProFormSelect name="testingBasis" label="化验依据" width="md" options={options(TESTING_BASES)} rules={[{ required: true, message: '请选择化验依据' }]} />
      </ProFormGroup>
      <ProFormGroup title="付款">
        {percent('prepaymentPct', '预付比例', 100, 0)}
        <ProFormDigit name="paymentWorkingDays" label="付款期限" width="sm" min={1} max={60} fieldProps={{ precision: 0, addonBefore: '签订后', addonAfter: '个工作日内' }} rules={[{ required: true, message: '请输入付款期限' }]} />
      </ProFormGroup>
      <ProFormGroup title="质量价格调整">
        <ProFormDigit name={['qualityAdjustments', 'basisQnet']} label="基准发热量 Qnet,ar" width="sm" min={1000} max={8000} fieldProps={{ precision: 0, addonAfter: 'kcal/kg' }} rules={[{ required: true, message: '请输入基准发热量' }]} />
        <ProFormDigit name={['qualityAdjustments', 'rejectBelowQnet']} label="低于此发热量可拒收" width="sm" min={0} max={8000} fieldProps={{ precision: 0, addonAfter: 'kcal/kg' }} rules={[{ required: true, message: '请输入拒收发热量' }]} />
        <ProFormDigit name={['qualityAdjustments', 'pricingMt']} label="计价全水分 Mt" width="xs" min={0} max={60} fieldProps={{ precision: 1, addonAfter: '%' }} rules={[{ required: true, message: '请输入计价全水分' }]} />
      </ProFormGroup>
      <ProFormList
        name={['qualityAdjustments', 'qnetTiers']}
        label="发热量分档（每偏离基准 100 kcal/kg 增减的价格）"
        creatorButtonProps={{ creatorButtonText: '添加分档' }}
        max={10}
        copyIconProps={false}
        deleteIconProps={{ tooltipText: '删除此档' }}
      >
        <ProFormGroup>
          <ProFormDigit name="from" label="自" width="xs" min={1000} max={8000} fieldProps={{ precision: 0, addonAfter: 'kcal' }} rules={[{ required: true, message: '请输入下限' }]} />
          <ProFormDigit name="to" label="至" width="xs" min={1000} max={8000} fieldProps={{ precision: 0, addonAfter: 'kcal' }} rules={[{ required: true, message: '请输入上限' }]} />
          <ProFormDigit name="yuanPer100Kcal" label="每 100 kcal" width="sm" min={0} max={1000} fieldProps={{ precision: 2, addonAfter: '元/吨' }} rules={[{ required: true, message: '请输入调整价格' }]} />
        </ProFormGroup>
      </ProFormList>
      <ProFormGroup>
        <ProFormDigit name={['qualityAdjustments', 'basisSt']} label="基准全硫 St,d" width="xs" min={0} max={10} fieldProps={{ precision: 2, addonAfter: '%' }} rules={[{ required: true, message: '请输入基准全硫' }]} />
        <ProFormDigit name={['qualityAdjustments', 'yuanPerStStep']} label="全硫每超 0.1% 扣减" width="sm" min={0} max={1000} fieldProps={{ precision: 2, addonAfter: '元/吨' }} rules={[{ required: true, message: '请输入扣减价格' }]} />
        <ProFormDigit name={['qualityAdjustments', 'basisAd']} label="基准灰分 Ad" width="xs" min={0} max={60} fieldProps={{ precision: 2, addonAfter: '%' }} rules={[{ required: true, message: '请输入基准灰分' }]} />
        <ProFormDigit name={['qualityAdjustments', 'yuanPerAdStep']} label="灰分每超 1% 扣减" width="sm" min={0} max={1000} fieldProps={{ precision: 2, addonAfter: '元/吨' }} rules={[{ required: true, message: '请输入扣减价格' }]} />
      </ProFormGroup>
      <ProFormTextArea name="remark" label="补充约定" fieldProps={{ maxLength: 500, showCount: true, rows: 3 }} placeholder="双方另行约定的事项（选填）" />
    </GuardedModalForm>
  );
}
