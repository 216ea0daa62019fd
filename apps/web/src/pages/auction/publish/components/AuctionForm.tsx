import { useEffect, useState } from 'react';
import QualityFields from '@/components/QualityFields';
import {
  ProForm,
  ProFormCheckbox,
  ProFormDateRangePicker,
  ProFormDateTimePicker,
  ProFormDateTimeRangePicker,
  ProFormDigit,
  ProFormRadio,
  ProFormSelect,
  ProFormText,
  ProFormTextArea,
} from '@ant-design/pro-components';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Form, Row, message } from 'antd';
import type { FormInstance, Rule } from 'antd/es/form';
import dayjs, { type Dayjs } from 'dayjs';
import { MAX_PRICE_FEN, PRICE_LABEL, PRICE_TYPES, TRANSPORTS, formatFen, type AuctionView } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import { TONS_PATTERN, YUAN_PATTERN, tonsTextToKg, yuanTextToFen } from '@/lib/listing';
import AreaCascader from '@/components/trade/DeliveryAreaCascader';
import { listProducts } from '@/services/listing';
import { saveAuction } from '@/services/auction';
import { DEFAULTS, auctionCrossErrors, fromAuction, stepWords, toAuctionApply, type AuctionFormValues } from '@/lib/auction';

const WALL = 'YYYY-MM-DD HH:mm:ss';
const DAY = 'YYYY-MM-DD';

interface RawValues extends Omit<AuctionFormValues, 'enrolDeadline' | 'bidStart' | 'bidEnd' | 'deliveryDateStart' | 'deliveryDateEnd'> {
  enrolDeadlineAt?: Dayjs | null;
  bidWindow?: [Dayjs | null, Dayjs | null] | null;
  deliveryDates?: [Dayjs | null, Dayjs | null] | null;
}

function toFormValues(raw: RawValues, tradeType: 2 | 3, tradeId?: string): AuctionFormValues {
  const { enrolDeadlineAt, bidWindow, deliveryDates, ...rest } = raw;
  return {
    ...rest,
    tradeType,
    tradeId,
    enrolDeadline: enrolDeadlineAt ? dayjs(enrolDeadlineAt).format(WALL) : undefined,
    bidStart: bidWindow?.[0] ? dayjs(bidWindow[0]).format(WALL) : undefined,
    bidEnd: bidWindow?.[1] ? dayjs(bidWindow[1]).format(WALL) : undefined,
    deliveryDateStart: deliveryDates?.[0] ? dayjs(deliveryDates[0]).format(DAY) : undefined,
    deliveryDateEnd: deliveryDates?.[1] ? dayjs(deliveryDates[1]).format(DAY) : undefined,
  };
}

function toRaw(v: AuctionFormValues): RawValues {
  const { enrolDeadline, bidStart, bidEnd, deliveryDateStart, deliveryDateEnd, ...rest } = v;
  return {
    ...rest,
    enrolDeadlineAt: enrolDeadline ? dayjs(enrolDeadline) : null,
    bidWindow: bidStart && bidEnd ? [dayjs(bidStart), dayjs(bidEnd)] : null,
    deliveryDates: deliveryDateStart && deliveryDateEnd ? [dayjs(deliveryDateStart), dayjs(deliveryDateEnd)] : null,
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
const yuanRule = (positive: boolean, max?: number): Rule => ({
  validator: (_, value: string | undefined) => {
    if (!value) return Promise.resolve();
    if (!YUAN_PATTERN.test(value)) return Promise.reject(new Error('金额须 ≥ 0，最多 2 位小数'));
    const fen = yuanTextToFen(value) ?? 0;
    if (positive && fen <= 0) return Promise.reject(new Error('须大于 0'));
    if (max !== undefined && fen > max) return Promise.reject(new Error(`不能超过 ${formatFen(max)} 元/吨`));
    return Promise.resolve();
  },
});

export interface AuctionFormProps {
  tradeType: 2 | 3;
  editing?: AuctionView;
  onSaved: (saved: AuctionView, submitted: boolean) => void;
}

/** The publishing form of an auction sale (2) or purchase (3), validated as the server does. */
export default function AuctionForm({ tradeType, editing, onSaved }: AuctionFormProps) {
  const [form] = Form.useForm<RawValues>();
  const [sending, setSending] = useState<null | 'draft' | 'submit'>(null);
  const products = useQuery({ queryKey: ['product', 'list'], queryFn: listProducts, staleTime: 60_000 });
  const unlimited = Form.useWatch('maxStepUnlimited', form);
  const words = stepWords(tradeType);
  const priceLabel = PRICE_LABEL[tradeType]!;

  useEffect(() => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    if (editing) form.setFieldsValue(toRaw(fromAuction(editing)) as any);
  }, [editing, form]);

  const cross = (key: keyof AuctionFormValues): Rule => ({
    validator: () => {
      const text = auctionCrossErrors(toFormValues(form.getFieldsValue(true), tradeType))[key];
      return text ? Promise.reject(new Error(text)) : Promise.resolve();
    },
  });

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
      const saved = await saveAuction(toAuctionApply(toFormValues({ ...form.getFieldsValue(true), ...raw }, tradeType, editing?.tradeId), submit));
      message.success(submit ? '已提交，等待交易中心审核' : '草稿已保存');
      onSaved(saved, submit);
    } catch (error) {
      message.error(errorMessage(error, '保存失败，请稍后重试'));
    } finally {
      setSending(null);
    }
  };

  const now = dayjs();
  return (
    <ProForm<RawValues>
      form={form as unknown as FormInstance<RawValues>}
      layout="vertical"
      submitter={false}
      initialValues={{
        priceType: 'factory_tax',
        transport: 'road',
        minStepYuan: DEFAULTS.minStepYuan,
        maxStepYuan: DEFAULTS.maxStepYuan,
        depositYuan: DEFAULTS.depositYuan,
        extensionSeconds: DEFAULTS.extensionSeconds,
        maxStepUnlimited: false,
      }}
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
          <Col xs={24} md={8}>
            <ProFormText
              name="quantityTons"
              label="竞价数量"
              placeholder="例如 50000"
              rules={[{ required: true, message: '请输入竞价数量' }, tonsRule]}
              fieldProps={{ addonAfter: '吨', inputMode: 'decimal' }}
            />
          </Col>
        </Row>
        <QualityFields />
      </Card>

      <Card variant="borderless" className="coalx-section-card" style={{ marginTop: 16 }}>
        <div className="coalx-form-section-title">竞价价格与保证金</div>
        <Row gutter={24}>
          <Col xs={24} md={8}>
            <ProFormText
              name="startPriceYuan"
              label={priceLabel}
              placeholder="例如 780.00"
              rules={[{ required: true, message: `请输入${priceLabel}` }, yuanRule(true, MAX_PRICE_FEN)]}
              fieldProps={{ addonAfter: '元/吨', inputMode: 'decimal' }}
              extra={tradeType === 3 ? '采购竞价自基价起逐次降价，价低者得' : '销售竞价自起拍价起逐次加价，价高者得'}
            />
          </Col>
          <Col xs={24} md={8}>
            <ProFormText
              name="minStepYuan"
              label={words.minStep}
              rules={[{ required: true, message: `请输入${words.minStep}` }, yuanRule(true)]}
              fieldProps={{ addonAfter: '元/吨', inputMode: 'decimal' }}
            />
          </Col>
          <Col xs={24} md={8}>
            <Form.Item label={words.maxStep} required={!unlimited} style={{ marginBottom: 0 }}>
              <div style={{ display: 'flex', gap: 12, alignItems: 'flex-start' }}>
                <ProFormText
                  name="maxStepYuan"
                  noStyle={false}
                  dependencies={['minStepYuan', 'maxStepUnlimited']}
                  rules={unlimited ? [] : [{ required: true, message: `请输入${words.maxStep}` }, yuanRule(true), cross('maxStepYuan')]}
                  fieldProps={{ addonAfter: '元/吨', inputMode: 'decimal', disabled: Boolean(unlimited), placeholder: unlimited ? '不限' : '例如 10' }}
                  formItemProps={{ style: { flex: 1 } }}
                />
                <ProFormCheckbox name="maxStepUnlimited" formItemProps={{ style: { marginTop: 5 } }}>
                  不限
                </ProFormCheckbox>
              </div>
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <ProFormText
              name="limitYuan"
              label={`${words.limit}（选填）`}
              placeholder="不填则不限"
              dependencies={['startPriceYuan']}
              rules={[yuanRule(true, MAX_PRICE_FEN), cross('limitYuan')]}
              fieldProps={{ addonAfter: '元/吨', inputMode: 'decimal' }}
              extra={tradeType === 3 ? '出价低于下限不被接受' : '出价高于上限不被接受'}
            />
          </Col>
          <Col xs={24} md={8}>
            <ProFormText
              name="depositYuan"
              label="竞价保证金（每家）"
              rules={[{ required: true, message: '请输入保证金' }, yuanRule(false)]}
              fieldProps={{ addonAfter: '元', inputMode: 'decimal' }}
              extra="报名时冻结；中标方转为履约保证金，其余竞价结束后释放"
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
        </Row>
      </Card>

      <Card variant="borderless" className="coalx-section-card" style={{ marginTop: 16 }}>
        <div className="coalx-form-section-title">报名与竞价时间</div>
        <Row gutter={24}>
          <Col xs={24} md={8}>
            <ProFormDateTimePicker
              name="enrolDeadlineAt"
              label="报名截止时间"
              dependencies={['bidWindow']}
              rules={[{ required: true, message: '请选择报名截止时间' }, cross('enrolDeadline')]}
              fieldProps={{ format: WALL, placeholder: '报名截止时间', disabledDate: (d: Dayjs) => d.isBefore(now, 'day'), style: { width: '100%' } }}
              extra="北京时间；不能晚于竞价开始时间"
            />
          </Col>
          <Col xs={24} md={10}>
            <ProFormDateTimeRangePicker
              name="bidWindow"
              label="竞价时间"
              rules={[{ required: true, message: '请选择竞价开始和结束时间' }, cross('bidEnd')]}
              fieldProps={{ format: WALL, placeholder: ['竞价开始时间', '竞价结束时间'], disabledDate: (d: Dayjs) => d.isBefore(now, 'day'), style: { width: '100%' } }}
              extra="结束时间为正常竞价结束时间，之后进入延时竞价"
            />
          </Col>
          <Col xs={24} md={6}>
            <ProFormDigit
              name="extensionSeconds"
              label="延时周期"
              min={30}
              max={1800}
              rules={[{ required: true, message: '请输入延时周期' }]}
              fieldProps={{ precision: 0, addonAfter: '秒', style: { width: '100%' } }}
              extra="30–1800 秒，默认 120 秒；延时期内每次出价重新计时"
            />
          </Col>
        </Row>
      </Card>

      <Card variant="borderless" className="coalx-section-card" style={{ marginTop: 16 }}>
        <div className="coalx-form-section-title">交收信息</div>
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
          <Col xs={24} md={8}>
            <ProFormDateRangePicker
              name="deliveryDates"
              label="交收日期"
              rules={[{ required: true, message: '请选择交收开始和结束日期' }, cross('deliveryDateEnd')]}
              fieldProps={{ format: DAY, placeholder: ['交收开始日期', '交收结束日期'], disabledDate: (d: Dayjs) => d.isBefore(now, 'day'), style: { width: '100%' } }}
            />
          </Col>
          <Col xs={24} md={16}>
            <ProFormRadio.Group
              name="transport"
              label="运输方式"
              radioType="button"
              rules={[{ required: true, message: '请选择运输方式' }]}
              options={Object.entries(TRANSPORTS).map(([value, label]) => ({ value, label }))}
            />
          </Col>
          <Col xs={24}>
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
