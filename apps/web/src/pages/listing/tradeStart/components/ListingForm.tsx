import { useEffect, useMemo } from 'react';
import { ProForm, ProFormDateTimeRangePicker, ProFormRadio, ProFormSwitch, ProFormText } from '@ant-design/pro-components';
import { Card, Col, Form, Row } from 'antd';
import type { FormInstance, Rule } from 'antd/es/form';
import { DEPOSIT_MODES, formatFen, formatTons, MAX_PRICE_FEN, PRICE_LABEL, tonsTextToKg, yuanTextToFen, type ListingView } from '@coalx/shared';
import { DAY, WALL, beforeToday, pairTexts, textPair, type DayjsPair } from '@/components/TradeForm/dates';
import {
  DeliveryDatesField,
  DeliveryPlaceFields,
  PriceTypeField,
  ProductQualityFields,
  RemarkField,
  SaveButtons,
  TransportField,
} from '@/components/TradeForm/fields';
import { tonsRule, yuanRule } from '@/components/TradeForm/rules';
import { useSaveTrade } from '@/components/TradeForm/useSaveTrade';
import { crossFieldErrors, fromListing, toListingApply, type ListingFormValues } from '@/lib/listing';
import { saveListing } from '@/services/listing';

/** The antd form's own values: numbers as typed text, the two ranges as dayjs pairs. */
interface RawValues extends Omit<ListingFormValues, 'deliveryDateStart' | 'deliveryDateEnd' | 'listedDateStart' | 'listedDateEnd'> {
  deliveryDates?: DayjsPair;
  listedDates?: DayjsPair;
}

export function toFormValues(raw: RawValues, tradeType: 0 | 1, tradeId?: string): ListingFormValues {
  const { deliveryDates, listedDates, ...rest } = raw;
  const [deliveryDateStart, deliveryDateEnd] = pairTexts(deliveryDates, DAY);
  const [listedDateStart, listedDateEnd] = pairTexts(listedDates, WALL);
  return { ...rest, tradeType, tradeId, deliveryDateStart, deliveryDateEnd, listedDateStart, listedDateEnd };
}

function toRaw(v: ListingFormValues): RawValues {
  const { deliveryDateStart, deliveryDateEnd, listedDateStart, listedDateEnd, ...rest } = v;
  return { ...rest, deliveryDates: textPair(deliveryDateStart, deliveryDateEnd), listedDates: textPair(listedDateStart, listedDateEnd) };
}

export interface ListingFormProps {
  tradeType: 0 | 1;
  /** A draft or rejected listing being edited. */
  editing?: ListingView;
  onSaved: (saved: ListingView, submitted: boolean) => void;
}

/** The publishing form of a listing sale (0) or purchase (1): every trade field, validated as the server does. */
export default function ListingForm({ tradeType, editing, onSaved }: ListingFormProps) {
  const [form] = Form.useForm<RawValues>();
  const depositMode = Form.useWatch('depositMode', form);
  const quantityTons = Form.useWatch('quantityTons', form);
  const priceYuan = Form.useWatch('priceYuan', form);
  const { sending, save } = useSaveTrade(
    form,
    (raw, submit) => saveListing(toListingApply(toFormValues(raw, tradeType, editing?.tradeId), submit)),
    onSaved,
  );

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

  const priceLabel = PRICE_LABEL[tradeType];

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
        <ProductQualityFields />
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
              rules={[{ required: true, message: `请输入${priceLabel}` }, yuanRule({ max: MAX_PRICE_FEN })]}
              fieldProps={{ addonAfter: '元/吨', inputMode: 'decimal' }}
            />
          </Col>
          <Col xs={24} md={8}>
            <PriceTypeField />
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
            <TransportField />
          </Col>
        </Row>
      </Card>

      <Card variant="borderless" className="coalx-section-card" style={{ marginTop: 16 }}>
        <div className="coalx-form-section-title">交收与挂牌时间</div>
        <Row gutter={24}>
          <DeliveryPlaceFields />
          <Col xs={24} md={12}>
            <ProFormDateTimeRangePicker
              name="listedDates"
              label="挂牌时间"
              dependencies={[]}
              rules={[{ required: true, message: '请选择挂牌开始和结束时间' }, cross('listedDateStart'), cross('listedDateEnd')]}
              fieldProps={{ format: WALL, placeholder: ['挂牌开始时间', '挂牌结束时间'], disabledDate: beforeToday, style: { width: '100%' } }}
              extra="北京时间；开始时间须晚于当前时间，审核通过后到开始时间自动上架"
            />
          </Col>
          <Col xs={24} md={12}>
            <DeliveryDatesField
              dependencies={['listedDates']}
              rules={[cross('deliveryDateStart'), cross('deliveryDateEnd')]}
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
            <RemarkField />
          </Col>
        </Row>
        <SaveButtons sending={sending} onSave={save} />
      </Card>
    </ProForm>
  );
}
