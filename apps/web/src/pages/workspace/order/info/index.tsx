import DetailLoadState from '@/components/DetailLoadState';
import { useState, type ReactNode } from 'react';
import { ProDescriptions } from '@ant-design/pro-components';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Empty, Progress, Result, Row, Space, Tag, Timeline, Typography } from 'antd';
import { ProfileOutlined } from '@ant-design/icons';
import { Link, useSearchParams } from 'react-router';
import { ORDER_SIDES, PRICE_TYPES, TESTING_BASES, TRANSPORT_ARRANGERS, WEIGHING_BASES, formatPrice, formatTons } from '@coalx/shared';
import { yuan } from '@/components/Money';
import OrderDelivery from '@/components/delivery/OrderDelivery';
import { OrderStatusTag } from '@/components/order/OrderParts';
import { usePayOrder } from '@/components/order/usePayOrder';
import '@/components/order/order.css';
import { orderCounterparty } from '@/lib/order';
import { getOrder, ORDER_KEYS, type OrderDetail } from '@/services/order';
import TerminateModal from './components/TerminateModal';

function Figure({ label, value, strong, testId }: { label: string; value: ReactNode; strong?: boolean; testId?: string }) {
  return (
    <div>
      <div className="coalx-order-figure-label">{label}</div>
      <div className={`coalx-order-figure-value${strong ? ' strong' : ''}`} data-testid={testId}>
        {value}
      </div>
    </div>
  );
}

function MoneyCard({ detail }: { detail: OrderDetail }) {
  const paid = detail.paidAt !== null;
  return (
    <Card title="货款" size="small" data-testid="order-money">
      <div className="coalx-order-figures">
        <Figure label="合同金额" value={yuan(detail.amount)} />
        <Figure label={`应付预付款（${detail.terms.prepaymentPct}%）`} value={yuan(detail.prepayment)} strong />
        <Figure label="托管金额" value={yuan(detail.escrow)} strong={detail.escrow > 0} testId="order-escrow" />
        <Figure label="付款时间" value={paid ? detail.paidAt : '未付款'} />
        <Figure
          label="付款截止"
          value={
            <Space size={6}>
              <span>{detail.paymentDeadline}</span>
              {detail.overdue ? <Tag color="red">已逾期</Tag> : null}
            </Space>
          }
        />
        <Figure label="付款期限" value={`合同生效后 ${detail.terms.paymentWorkingDays} 个工作日内`} />
      </div>
    </Card>
  );
}

function ProgressCard({ detail }: { detail: OrderDetail }) {
  const p = detail.progress;
  const line = (kg: number, trucks: number) => `${formatTons(kg)} · ${trucks} 车`;
  const percent = detail.quantity > 0 ? Math.min(100, Math.floor((p.signedKg * 100) / detail.quantity)) : 0;
  return (
    <Card title="交收进度" size="small" data-testid="order-progress">
      <div className="coalx-order-figures">
        <Figure label="已派车（计划）" value={line(p.plannedKg, p.dispatchedTrucks)} />
        <Figure label="已装车" value={line(p.loadedKg, p.loadedTrucks)} />
        <Figure label="已到货" value={line(p.arrivedKg, p.arrivedTrucks)} />
        <Figure label="已签收" value={line(p.signedKg, p.signedTrucks)} strong />
        <Figure label="合同数量" value={formatTons(detail.quantity)} />
        <Figure label={`可派车上限（溢短装 ±${detail.terms.quantityTolerancePct}%）`} value={formatTons(detail.maxDeliverable)} />
      </div>
      <div style={{ marginTop: 12 }}>
        <Typography.Text type="secondary">签收完成度</Typography.Text>
        <Progress percent={percent} size="small" />
      </div>
    </Card>
  );
}

function TermsCard({ detail }: { detail: OrderDetail }) {
  const t = detail.terms;
  return (
    <Card title="交收条款" size="small" className="coalx-order-row">
      <ProDescriptions column={{ xs: 1, sm: 2, md: 3, lg: 3, xl: 3, xxl: 3 }} size="small" data-testid="order-terms">
        <ProDescriptions.Item label="产品">{detail.productName}</ProDescriptions.Item>
        <ProDescriptions.Item label="单价">{formatPrice(detail.price)}</ProDescriptions.Item>
        <ProDescriptions.Item label="价格类型">{(PRICE_TYPES as Record<string, string>)[detail.priceType] ?? detail.priceType}</ProDescriptions.Item>
        <ProDescriptions.Item label="交收地点">{t.deliveryPlace}</ProDescriptions.Item>
        <ProDescriptions.Item label="交收日期">
          {t.deliveryDateStart} 至 {t.deliveryDateEnd}
        </ProDescriptions.Item>
        <ProDescriptions.Item label="运输">{TRANSPORT_ARRANGERS[t.transportArranger]}</ProDescriptions.Item>
        <ProDescriptions.Item label="溢短装">±{t.quantityTolerancePct}%</ProDescriptions.Item>
        <ProDescriptions.Item label="合理途损">{t.transitLossPct}%</ProDescriptions.Item>
        <ProDescriptions.Item label="计量依据">{WEIGHING_BASES[t.weighingBasis]}</ProDescriptions.Item>
        <ProDescriptions.Item label="化验依据">{TESTING_BASES[t.testingBasis]}</ProDescriptions.Item>
        <ProDescriptions.Item label="预付比例">{t.prepaymentPct}%</ProDescriptions.Item>
        <ProDescriptions.Item label="成交编号">{detail.dealNo}</ProDescriptions.Item>
      </ProDescriptions>
    </Card>
  );
}

/**
 * 订单详情 (/order/info?id=): the order's head (number, state, counterparty, amount), the money (prepayment,
 * escrow, deadline), the delivery progress, the terms delivery works by, the timeline of every event and the
 * trucks (the delivery pages' slot). The buyer pays here; the trading centre terminates.
 */
export default function OrderInfoPage() {
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || null;
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: ORDER_KEYS.detail(id ?? 0), queryFn: () => getOrder(id!), enabled: Boolean(id), retry: false });
  const [terminating, setTerminating] = useState(false);
  const update = (next: OrderDetail) => {
    queryClient.setQueryData(ORDER_KEYS.detail(next.id), next);
    void queryClient.invalidateQueries({ queryKey: ORDER_KEYS.all, predicate: (q) => q.queryKey[1] !== 'detail' });
  };
  const { pay, holder } = usePayOrder(update);

  if (!id) return <Result status="warning" title="缺少订单参数" subTitle="请从订单管理进入订单详情。" extra={<Link to="/order/list">返回订单管理</Link>} />;
  if (query.isError || !query.data) return <DetailLoadState query={query} noun="订单" back={{ path: '/order/list', title: '订单管理' }} />;

  const detail = query.data;
  const counterparty = orderCounterparty(detail);

  return (
    <div className="coalx-order-info" data-testid="order-info" data-status={detail.status}>
      <Card>
        <div className="coalx-order-head-main">
          <div>
            <div className="coalx-order-head-title">
              <ProfileOutlined />
              <span className="coalx-num" data-testid="order-no">
                {detail.orderNo}
              </span>
              <OrderStatusTag status={detail.status} overdue={detail.overdue} />
            </div>
            <div className="coalx-order-head-sub">
              合同 <Link to={`/contract/info?id=${detail.contractId}`}>{detail.contractNo}</Link>
              {detail.mySide ? (
                <>
                  {' '}
                  · 我方为{ORDER_SIDES[detail.mySide]} · 对方企业 <b>{counterparty}</b>
                </>
              ) : (
                <>
                  {' '}
                  · 卖方 <b>{detail.sellerName}</b> · 买方 <b>{detail.buyerName}</b>
                </>
              )}{' '}
              · 生成于 {detail.createdAt}
            </div>
          </div>
          <div className="coalx-order-head-figures">
            <div>
              <div className="coalx-order-head-label">合同数量</div>
              <div className="coalx-order-head-amount">{formatTons(detail.quantity)}</div>
            </div>
            <div>
              <div className="coalx-order-head-label">合同金额</div>
              <div className="coalx-order-head-amount" data-testid="order-amount">
                {yuan(detail.amount)}
              </div>
            </div>
          </div>
        </div>
        {detail.status === 'terminated' ? (
          <Alert style={{ marginTop: 16 }} type="warning" showIcon message={`订单已于 ${detail.terminatedAt ?? '-'} 终止`} description={`终止原因：${detail.terminateReason ?? '-'}`} />
        ) : null}
        {detail.canPay ? (
          <Alert
            style={{ marginTop: 16 }}
            type={detail.overdue ? 'error' : 'info'}
            showIcon
            message={detail.overdue ? `已超过付款截止时间 ${detail.paymentDeadline}，请尽快付款` : `请于 ${detail.paymentDeadline} 前支付预付款 ${yuan(detail.prepayment)}`}
            description="付款后货款冻结托管于本订单，卖方发货、双方结算后再划转卖方。"
          />
        ) : null}
        {detail.canPay || detail.canTerminate ? (
          <div className="coalx-order-actions">
            {detail.canPay ? (
              <Button type="primary" onClick={() => void pay(detail)} data-testid="order-pay">
                付款 {yuan(detail.prepayment)}
              </Button>
            ) : null}
            {detail.canTerminate ? (
              <Button danger onClick={() => setTerminating(true)}>
                终止订单
              </Button>
            ) : null}
          </div>
        ) : null}
      </Card>

      <Row gutter={[16, 16]} className="coalx-order-row">
        <Col xs={24} sm={12}>
          <MoneyCard detail={detail} />
        </Col>
        <Col xs={24} sm={12}>
          <ProgressCard detail={detail} />
        </Col>
      </Row>

      <TermsCard detail={detail} />

      <div className="coalx-order-row">
        <OrderDelivery orderId={detail.id} />
      </div>

      <Card title={`订单记录（${detail.timeline.length}）`} size="small" className="coalx-order-row">
        {detail.timeline.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无记录" />
        ) : (
          <Timeline
            data-testid="order-timeline"
            items={detail.timeline.map((e) => ({
              children: (
                <div>
                  <div>
                    <b>{e.action}</b> · {e.actorName}
                  </div>
                  <div className="coalx-order-timeline-at">{e.at}</div>
                  {e.note ? <div className="coalx-order-timeline-note">{e.note}</div> : null}
                </div>
              ),
            }))}
          />
        )}
      </Card>

      {detail.canTerminate ? <TerminateModal detail={detail} open={terminating} onOpenChange={setTerminating} onDone={update} /> : null}
      {holder}
    </div>
  );
}
