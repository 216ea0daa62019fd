import { useEffect, useMemo, useState } from 'react';
import QualityFields from '@/components/QualityFields';
import {
  ProForm,
  ProFormDateRangePicker,
  ProFormDateTimeRangePicker,
  ProFormRadio,
  ProFormSelect,
  ProFormSwitch,
  ProFormText,
  ProFormTextArea,
} from '@ant-design/pro-components';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Form, Row, message } from 'antd';
import type { FormInstance, Rule } from 'antd/es/form';
import dayjs, { type Dayjs } from 'dayjs';
import {
  DEPOSIT_MODES,
  MAX_PRICE_FEN,
  PRICE_LABEL,
  PRICE_TYPES,
  TRANSPORTS,
  formatFen,
  formatTons,
  type ListingView,
} from '@coalx/shared';
import { errorMessage } from '@/app/request';
import { listProducts, saveListing } from '@/services/listing';
import {
  TONS_PATTERN,
  YUAN_PATTERN,
  crossFieldErrors,
  fromListing,
  tonsTextToKg,
  toListingApply,
  yuanTextToFen,
  type ListingFormValues,
} from '@/lib/listing';
import AreaCascader from '@/components/trade/DeliveryAreaCascader';

const WALL = 'YYYY-MM-DD HH:mm:ss';
const DAY = 'YYYY-MM-DD';

/** The antd form's own values: numbers as typed text, the two ranges as dayjs pairs. */
interface RawValues extends Omit<ListingFormValues, 'deliveryDateStart' | 'deliveryDateEnd' | 'listedDateStart' | 'listedDateEnd'> {
  deliveryDates?: [Dayjs | null, Dayjs | null] | null;
  listedDates?: [Dayjs | null, Dayjs | null] | null;
}

export function toFormValues(raw: RawValues, tradeType: 0 | 1, tradeId?: string): ListingFormValues {
  const { deliveryDates, listedDates, ...rest } = raw;
  return {
    ...rest,
    tradeType,
    tradeId,
    deliveryDateStart: deliveryDates?.[0]?.format(DAY),
    deliveryDateEnd: deliveryDates?.[1]?.format(DAY),
    listedDateStart: listedDates?.[0]?.format(WALL),
    listedDateEnd: listedDates?.[1]?.format(WALL),
  };
}

function toRaw(v: ListingFormValues): RawValues {
  const { deliveryDateStart, deliveryDateEnd, listedDateStart, listedDateEnd, ...rest } = v;
  return {
    ...rest,
    deliveryDates: deliveryDateStart && deliveryDateEnd ? [dayjs(deliveryDateStart), dayjs(deliveryDateEnd)] : null,
    listedDates: listedDateStart && listedDateEnd ? [dayjs(listedDateStart), dayjs(listedDateEnd)] : null,
  };
}

const tonsRule: Rule = {
  validator: (_, value: string | undefined) => {
    if (!value) return Promise.resolve();
    if (!TONS_PATTERN.test(value)) return Promise.reject(new Error('请输入数字，最多 3 位小数'));
    if ((tonsTextToKg(value) ?? 0) <= 0) return Promise.reject(new Error('须大于 0'));
    return Promise.resolve();
  },
};
const yuanRule = (max?: number): Rule => ({
  validator: (_, value: string | undefined) => {
    if (!value) return Promise.resolve();
    if (!YUAN_PATTERN.test(value)) return Promise.reject(new Error('金额须 ≥ 0，最多 2 位小数'));
    if (max !== undefined && (yuanTextToFen(value) ?? 0) > max) return Promise.reject(new Error(`不能超过 ${formatFen(max)} 元/吨`));
    return Promise.resolve();
  },
});

export interface ListingFormProps {
  tradeType: 0 | 1;
  /** A draft or rejected listing being edited. */
  editing?: ListingView;
  onSaved: (saved: ListingView, submitted: boolean) => void;
}

/** The publishing form of a listing sale (0) or purchase (1): every trade field, validated as the server does. */
export default function ListingForm({ tradeType, editing, onSaved }: ListingFormProps) {
  const [form] = Form.useForm<RawValues>();
  const [sending, setSending] = useState<null | 'draft' | 'submit'>(null);
  const products = useQuery({ queryKey: ['product', 'list'], queryFn: listProducts, staleTime: 60_000 });
  const depositMode = Form.useWatch('depositMode', form);
  const quantityTons = Form.useWatch('quantityTons', form);
  const priceYuan = Form.useWatch('priceYuan', form);

  useEffect(() => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    if (editing) form.setFieldsValue(toRaw(fromListing(editing)) as any);
  }, [editing, form]);

  /** Cross-field rule of one field, re-run whenever a field it depends on changes. */
  const cross = (key: keyof ListingFormValues): Rule => ({
    validator: () => {
      const errors = crossFieldErrors(toFormValues(form.getFieldsValue(true), tradeType));
      const text = errors[key];
      return text ? Promise.reject(new Error(text)) : Promise.resolve();
    },
  });

  const total = useMemo(() => {
    const kg = tonsTextToKg(quantityTons);
    const fen = yuanTextToFen(priceYuan);
    if (kg === null || fen === null || kg <= 0) return null;
    return { kg, amount: (BigInt(kg) * BigInt(fen) + 500n) / 1000n };
  }, [quantityTons, priceYuan]);

  const save = async (submit: boolean) => {
    let raw: RawValues;
    try {
      raw = await form.validateFields();
    } catch {
      message.error('请检查表单中标红的项目');
      return;
    }
    setSending(submit ? 'submit' : 'draft');
    try {
      const body = toListingApply(toFormValues({ ...form.getFieldsValue(true), ...raw }, tradeType, editing?.tradeId), submit);
      const saved = await saveListing(body);
      message.success(submit ? '已提交，等待交易中心审核' : '草稿已保存');
      onSaved(saved, submit);
    } catch (error) {
      message.error(errorMessage(error, '保存失败，请稍后重试'));
    } finally {
      setSending(null);
    }
  };

  const priceLabel = PRICE_LABEL[tradeType];
  const now = dayjs();

  return (
    <ProForm<RawValues>
      form={form as unknown as FormInstance<RawValues>}
      layout="vertical"
      submitter={false}
      initialValues={{ depositMode: 'per_ton', priceType: 'factory_tax', transport: 'road', autoConfirm: false }}
      scrollToFirstError
    >
      <Card variant="borderless" className="coalx-section-card">
        <div className="coalx-form-section-title">产品与质量指标</div>
        <Row gutter={24}>
          <Col xs={24} md={8}>
            <ProFormSelect
              name="stockCode"
              label="产品"
              placeholder="请选择产品"
              rules={[{ required: true, message: '请选择产品' }]}
              options={(products.data ?? []).map((p) => ({ label: `${p.stockName}（${p.category}）`, value: p.stockCode }))}
              fieldProps={{
                loading: products.isLoading,
                showSearch: true,
                onChange: (code: string) => {
                  const product = products.data?.find((p) => p.stockCode === code);
                  if (product) form.setFieldsValue({ quality: { ...product.quality } as RawValues['quality'] });
                },
              }}
            />
          </Col>
        </Row>
        <QualityFields />
      </Card>

      <Card variant="borderless" className="coalx-section-card" style={{ marginTop: 16 }}>
        <div className="coalx-form-section-title">数量与价格</div>
        <Row gutter={24}>
          <Col xs={24} md={8}>
            <ProFormText
              name="quantityTons"
              label="挂牌数量"
              placeholder="例如 20000"
              rules={[{ required: true, message: '请输入挂牌数量' }, tonsRule]}
              fieldProps={{ addonAfter: '吨', inputMode: 'decimal' }}
            />
          </Col>
          <Col xs={24} md={8}>
            <ProFormText
              name="priceYuan"
              label={priceLabel}
              placeholder="例如 780.00"
              rules={[{ required: true, message: `请输入${priceLabel}` }, yuanRule(MAX_PRICE_FEN)]}
              fieldProps={{ addonAfter: '元/吨', inputMode: 'decimal' }}
            />
          </Col>
          <Col xs={24} md={8}>
            <ProFormSelect
              name="priceType"
              label="价格类型"
              rules={[{ required: true, message: '请选择价格类型' }]}
              options={Object.entries(PRICE_TYPES).map(([value, label]) => ({ value, label }))}
            />
          </Col>
          <Col xs={24} md={8}>
            <ProFormText
              name="minTons"
              label="最小摘牌量"
              placeholder="每笔至少"
              dependencies={['maxTons', 'quantityTons']}
              rules={[{ required: true, message: '请输入最小摘牌量' }, tonsRule, cross('minTons')]}
              fieldProps={{ addonAfter: '吨', inputMode: 'decimal' }}
            />
          </Col>
          <Col xs={24} md={8}>
            <ProFormText
              name="maxTons"
              label="最大摘牌量"
              placeholder="每笔至多"
              dependencies={['minTons', 'quantityTons']}
              rules={[{ required: true, message: '请输入最大摘牌量' }, tonsRule, cross('maxTons')]}
              fieldProps={{ addonAfter: '吨', inputMode: 'decimal' }}
            />
          </Col>
          <Col xs={24} md={8}>
            <Form.Item label="挂牌总金额（参考）">
              <div className="coalx-figure-value coalx-price" style={{ lineHeight: '32px', fontSize: 18 }}>
                {total ? `¥${formatFen(total.amount)}` : '-'}
              </div>
              <div className="coalx-hint">{total ? `${formatTons(total.kg)} × ${priceLabel}` : '填写数量与价格后自动计算'}</div>
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <ProFormRadio.Group
              name="depositMode"
              label="保证金方式"
              radioType="button"
              rules={[{ required: true, message: '请选择保证金方式' }]}
              options={Object.entries(DEPOSIT_MODES).map(([value, label]) => ({ value, label }))}
            />
          </Col>
          <Col xs={24} md={8}>
            <ProFormText
              name="depositYuan"
              label={depositMode === 'fixed' ? '保证金（每笔摘牌）' : '保证金（每吨）'}
              placeholder="例如 20.00"
              rules={[{ required: true, message: '请输入保证金' }, yuanRule()]}
              fieldProps={{ addonAfter: depositMode === 'fixed' ? '元/笔' : '元/吨', inputMode: 'decimal' }}
            />
          </Col>
          <Col xs={24} md={8}>
            <ProFormRadio.Group
              name="transport"
              label="运输方式"
              radioType="button"
              rules={[{ required: true, message: '请选择运输方式' }]}
              options={Object.entries(TRANSPORTS).map(([value, label]) => ({ value, label }))}
            />
          </Col>
        </Row>
      </Card>

      <Card variant="borderless" className="coalx-section-card" style={{ marginTop: 16 }}>
        <div className="coalx-form-section-title">交收与挂牌时间</div>
        <Row gutter={24}>
          <Col xs={24} md={8}>
            <Form.Item
              name="area"
              label="交收地区"
              rules={[
                { required: true, message: '请选择交收地区' },
                { validator: (_, v: string[] | undefined) => (!v || v.length >= 2 ? Promise.resolve() : Promise.reject(new Error('请至少选择到城市'))) },
              ]}
            >
              <AreaCascader />
            </Form.Item>
          </Col>
          <Col xs={24} md={16}>
            <ProFormText
              name="deliveryPlace"
              label="交收地点"
              placeholder="例如 朔州市平鲁区井坪镇某储煤场"
              rules={[{ required: true, message: '请输入交收地点' }, { max: 100, message: '交收地点不超过 100 字' }]}
            />
          </Col>
          <Col xs={24} md={12}>
            <ProFormDateTimeRangePicker
              name="listedDates"
              label="挂牌时间"
              dependencies={[]}
              rules={[{ required: true, message: '请选择挂牌开始和结束时间' }, cross('listedDateStart'), cross('listedDateEnd')]}
              fieldProps={{
                format: WALL,
                placeholder: ['挂牌开始时间', '挂牌结束时间'],
                disabledDate: (d: Dayjs) => d.isBefore(now, 'day'),
                style: { width: '100%' },
              }}
              extra="北京时间；开始时间须晚于当前时间，审核通过后到开始时间自动上架"
            />
          </Col>
          <Col xs={24} md={12}>
            <ProFormDateRangePicker
              name="deliveryDates"
              label="交收日期"
              dependencies={['listedDates']}
              rules={[{ required: true, message: '请选择交收开始和结束日期' }, cross('deliveryDateStart'), cross('deliveryDateEnd')]}
              fieldProps={{ format: DAY, placeholder: ['交收开始日期', '交收结束日期'], disabledDate: (d: Dayjs) => d.isBefore(now, 'day'), style: { width: '100%' } }}
              extra="交收开始日期不能早于挂牌开始日期"
            />
          </Col>
          <Col xs={24} md={8}>
            <ProFormSwitch
              name="autoConfirm"
              label="自动确认成交"
              extra="开启后摘牌即成交，无需挂牌方逐笔确认"
              fieldProps={{ checkedChildren: '开启', unCheckedChildren: '关闭' }}
            />
          </Col>
          <Col xs={24} md={16}>
            <ProFormTextArea name="remark" label="备注" placeholder="选填，如质量检验、结算方式等补充说明" fieldProps={{ maxLength: 500, showCount: true, rows: 3 }} />
          </Col>
        </Row>
        <div className="coalx-form-actions">
          <Button size="large" onClick={() => save(false)} loading={sending === 'draft'} disabled={sending !== null}>
            保存草稿
          </Button>
          <Button size="large" type="primary" onClick={() => save(true)} loading={sending === 'submit'} disabled={sending !== null}>
            提交审核
          </Button>
        </div>
      </Card>
    </ProForm>
  );
}
