import { useRef, useState } from 'react';
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Space, Typography } from 'antd';
import { Link, useNavigate } from 'react-router';
import { ORDER_PAYMENT_TABS } from '@coalx/shared';
import Money, { yuan } from '@/components/Money';
import { counterpartyColumn } from '@/components/PartyColumn';
import { OrderStatusTag } from '@/components/order/OrderParts';
import { usePayOrder } from '@/components/order/usePayOrder';
import '@/components/order/order.css';
import { canPayOrder } from '@/lib/order';
import { WS_PAGINATION } from '@/lib/pro-table';
import { getFundInfo } from '@/services/funds';
import { listOrderPayments, type OrderSummary } from '@/services/order';
import LinkFilterNotice from '@/components/LinkFilterNotice';
import { useLinkFilters } from '@/hooks/useLinkFilters';

type Tab = keyof typeof ORDER_PAYMENT_TABS;

/**
 * 货款支付: the orders waiting for their prepayment (the buyer pays them here; the seller sees what it is owed) and
 * the payment history; a shortfall sends the buyer to 入金.
 */
export default function SettlementPaymentPage() {
  const navigate = useNavigate();
  const actionRef = useRef<ActionType>(undefined);
  // the 待办 待付款订单 opens 待付款 of the orders this enterprise pays (?tab=due&side=buyer)
  const link = useLinkFilters(['tab', 'side'] as const);
  const [tab, setTab] = useState<Tab>(link.filters.tab === 'paid' ? 'paid' : 'due');
  const side = link.filters.side === 'buyer' || link.filters.side === 'seller' ? link.filters.side : undefined;
  const funds = useQuery({ queryKey: ['funds', 'info'], queryFn: getFundInfo, retry: false });
  const { pay, holder } = usePayOrder(() => {
    actionRef.current?.reload();
    void funds.refetch();
  });

  const party = counterpartyColumn<OrderSummary>({ side: (r) => r.mySide, title: '对方企业 / 我方角色', width: 200 });
  const orderNo: ProColumns<OrderSummary> = {
    title: '订单编号',
    dataIndex: 'orderNo',
    width: 150,
    render: (_, r) => (
      <Link to={`/order/info?id=${r.id}`} className="coalx-num">
        {r.orderNo}
      </Link>
    ),
  };
  const contractNo: ProColumns<OrderSummary> = { title: '合同编号', dataIndex: 'contractNo', width: 150, render: (_, r) => <span className="coalx-num">{r.contractNo}</span> };

  const dueColumns: ProColumns<OrderSummary>[] = [
    orderNo,
    contractNo,
    party,
    { title: '合同金额 (¥)', dataIndex: 'amount', width: 140, align: 'right', render: (_, r) => <Money fen={r.amount} /> },
    { title: '应付预付款 (¥)', dataIndex: 'prepayment', width: 140, align: 'right', render: (_, r) => <Money fen={r.prepayment} strong /> },
    {
      title: '付款截止',
      dataIndex: 'paymentDeadline',
      width: 175,
      render: (_, r) => (
        <Space size={4}>
          <span className="coalx-num">{r.paymentDeadline}</span>
          {r.overdue ? <Typography.Text type="danger">逾期</Typography.Text> : null}
        </Space>
      ),
    },
    {
      title: '操作',
      valueType: 'option',
      width: 110,
      render: (_, r) =>
        canPayOrder(r) ? (
          <Button type="primary" size="small" onClick={() => void pay(r)} data-testid={`pay-${r.orderNo}`}>
            付款
          </Button>
        ) : (
          <Typography.Text type="secondary">等待买方付款</Typography.Text>
        ),
    },
  ];

  const paidColumns: ProColumns<OrderSummary>[] = [
    orderNo,
    contractNo,
    party,
    { title: '预付款 (¥)', dataIndex: 'prepayment', width: 140, align: 'right', render: (_, r) => <Money fen={r.prepayment} strong /> },
    { title: '当前托管 (¥)', dataIndex: 'escrow', width: 140, align: 'right', render: (_, r) => <Money fen={r.escrow} /> },
    { title: '付款时间', dataIndex: 'paidAt', width: 165, render: (_, r) => <span className="coalx-num">{r.paidAt ?? '-'}</span> },
    { title: '订单状态', dataIndex: 'status', width: 110, render: (_, r) => <OrderStatusTag status={r.status} /> },
    {
      title: '操作',
      valueType: 'option',
      width: 70,
      render: (_, r) => (
        <Button type="link" size="small" onClick={() => navigate(`/order/info?id=${r.id}`)}>
          查看
        </Button>
      ),
    },
  ];

  return (
    <>
      {funds.data ? (
        <Alert
          style={{ marginBottom: 16 }}
          type="info"
          showIcon
          data-testid="payment-funds"
          message={
            <span>
              可用资金 <b className="coalx-num">{yuan(funds.data.available)}</b>；订单货款托管中 <span className="coalx-num">{yuan(funds.data.escrowFrozen)}</span>（已冻结，结算时支付卖方）
            </span>
          }
          action={
            <Button size="small" onClick={() => navigate('/financial/application')}>
              去入金
            </Button>
          }
        />
      ) : null}
      <LinkFilterNotice label={side === 'buyer' ? '本企业为买方的订单' : side === 'seller' ? '本企业为卖方的订单' : null} onClear={link.clear} />
      <ProTable<OrderSummary>
        key={tab}
        rowKey="id"
        headerTitle="货款支付"
        actionRef={actionRef}
        columns={tab === 'due' ? dueColumns : paidColumns}
        cardBordered
        tableLayout="fixed"
        search={false}
        pagination={WS_PAGINATION}
        options={{ density: false, setting: false, reload: true }}
        params={{ tab, side }}
        locale={{ emptyText: tab === 'due' ? '没有待付款的订单' : '暂无付款记录' }}
        toolbar={{
          menu: {
            type: 'tab',
            activeKey: tab,
            items: (Object.keys(ORDER_PAYMENT_TABS) as Tab[]).map((key) => ({ key, label: <span data-testid={`payment-tab-${key}`}>{ORDER_PAYMENT_TABS[key]}</span> })),
            onChange: (key) => setTab(key as Tab),
          },
        }}
        request={async (p) => {
          const page = await listOrderPayments({ tab, side, pageNo: p.current ?? 1, pageSize: p.pageSize ?? 10 });
          return { data: page.records, total: page.total, success: true };
        }}
      />
      {holder}
    </>
  );
}
