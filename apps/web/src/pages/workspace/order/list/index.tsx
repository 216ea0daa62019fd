import { useRef, useState } from 'react';
import { DownloadOutlined } from '@ant-design/icons';
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { Button, Space } from 'antd';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ORDER_STATUS, ORDER_TABS, TRANSPORT_ARRANGERS, formatPrice, formatTons, type OrderStatus, type OrderTab } from '@coalx/shared';
import { useSession } from '@/app/session';
import Authorized from '@/components/Authorized';
import Money from '@/components/Money';
import { counterpartySearchColumn, partyColumns } from '@/components/PartyColumn';
import { rowDetails } from '@/components/RowDetails';
import { OrderStatusTag, SignedProgress } from '@/components/order/OrderParts';
import '@/components/order/order.css';
import { useExcelExport } from '@/hooks/useExcelExport';
import { downloadWithToken } from '@/lib/download';
import { canPayOrder } from '@/lib/order';
import { cleanParams, WS_PAGINATION } from '@/lib/pro-table';
import LinkFilterNotice from '@/components/LinkFilterNotice';
import { useLinkFilters } from '@/hooks/useLinkFilters';
import { listOrders, ORDER_EXPORT_PATH, type OrderFilters, type OrderSummary } from '@/services/order';

const TAB_TEXT: Record<OrderTab, string> = { all: '全部', ...ORDER_STATUS };
const isTab = (value: string | null): value is OrderTab => (ORDER_TABS as readonly string[]).includes(value ?? '');

/**
 * 订单管理: the enterprise's orders (the trading centre: all of them) by state, searchable, with my side, the money
 * and how much has been signed for; a row opens 订单详情.
 */
export default function OrderListPage() {
  const { userInfo } = useSession();
  const isOperator = userInfo?.role?.code === 'operator';
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const actionRef = useRef<ActionType>(undefined);
  const filters = useRef<OrderFilters>({});
  const [tab, setTab] = useState<OrderTab>(isTab(search.get('status')) ? (search.get('status') as OrderTab) : 'all');
  // the operator's 逾期未付款订单 opens the list filtered to them
  const [overdueOnly, setOverdueOnly] = useState(search.get('overdue') === '1');
  const [counts, setCounts] = useState<Record<string, number>>({});
  // the 待办 超过交收期的订单 (?late=1) and the lab-report ones (?labReport=disputed|toConfirm) open the list filtered
  const link = useLinkFilters(['late', 'labReport'] as const);
  const linkLabel =
    link.filters.late === '1' ? '超过交收期仍未发完货' : link.filters.labReport === 'disputed' ? '化验单有异议' : link.filters.labReport === 'toConfirm' ? '有待本企业确认的化验单' : null;
  const { exporting, exportExcel } = useExcelExport(() => {
    const f = filters.current;
    return downloadWithToken(
      ORDER_EXPORT_PATH,
      { status: f.status, overdue: f.overdue, orderNo: f.orderNo, contractNo: f.contractNo, counterparty: f.counterparty, productName: f.productName, dateFrom: f.dateFrom, dateTo: f.dateTo },
      '订单列表.xlsx',
    );
  }, '当前查询没有可导出的订单');

  const open = (r: OrderSummary) => navigate(`/order/info?id=${r.id}`);

  const columns: ProColumns<OrderSummary>[] = [
    {
      title: '订单编号',
      dataIndex: 'orderNo',
      width: 135,
      fieldProps: { placeholder: '请输入订单编号' },
      render: (_, r) => (
        <Link to={`/order/info?id=${r.id}`} className="coalx-num" onClick={(e) => e.stopPropagation()}>
          {r.orderNo}
        </Link>
      ),
    },
    {
      title: '合同编号',
      dataIndex: 'contractNo',
      width: 135,
      fieldProps: { placeholder: '请输入合同编号' },
      render: (_, r) => (
        <Link to={`/contract/info?id=${r.contractId}`} className="coalx-num" onClick={(e) => e.stopPropagation()}>
          {r.contractNo}
        </Link>
      ),
    },
    counterpartySearchColumn(isOperator),
    ...partyColumns<OrderSummary>({ isOperator, side: (r) => r.mySide, title: '对方企业 / 我方角色', dataIndex: 'counterpartyName', width: 180, operatorWidth: 120 }),
    { title: '产品', dataIndex: 'productName', width: isOperator ? 100 : 95, ellipsis: true, fieldProps: { placeholder: '请输入产品名称' } },
    { title: '合同金额 (¥)', dataIndex: 'amount', width: 125, align: 'right', search: false, render: (_, r) => <Money fen={r.amount} strong /> },
    { title: '状态', dataIndex: 'status', width: 105, search: false, render: (_, r) => <OrderStatusTag status={r.status} overdue={r.overdue} /> },
    { title: '交收进度', dataIndex: 'progress', width: isOperator ? 150 : 170, search: false, render: (_, r) => <SignedProgress order={r} /> },
    {
      title: '生成日期',
      dataIndex: 'createdRange',
      valueType: 'dateRange',
      hideInTable: true,
      search: { transform: (value: [string, string]) => ({ dateFrom: value[0], dateTo: value[1] }) },
    },
    {
      title: '操作',
      valueType: 'option',
      width: isOperator ? 60 : 100,
      render: (_, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => open(r)}>
            查看
          </Button>
          {canPayOrder(r) ? (
            <Button type="link" size="small" onClick={() => open(r)}>
              付款
            </Button>
          ) : null}
        </Space>
      ),
    },
  ];

  const tabLabel = (key: OrderTab) => {
    const n = counts[key];
    return n ? `${TAB_TEXT[key]} (${n})` : TAB_TEXT[key];
  };

  return (
    <>
    <LinkFilterNotice label={linkLabel} onClear={link.clear} />
    <ProTable<OrderSummary>
      rowKey="id"
      headerTitle={isOperator ? '订单管理（全部订单）' : '订单管理'}
      actionRef={actionRef}
      columns={columns}
      cardBordered
      tableLayout="fixed"
      search={{ labelWidth: 'auto', defaultCollapsed: false }}
      pagination={WS_PAGINATION}
      options={{ density: false, setting: false, reload: true }}
      params={{ tab, overdueOnly, ...link.filters }}
      onRow={(r) => ({ onClick: () => open(r), style: { cursor: 'pointer' } })}
      expandable={rowDetails<OrderSummary>((r) => [
        { label: '合同数量', value: formatTons(r.quantity) },
        { label: '单价', value: formatPrice(r.price) },
        { label: '应付预付款', value: <Money fen={r.prepayment} /> },
        { label: '托管金额', value: <Money fen={r.escrow} /> },
        { label: '付款截止', value: r.paymentDeadline + (r.overdue ? '（已逾期）' : '') },
        { label: '付款时间', value: r.paidAt ?? '未付款' },
        { label: '运输', value: TRANSPORT_ARRANGERS[r.transportSide] },
        { label: '已派车', value: `${formatTons(r.progress.plannedKg)}（${r.progress.dispatchedTrucks} 车）` },
        { label: '已装车', value: `${formatTons(r.progress.loadedKg)}（${r.progress.loadedTrucks} 车）` },
        { label: '已到货', value: `${formatTons(r.progress.arrivedKg)}（${r.progress.arrivedTrucks} 车）` },
        { label: '已签收', value: `${formatTons(r.progress.signedKg)}（${r.progress.signedTrucks} 车）` },
        { label: '生成时间', value: r.createdAt },
      ])}
      locale={{ emptyText: overdueOnly ? '没有逾期未付款的订单' : '暂无订单' }}
      toolbar={{
        menu: {
          type: 'tab',
          activeKey: tab,
          items: ORDER_TABS.map((key) => ({ key, label: <span data-testid={`order-tab-${key}`}>{tabLabel(key)}</span> })),
          onChange: (key) => {
            setTab(key as OrderTab);
            if (key !== 'unpaid') setOverdueOnly(false);
          },
        },
      }}
      toolBarRender={() => [
        overdueOnly ? (
          <Button key="overdue" onClick={() => setOverdueOnly(false)}>
            仅逾期未付款 ✕
          </Button>
        ) : null,
        <Authorized key="export" action="export">
          <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportExcel()}>
            导出
          </Button>
        </Authorized>,
      ]}
      request={async (p) => {
        const query = cleanParams(p) as OrderFilters & { tab?: OrderTab; overdueOnly?: boolean };
        const { tab: chosen, overdueOnly: onlyOverdue, ...rest } = query;
        filters.current = {
          ...rest,
          status: chosen && chosen !== 'all' ? (chosen as OrderStatus) : undefined,
          overdue: onlyOverdue ? '1' : undefined,
        };
        const page = await listOrders({ ...filters.current, pageNo: p.current ?? 1, pageSize: p.pageSize ?? 10 });
        setCounts(page.counts);
        return { data: page.records, total: page.total, success: true };
      }}
    />
    </>
  );
}
