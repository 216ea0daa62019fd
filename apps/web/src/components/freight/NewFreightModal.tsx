import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ProForm, ProFormDateRangePicker, ProFormRadio, ProFormSelect, ProFormText, ProFormTextArea } from '@ant-design/pro-components';
import { AutoComplete, Alert, Button, Col, Form, message } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { YUAN_PATTERN, yuanTextToFen, type FreightDraftInput } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import GuardedModalForm from '@/components/GuardedModalForm';
import { FREIGHT_KEYS, draftFreight, getFreightCarriers, previewFreight, type FreightPreview } from '@/services/freight';
import { FreightLinesTable, FreightMoneyLine } from './FreightParts';

interface Values {
  carrierKind: 'driver' | 'company';
  driverId?: number;
  carrierName?: string;
  period?: [Dayjs | string, Dayjs | string];
  rate?: string;
  note?: string;
}

const day = (v: Dayjs | string) => dayjs(v).format('YYYY-MM-DD');

/** The draft input of the form's values, or null when something is missing (the form's rules say what). */
function inputOf(v: Values): FreightDraftInput | null {
  const rateFen = yuanTextToFen(v.rate);
  if (!v.period || rateFen === null) return null;
  return {
    carrierKind: v.carrierKind,
    driverId: v.carrierKind === 'driver' ? v.driverId : undefined,
    carrierName: v.carrierKind === 'company' ? v.carrierName?.trim() : undefined,
    periodFrom: day(v.period[0]),
    periodTo: day(v.period[1]),
    rateFen,
    note: v.note?.trim() || undefined,
  };
}

/**
 * 新建运费结算单: the carrier and the period choose the signed trucks; 计算运费 lists them with their lines and the
 * money (nothing stored); the trucks may be narrowed by ticking; 保存草稿 stores the statement.
 */
export default function NewFreightModal({ open, onClose, onSaved }: { open: boolean; onClose: () => void; onSaved: () => void }) {
  const [form] = Form.useForm<Values>();
  const carriers = useQuery({ queryKey: FREIGHT_KEYS.carriers, queryFn: getFreightCarriers, enabled: open });
  const [preview, setPreview] = useState<FreightPreview | null>(null);
  const [chosen, setChosen] = useState<number[]>([]);
  const [computing, setComputing] = useState(false);
  const kind = Form.useWatch('carrierKind', form);

  const compute = async () => {
    const values = await form.validateFields();
    const input = inputOf(values);
    if (!input) return;
    setComputing(true);
    try {
      const answer = await previewFreight(input);
      setPreview(answer);
      setChosen(answer.lines.map((l) => l.dispatchId));
    } catch (error) {
      setPreview(null);
      message.error(errorMessage(error));
    } finally {
      setComputing(false);
    }
  };
  // only the ticked trucks count: the money shown is recomputed by the server for exactly those
  const recompute = async (ids: number[]) => {
    setChosen(ids);
    const input = inputOf(form.getFieldsValue(true) as Values);
    if (!input || ids.length === 0) return;
    try {
      const answer = await previewFreight({ ...input, lines: ids.map((dispatchId) => ({ dispatchId })) });
      setPreview((p) => (p ? { ...answer, lines: p.lines } : answer));
    } catch (error) {
      message.error(errorMessage(error));
    }
  };

  return (
    <GuardedModalForm<Values>
      title="新建运费结算单"
      form={form}
      open={open}
      onOpenChange={(o) => {
        if (!o) {
          setPreview(null);
          onClose();
        }
      }}
      width={1300}
      initialValues={{ carrierKind: 'driver' }}
      modalProps={{ destroyOnHidden: true, maskClosable: false }}
      submitter={{ searchConfig: { submitText: '保存草稿', resetText: '取消' }, submitButtonProps: { disabled: !preview || chosen.length === 0 } }}
      onValuesChange={(changed) => {
        if (!('note' in changed)) setPreview(null);
      }}
      onFinish={async (values) => {
        const input = inputOf(values);
        if (!input || !preview) return false;
        try {
          const all = chosen.length === preview.lines.length;
          const saved = await draftFreight(all ? input : { ...input, lines: chosen.map((dispatchId) => ({ dispatchId })) });
          message.success(`已保存草稿 ${saved.statementNo}`);
          setPreview(null);
          onSaved();
          return true;
        } catch (error) {
          message.error(errorMessage(error));
          return false;
        }
      }}
      grid
      rowProps={{ gutter: 16 }}
    >
      <ProFormRadio.Group
        name="carrierKind"
        label="承运方"
        colProps={{ span: 8 }}
        radioType="button"
        options={[
          { label: '本企业登记的司机', value: 'driver' },
          { label: '承运公司', value: 'company' },
        ]}
      />
      {kind === 'company' ? (
        <Col span={8}>
          <ProForm.Item name="carrierName" label="承运公司名称" rules={[{ required: true, min: 2, max: 60, message: '请输入承运公司名称（2–60 字）' }]}>
            <AutoComplete options={(carriers.data?.companies ?? []).map((c) => ({ value: c }))} placeholder="如：晋运物流有限公司" />
          </ProForm.Item>
        </Col>
      ) : (
        <ProFormSelect
          name="driverId"
          label="司机"
          colProps={{ span: 8 }}
          rules={[{ required: true, message: '请选择司机' }]}
          fieldProps={{ showSearch: true, optionFilterProp: 'label', loading: carriers.isLoading }}
          options={(carriers.data?.drivers ?? []).map((d) => ({ value: d.id, label: `${d.name} ${d.plateNo}` }))}
          placeholder="请选择司机"
        />
      )}
      <ProFormDateRangePicker
        name="period"
        label="结算期间（签收日期）"
        colProps={{ span: 8 }}
        rules={[{ required: true, message: '请选择结算期间' }]}
        fieldProps={{ format: 'YYYY-MM-DD', placeholder: ['开始日期', '结束日期'], style: { width: '100%' } }}
      />
      <ProFormText
        name="rate"
        label="运价（元/吨，不含税）"
        colProps={{ span: 8 }}
        rules={[
          { required: true, message: '请输入运价' },
          { pattern: YUAN_PATTERN, message: '运价最多两位小数' },
          { validator: async (_, v) => { const fen = yuanTextToFen(v); if (fen !== null && (fen <= 0 || fen > 100_000)) throw new Error('运价须大于 0 且不超过 1000 元/吨'); } },
        ]}
        placeholder="如：85.50"
      />
      <ProFormTextArea name="note" label="备注" colProps={{ span: 12 }} fieldProps={{ maxLength: 300, rows: 1 }} />
      <Col span={4}>
        <ProForm.Item label=" ">
          <Button type="primary" ghost loading={computing} onClick={() => void compute()} data-testid="freight-compute">
            计算运费
          </Button>
        </ProForm.Item>
      </Col>
      <div style={{ width: '100%', padding: '0 8px' }}>
        {preview ? (
          <>
            <Alert
              type="info"
              showIcon
              style={{ marginBottom: 12 }}
              message={`${preview.carrierName}：本期间可结算 ${preview.lines.length} 车，已选 ${chosen.length} 车。每车运费 = 运价 × 签收量，超过合同合理途损的部分按订单价扣减；增值税 9%。`}
            />
            <FreightMoneyLine money={preview} />
            <div style={{ height: 12 }} />
            <FreightLinesTable lines={preview.lines} selected={chosen} onSelect={(ids) => void recompute(ids)} />
          </>
        ) : (
          <Alert type="warning" showIcon message="选择承运方、结算期间并输入运价后，点击“计算运费”列出可结算的已签收车辆。" />
        )}
      </div>
    </GuardedModalForm>
  );
}
