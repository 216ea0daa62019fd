import { useEffect, useMemo, useRef, useState } from 'react';
import { ProFormRadio, ProFormText } from '@ant-design/pro-components';
import { Button, Col, DatePicker, Form, Input, Row, Table, message } from 'antd';
import type { Rule } from 'antd/es/form';
import dayjs, { type Dayjs } from 'dayjs';
import { MAX_PRICE_FEN, PRICING_MODES, addMonths, formatTons, monthText, type PricingMode } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import GuardedModalForm from '@/components/GuardedModalForm';
import { DeliveryPlaceFields, PriceTypeField, ProductQualityFields, RemarkField, TransportField } from '@/components/TradeForm/fields';
import { yuanRule } from '@/components/TradeForm/rules';
import '@/components/TradeDetail/trade.css';
import {
  coefficientProblem,
  creditCodeProblem,
  deadlineProblem,
  heatFactorProblem,
  monthTonsProblem,
  offerFormValues,
  periodProblem,
  planRows,
  planTotal,
  toOffer,
  type OfferFormValues,
  type PlanRow,
} from '@/lib/long-term';
import { saveOffer, type LongTermDetail } from '@/services/longTerm';
import { ask } from './LongTermParts';
import PricePreview from './PricePreview';
import './long-term.css';

const MONTH = 'YYYY-MM';
const DAY = 'YYYY-MM-DD';

/** The antd form's own values: the three pickers as dayjs, everything else as OfferFormValues. */
interface RawValues extends Omit<OfferFormValues, 'periodStart' | 'periodEnd' | 'applyDeadline'> {
  periodStart?: Dayjs | null;
  periodEnd?: Dayjs | null;
  applyDeadline?: Dayjs | null;
}

function toValues(raw: RawValues): OfferFormValues {
  const { periodStart, periodEnd, applyDeadline, ...rest } = raw;
  return {
    ...rest,
    periodStart: periodStart ? periodStart.format(MONTH) : undefined,
    periodEnd: periodEnd ? periodEnd.format(MONTH) : undefined,
    applyDeadline: applyDeadline ? applyDeadline.format(DAY) : undefined,
  };
}

function toRaw(v: OfferFormValues): RawValues {
  const { periodStart, periodEnd, applyDeadline, ...rest } = v;
  return {
    ...rest,
    periodStart: periodStart ? dayjs(`${periodStart}-01`) : null,
    periodEnd: periodEnd ? dayjs(`${periodEnd}-01`) : null,
    applyDeadline: applyDeadline ? dayjs(applyDeadline) : null,
  };
}

/** A new offer starts this month and runs a year, so a draft needs only its quantities and prices. */
function newOffer(): RawValues {
  const start = dayjs().format(MONTH);
  return toRaw({
    pricingMode: 'index',
    priceType: 'factory_tax',
    transport: 'road',
    periodStart: start,
    periodEnd: addMonths(start, 11),
    months: planRows(start, addMonths(start, 11)) ?? [],
  });
}

const check = (problem: (text: string | undefined) => string | null): Rule => ({
  validator: (_, value: string | undefined) => {
    const text = problem(value);
    return text ? Promise.reject(new Error(text)) : Promise.resolve();
  },
});

export interface OfferModalProps {
  open: boolean;
  /** A draft being edited (its id is sent with the offer). */
  editing?: LongTermDetail | null;
  onClose: () => void;
  onSaved: (saved: LongTermDetail, published: boolean) => void;
}

/**
 * 发布长协 (and 修改 of a draft): product and quality, delivery, the period with one planned quantity per month, the
 * pricing with a live 按现有指数试算 of the first month, the named buyer and the application deadline. 保存草稿 keeps
 * it to the seller; 发布 opens it to applications after a confirmation.
 */
export default function OfferModal({ open, editing, onClose, onSaved }: OfferModalProps) {
  const [form] = Form.useForm<RawValues>();
  const publishing = useRef(false);
  const [sending, setSending] = useState<null | 'draft' | 'submit'>(null);
  const [fillTons, setFillTons] = useState('');
  const mode = Form.useWatch('pricingMode', form) as PricingMode | undefined;
  const periodStart = Form.useWatch('periodStart', form);
  const periodEnd = Form.useWatch('periodEnd', form);
  const months = Form.useWatch('months', form) as PlanRow[] | undefined;
  const total = useMemo(() => planTotal(months), [months]);
  const initialValues = useMemo(() => (editing ? toRaw(offerFormValues(editing)) : newOffer()), [editing]);
  // the helper's tons belong to one opening of the form
  useEffect(() => {
    if (open) setFillTons('');
  }, [open]);

  const values = (): OfferFormValues => toValues(form.getFieldsValue(true) as RawValues);

  /** The months table follows the period: one row per month, keeping the tons typed for months that stay. */
  const onValuesChange = (changed: Partial<RawValues>) => {
    if (!('periodStart' in changed) && !('periodEnd' in changed)) return;
    const v = values();
    const rows = planRows(v.periodStart, v.periodEnd, form.getFieldValue('months') as PlanRow[] | undefined);
    if (rows) form.setFieldValue('months', rows);
    void form.validateFields(['periodEnd', 'applyDeadline']).catch(() => undefined);
  };

  const fillAll = () => {
    const problem = monthTonsProblem(fillTons) ?? (fillTons.trim() === '' ? '请输入每月计划量' : null);
    if (problem) {
      message.warning(`统一填写：${problem}`);
      return;
    }
    const rows = (form.getFieldValue('months') as PlanRow[] | undefined) ?? [];
    form.setFieldValue('months', rows.map((r) => ({ ...r, tons: fillTons.trim() })));
    void form.validateFields(rows.map((_, i) => ['months', i, 'tons'])).catch(() => undefined);
  };

  const periodRule: Rule = {
    validator: () => {
      const v = values();
      const text = periodProblem(v.periodStart, v.periodEnd);
      return text ? Promise.reject(new Error(text)) : Promise.resolve();
    },
  };
  const deadlineRule: Rule = {
    validator: () => {
      const v = values();
      const text = deadlineProblem(v.applyDeadline, v.periodEnd);
      return text ? Promise.reject(new Error(text)) : Promise.resolve();
    },
  };

  const send = async (submit: boolean) => {
    const v = values();
    let offer;
    try {
      offer = toOffer(v, submit, editing?.id);
    } catch (error) {
      message.error(errorMessage(error));
      return false;
    }
    if (submit) {
      const target = offer.targetCreditCode ? `定向买方（统一社会信用代码 ${offer.targetCreditCode}）` : '全部经审核的买方';
      const ok = await ask({
        title: '确认发布长协？',
        content: (
          <div data-testid="lt-publish-confirm">
            <p>
              合同期 {monthText(offer.periodStart)} 至 {monthText(offer.periodEnd)}，共 {offer.months.length} 个月，计划总量 {formatTons(total.kg)}。
            </p>
            <p>
              发布后{target}可在「长协市场」申请，申请截止 {offer.applyDeadline}；您接受其中一家后生成长协框架合同，双方签署后按月调运。
            </p>
          </div>
        ),
        okText: '确认发布',
      });
      if (!ok) return false;
    }
    setSending(submit ? 'submit' : 'draft');
    try {
      const saved = await saveOffer(offer);
      message.success(submit ? `已发布长协 ${saved.dealNo}` : `草稿已保存 ${saved.dealNo}`);
      onSaved(saved, submit);
      return true;
    } catch (error) {
      message.error(errorMessage(error, '保存失败，请稍后重试'));
      return false;
    } finally {
      setSending(null);
    }
  };

  const startMonth = periodStart ? dayjs(periodStart).format(MONTH) : undefined;
  const lastMonth = periodEnd ? dayjs(periodEnd).format(MONTH) : undefined;

  return (
    <GuardedModalForm<RawValues>
      title={editing ? `修改长协草稿 · ${editing.dealNo}` : '发布长协'}
      form={form}
      open={open}
      onOpenChange={(o) => !o && onClose()}
      width={1120}
      layout="vertical"
      initialValues={initialValues}
      onValuesChange={onValuesChange}
      scrollToFirstError
      modalProps={{ destroyOnHidden: true, maskClosable: false, styles: { body: { maxHeight: 'calc(100vh - 220px)', overflowY: 'auto', overflowX: 'hidden', paddingRight: 8 } } }}
      submitter={{
        render: (props, dom) => [
          dom[0],
          <Button
            key="draft"
            onClick={() => {
              publishing.current = false;
              props.submit();
            }}
            loading={sending === 'draft'}
            disabled={sending !== null}
          >
            保存草稿
          </Button>,
          <Button
            key="publish"
            type="primary"
            onClick={() => {
              publishing.current = true;
              props.submit();
            }}
            loading={sending === 'submit'}
            disabled={sending !== null}
          >
            发布
          </Button>,
        ],
        searchConfig: { resetText: '取消' },
      }}
      onFinish={async () => send(publishing.current)}
    >
      <div data-testid="lt-offer-form">
        <div className="coalx-form-section-title">产品与质量</div>
        <ProductQualityFields />

        <div className="coalx-form-section-title">交收</div>
        <Row gutter={24}>
          <Col xs={24} md={8}>
            <PriceTypeField />
          </Col>
          <Col xs={24} md={8}>
            <TransportField />
          </Col>
        </Row>
        <Row gutter={24}>
          <DeliveryPlaceFields />
        </Row>

        <div className="coalx-form-section-title">合同期与月度计划</div>
        <Row gutter={24}>
          <Col xs={24} md={8}>
            <Form.Item name="periodStart" label="合同开始月份" rules={[{ required: true, message: '请选择合同开始月份' }]}>
              <DatePicker
                picker="month"
                format={MONTH}
                placeholder="开始月份"
                style={{ width: '100%' }}
                disabledDate={(d) => d.isBefore(dayjs(), 'month')}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="periodEnd" label="合同结束月份" dependencies={['periodStart']} rules={[{ required: true, message: '请选择合同结束月份' }, periodRule]}>
              <DatePicker
                picker="month"
                format={MONTH}
                placeholder="结束月份"
                style={{ width: '100%' }}
                disabledDate={(d) => (startMonth ? d.format(MONTH) < startMonth : d.isBefore(dayjs(), 'month'))}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item label="统一填写每月计划量">
              <div className="coalx-lt-plan-tools">
                <Input
                  value={fillTons}
                  onChange={(e) => setFillTons(e.target.value)}
                  onPressEnter={(e) => {
                    e.preventDefault();
                    fillAll();
                  }}
                  placeholder="例如 10000"
                  addonAfter="吨"
                  inputMode="decimal"
                  style={{ flex: 1 }}
                  aria-label="统一计划量"
                />
                <Button onClick={fillAll}>统一填写</Button>
              </div>
            </Form.Item>
          </Col>
        </Row>
        <Form.List name="months">
          {(fields) => (
            <Table
              className="coalx-lt-plan-table"
              data-testid="lt-plan-table"
              size="small"
              bordered
              pagination={false}
              rowKey="key"
              scroll={fields.length > 6 ? { y: 282 } : undefined}
              dataSource={fields}
              locale={{ emptyText: '请选择合同期' }}
              columns={[
                { title: '序号', key: 'n', width: 64, align: 'center', render: (_, f) => f.name + 1 },
                {
                  title: '月份',
                  key: 'month',
                  width: 160,
                  render: (_, f) => <span className="coalx-num">{monthText((form.getFieldValue(['months', f.name, 'month']) as string) ?? '')}</span>,
                },
                {
                  title: '计划量（吨）',
                  key: 'tons',
                  render: (_, f) => (
                    <Form.Item
                      name={[f.name, 'tons']}
                      rules={[{ required: true, message: '请输入计划量' }, check(monthTonsProblem)]}
                      style={{ maxWidth: 320 }}
                    >
                      <Input placeholder="计划量" addonAfter="吨" inputMode="decimal" aria-label={`计划量 ${form.getFieldValue(['months', f.name, 'month']) ?? ''}`} />
                    </Form.Item>
                  ),
                },
              ]}
            />
          )}
        </Form.List>
        <div className="coalx-lt-plan-total coalx-hint" data-testid="lt-plan-total">
          {months?.length ? (
            <>
              共 {months.length} 个月，计划总量 <b className="coalx-num">{formatTons(total.kg)}</b>
              {total.missing > 0 ? `，尚有 ${total.missing} 个月未填写` : ''}
            </>
          ) : (
            '选择合同期后按月生成计划'
          )}
        </div>

        <div className="coalx-form-section-title">定价</div>
        <Row gutter={24}>
          <Col xs={24} md={8}>
            <ProFormRadio.Group
              name="pricingMode"
              label="定价方式"
              radioType="button"
              rules={[{ required: true, message: '请选择定价方式' }]}
              options={Object.entries(PRICING_MODES).map(([value, label]) => ({ value, label }))}
            />
          </Col>
          <Col xs={24} md={8}>
            <ProFormText
              name="basePriceYuan"
              label={mode === 'fixed' ? '固定价格' : '基准价'}
              placeholder="例如 680.00"
              rules={[{ required: true, message: mode === 'fixed' ? '请输入固定价格' : '请输入基准价' }, yuanRule({ positive: true, max: MAX_PRICE_FEN })]}
              fieldProps={{ addonAfter: '元/吨', inputMode: 'decimal' }}
            />
          </Col>
          <Col xs={24} md={8}>
            <ProFormText
              name="heatFactor"
              label="热值折算系数"
              placeholder="选填，如 0.9091"
              rules={[check(heatFactorProblem)]}
              fieldProps={{ inputMode: 'decimal' }}
              extra="选填：合理价格区间按此系数折算；不填按 Qnet,ar ÷ 5500"
            />
          </Col>
          {mode === 'index' ? (
            <>
              <Col xs={24} md={8}>
                <ProFormText
                  name="coefficient"
                  label="浮动系数"
                  placeholder="例如 0.5"
                  rules={[{ required: true, message: '请输入浮动系数' }, check(coefficientProblem)]}
                  fieldProps={{ inputMode: 'decimal' }}
                  extra="大于 0、不超过 2，最多 4 位小数"
                />
              </Col>
              <Col xs={24} md={8}>
                <ProFormText
                  name="referenceYuan"
                  label="基准参考值"
                  placeholder="例如 700.00"
                  rules={[{ required: true, message: '请输入基准参考值' }, yuanRule({ positive: true, max: MAX_PRICE_FEN })]}
                  fieldProps={{ addonAfter: '元/吨', inputMode: 'decimal' }}
                  extra="指数均值等于此值时浮动价为 0"
                />
              </Col>
              <Col xs={24} md={8}>
                <Form.Item label="计价公式">
                  <div className="coalx-hint" style={{ lineHeight: '20px' }}>
                    月度价格 = 基准价 + 浮动系数 ×（取价月指数均值 − 基准参考值）；取价月为执行月份的上一个月，每月第一日确定
                  </div>
                </Form.Item>
              </Col>
            </>
          ) : null}
        </Row>
        <PricePreview form={form} toValues={toValues} />

        <div className="coalx-form-section-title" style={{ marginTop: 16 }}>
          申请
        </div>
        <Row gutter={24}>
          <Col xs={24} md={8}>
            <ProFormText
              name="targetCreditCode"
              label="定向买方（统一社会信用代码）"
              placeholder="选填，18 位"
              rules={[check(creditCodeProblem)]}
              fieldProps={{ maxLength: 18 }}
              extra="填写后仅该企业可以申请；不填面向全部经审核的买方"
            />
          </Col>
          <Col xs={24} md={8}>
            <Form.Item
              name="applyDeadline"
              label="申请截止日期"
              dependencies={['periodEnd']}
              rules={[{ required: true, message: '请选择申请截止日期' }, deadlineRule]}
              extra={lastMonth ? `须早于合同最后一个月（${monthText(lastMonth)}）` : undefined}
            >
              <DatePicker format={DAY} placeholder="申请截止日期" style={{ width: '100%' }} disabledDate={(d) => d.isBefore(dayjs(), 'day') || (lastMonth ? d.format(DAY) >= `${lastMonth}-01` : false)} />
            </Form.Item>
          </Col>
        </Row>
        <RemarkField />
      </div>
    </GuardedModalForm>
  );
}
