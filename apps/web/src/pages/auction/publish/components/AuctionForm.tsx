import { useEffect } from 'react';
import { ProForm, ProFormCheckbox, ProFormDateTimePicker, ProFormDateTimeRangePicker, ProFormDigit, ProFormText } from '@ant-design/pro-components';
import { Card, Col, Form, Row } from 'antd';
import type { FormInstance, Rule } from 'antd/es/form';
import dayjs, { type Dayjs } from 'dayjs';
import { MAX_PRICE_FEN, PRICE_LABEL, TradeType, type AuctionView } from '@coalx/shared';
import { DAY, WALL, beforeToday, pairTexts, pickedText, textPair, type DayjsPair } from '@/components/TradeForm/dates';
import {
  DeliveryDatesField,
  DeliveryPlaceFields,
  PriceTypeField,
  ProductQualityFields,
  RemarkField,
  SaveButtons,
  TransportField,
} from '@/components/TradeForm/fields';
import { tonsRule, wholeRule, yuanRule } from '@/components/TradeForm/rules';
import { useSaveTrade } from '@/components/TradeForm/useSaveTrade';
import { DEFAULTS, auctionCrossErrors, fromAuction, stepWords, toAuctionApply, type AuctionFormValues } from '@/lib/auction';
import { saveAuction } from '@/services/auction';

interface RawValues extends Omit<AuctionFormValues, 'enrolDeadline' | 'bidStart' | 'bidEnd' | 'deliveryDateStart' | 'deliveryDateEnd'> {
  enrolDeadlineAt?: Dayjs | null;
  bidWindow?: DayjsPair;
  deliveryDates?: DayjsPair;
}

function toFormValues(raw: RawValues, tradeType: 2 | 3, tradeId?: string): AuctionFormValues {
  const { enrolDeadlineAt, bidWindow, deliveryDates, ...rest } = raw;
  const [bidStart, bidEnd] = pairTexts(bidWindow, WALL);
  const [deliveryDateStart, deliveryDateEnd] = pairTexts(deliveryDates, DAY);
  return { ...rest, tradeType, tradeId, enrolDeadline: pickedText(enrolDeadlineAt, WALL), bidStart, bidEnd, deliveryDateStart, deliveryDateEnd };
}

function toRaw(v: AuctionFormValues): RawValues {
  const { enrolDeadline, bidStart, bidEnd, deliveryDateStart, deliveryDateEnd, ...rest } = v;
  return {
    ...rest,
    enrolDeadlineAt: enrolDeadline ? dayjs(enrolDeadline) : null,
    bidWindow: textPair(bidStart, bidEnd),
    deliveryDates: textPair(deliveryDateStart, deliveryDateEnd),
  };
}

export interface AuctionFormProps {
  tradeType: 2 | 3;
  editing?: AuctionView;
  onSaved: (saved: AuctionView, submitted: boolean) => void;
}

/** The publishing form of an auction sale (2) or purchase (3), validated as the server does. */
export default function AuctionForm({ tradeType, editing, onSaved }: AuctionFormProps) {
  const [form] = Form.useForm<RawValues>();
  const unlimited = Form.useWatch('maxStepUnlimited', form);
  const words = stepWords(tradeType);
  const priceLabel = PRICE_LABEL[tradeType]!;
  const { sending, save } = useSaveTrade(
    form,
    (raw, submit) => saveAuction(toAuctionApply(toFormValues(raw, tradeType, editing?.tradeId), submit)),
    onSaved,
  );

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
        <ProductQualityFields>
          <Col xs={24} md={8}>
            <ProFormText
              name="quantityTons"
              label="竞价数量"
              placeholder="例如 50000"
              rules={[{ required: true, message: '请输入竞价数量' }, tonsRule]}
              fieldProps={{ addonAfter: '吨', inputMode: 'decimal' }}
            />
          </Col>
        </ProductQualityFields>
      </Card>

      <Card variant="borderless" className="coalx-section-card" style={{ marginTop: 16 }}>
        <div className="coalx-form-section-title">竞价价格与保证金</div>
        <Row gutter={24}>
          <Col xs={24} md={8}>
            <ProFormText
              name="startPriceYuan"
              label={priceLabel}
              placeholder="例如 780.00"
              rules={[{ required: true, message: `请输入${priceLabel}` }, yuanRule({ positive: true, max: MAX_PRICE_FEN })]}
              fieldProps={{ addonAfter: '元/吨', inputMode: 'decimal' }}
              extra={tradeType === TradeType.auctionPurchase ? '采购竞价自基价起逐次降价，价低者得' : '销售竞价自起拍价起逐次加价，价高者得'}
            />
          </Col>
          <Col xs={24} md={8}>
            <ProFormText
              name="minStepYuan"
              label={words.minStep}
              rules={[{ required: true, message: `请输入${words.minStep}` }, yuanRule({ positive: true })]}
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
                  rules={unlimited ? [] : [{ required: true, message: `请输入${words.maxStep}` }, yuanRule({ positive: true }), cross('maxStepYuan')]}
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
              rules={[yuanRule({ positive: true, max: MAX_PRICE_FEN }), cross('limitYuan')]}
              fieldProps={{ addonAfter: '元/吨', inputMode: 'decimal' }}
              extra={tradeType === TradeType.auctionPurchase ? '出价低于下限不被接受' : '出价高于上限不被接受'}
            />
          </Col>
          <Col xs={24} md={8}>
            <ProFormText
              name="depositYuan"
              label="竞价保证金（每家）"
              rules={[{ required: true, message: '请输入保证金' }, yuanRule()]}
              fieldProps={{ addonAfter: '元', inputMode: 'decimal' }}
              extra="报名时冻结；中标方转为履约保证金，其余竞价结束后释放"
            />
          </Col>
          <Col xs={24} md={8}>
            <PriceTypeField />
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
              fieldProps={{ format: WALL, placeholder: '报名截止时间', disabledDate: beforeToday, style: { width: '100%' } }}
              extra="北京时间；不能晚于竞价开始时间"
            />
          </Col>
          <Col xs={24} md={10}>
            <ProFormDateTimeRangePicker
              name="bidWindow"
              label="竞价时间"
              rules={[{ required: true, message: '请选择竞价开始和结束时间' }, cross('bidEnd')]}
              fieldProps={{ format: WALL, placeholder: ['竞价开始时间', '竞价结束时间'], disabledDate: beforeToday, style: { width: '100%' } }}
              extra="结束时间为正常竞价结束时间，之后进入延时竞价"
            />
          </Col>
          <Col xs={24} md={6}>
            <ProFormDigit
              name="extensionSeconds"
              label="延时周期"
              // no min/max on the input: it would silently turn 5 into 30; the rule refuses it with a message instead
              rules={[{ required: true, message: '请输入延时周期' }, wholeRule(30, 1800, '秒')]}
              fieldProps={{ precision: 0, addonAfter: '秒', style: { width: '100%' } }}
              extra="30–1800 秒，默认 120 秒；延时期内每次出价重新计时"
            />
          </Col>
        </Row>
      </Card>

      <Card variant="borderless" className="coalx-section-card" style={{ marginTop: 16 }}>
        <div className="coalx-form-section-title">交收信息</div>
        <Row gutter={24}>
          <DeliveryPlaceFields />
          <Col xs={24} md={8}>
            <DeliveryDatesField rules={[cross('deliveryDateEnd')]} />
          </Col>
          <Col xs={24} md={16}>
            <TransportField />
          </Col>
          <Col xs={24}>
            <RemarkField />
          </Col>
        </Row>
        <SaveButtons sending={sending} onSave={save} />
      </Card>
    </ProForm>
  );
}
