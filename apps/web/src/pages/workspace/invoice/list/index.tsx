import LinkFilterNotice from '@/components/LinkFilterNotice';
import { useRef, useState } from 'react';
import { DownloadOutlined } from '@ant-design/icons';
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { Button, message, Space, Typography } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { INVOICE_DIRECTIONS, INVOICE_KINDS, INVOICE_MEDIA, INVOICE_STATUS } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import { useSession } from '@/app/session';
import Authorized from '@/components/Authorized';
import Money, { yuan } from '@/components/Money';
import { counterpartySearchColumn } from '@/components/PartyColumn';
import { confirmMoney } from '@/components/MoneyConfirm';
import { rowDetails } from '@/components/RowDetails';
import { OrderStatusTag } from '@/components/order/OrderParts';
import { useExcelExport } from '@/hooks/useExcelExport';
import { downloadWithToken } from '@/lib/download';
import { cleanParams, enumOf, WS_PAGINATION } from '@/lib/pro-table';
import { confirmInvoice, INVOICE_EXPORT_PATH, listInvoiceDue, listInvoices, type InvoiceDue, type InvoiceFilters, type InvoiceView } from '@/services/invoice';
import InvoiceDetail from './components/InvoiceDetail';
import { InvoiceStatusTag } from './components/parts';
import RegisterInvoiceModal from './components/RegisterInvoiceModal';
import ReverseInvoiceModal from './components/ReverseInvoiceModal';

const TABS = { due: '待开票', all: '全部发票', pending: '待确认' } as const;
type Tab = keyof typeof TABS;

/**
 * 发票管理: 待开票 (settled orders whose invoices do not yet total the settled amount; the seller registers them),
 * 全部发票 with search and export, 待确认 (the buyer confirms receipt). The seller reverses one with a red-letter
 * invoice; the last confirmation completes the order.
 */
export default function InvoiceListPage() {
  const { userInfo } = useSession();
  const isOperator = userInfo?.role?.code === 'operator';
  const [search, setSearch] = useSearchParams();
  // the 待办 待确认发票 links here with ?status=pending&side=buyer: the 待确认 tab of the invoices this enterprise received
  const linkSide = search.get('side') === 'buyer' || search.get('side') === 'seller' ? (search.get('side') as 'buyer' | 'seller') : undefined;
  const tab: Tab = (Object.keys(TABS) as Tab[]).includes(search.get('tab') as Tab)
    ? (search.get('tab') as Tab)
    : search.get('status') === 'pending'
      ? 'pending'
      : search.get('status')
        ? 'all'
        : 'due';
  const linkStatus = tab === 'all' && search.get('status') && search.get('status')! in INVOICE_STATUS ? (search.get('status') as InvoiceFilters['status']) : undefined;
  const actionRef = useRef<ActionType>(undefined);
  const filters = useRef<InvoiceFilters>({});
  const [registering, setRegistering] = useState<InvoiceDue | null>(null);
  const [reversing, setReversing] = useState<InvoiceView | null>(null);
  const [viewing, setViewing] = useState<InvoiceView | null>(null);
  const { exporting, exportExcel } = useExcelExport(() => {
    const f = filters.current;
    return downloadWithToken(INVOICE_EXPORT_PATH, { status: f.status, kind: f.kind, orderNo: f.orderNo, number: f.number, counterparty: f.counterparty, dateFrom: f.dateFrom, dateTo: f.dateTo }, '发票列表.xlsx');
  }, '当前查询没有可导出的发票');
  const reload = () => actionRef.current?.reload();

  const confirm = async (r: InvoiceView) => {
    const ok = await confirmMoney({
      title: '确认收票',
      rows: [
        { label: '开票方', value: r.sellerName },
        { label: '发票号码', value: r.number },
        { label: '不含税金额', value: yuan(r.amount) },
        { label: `税额（${r.rate}%）`, value: yuan(r.tax) },
        { label: '价税合计', value: yuan(r.total), strong: true },
      ],
      next: '请核对已收到的发票与以上信息一致。发票全部确认且合计等于结算金额后，订单完成。',
      okText: '确认收票',
    });
    if (!ok) return;
    try {
      await confirmInvoice(r.id);
      message.success('已确认收票');
      reload();
    } catch (error) {
      message.error(errorMessage(error));
    }
  };

  const orderLink = (orderId: number, orderNo: string) => (
    <Link to={`/order/info?id=${orderId}`} className="coalx-num">
      {orderNo}
    </Link>
  );
  const party = (r: { mySide: 'seller' | 'buyer' | null; sellerName: string; buyerName: string }) =>
    isOperator || !r.mySide ? (
      <span title={`${r.sellerName} → ${r.buyerName}`}>
        {r.sellerName}
        <Typography.Text type="secondary"> → {r.buyerName}</Typography.Text>
      </span>
    ) : (
      <span title={r.mySide === 'seller' ? r.buyerName : r.sellerName}>
        {r.mySide === 'seller' ? r.buyerName : r.sellerName}
        <Typography.Text type="secondary">（我方{r.mySide === 'seller' ? '开票' : '受票'}）</Typography.Text>
      </span>
    );

  const dueColumns: ProColumns<InvoiceDue>[] = [
    { title: '订单编号', dataIndex: 'orderNo', width: 150, render: (_, r) => orderLink(r.orderId, r.orderNo) },
    { title: '结算单号', dataIndex: 'settlementNo', width: 140, search: false, render: (_, r) => <span className="coalx-num">{r.settlementNo}</span> },
    { title: isOperator ? '卖方 → 买方' : '对方企业', dataIndex: 'party', width: 180, search: false, ellipsis: true, render: (_, r) => party(r) },
    { title: '结算金额 (¥)', dataIndex: 'settled', width: 125, align: 'right', search: false, render: (_, r) => <Money fen={r.settled} strong /> },
    { title: '已开票 (¥)', dataIndex: 'invoiced', width: 125, align: 'right', search: false, render: (_, r) => <Money fen={r.invoiced} /> },
    { title: '尚需开票 (¥)', dataIndex: 'remaining', width: 125, align: 'right', search: false, render: (_, r) => <Money fen={r.remaining} strong /> },
    { title: '订单状态', dataIndex: 'orderStatus', width: 80, search: false, render: (_, r) => <OrderStatusTag status={r.orderStatus} /> },
    {
      title: '操作',
      valueType: 'option',
      width: 100,
      render: (_, r) =>
        r.canRegister ? (
          <Button type="primary" size="small" onClick={() => setRegistering(r)} data-testid={`register-${r.orderNo}`}>
            登记发票
          </Button>
        ) : (
          <Typography.Text type="secondary">{r.mySide === 'buyer' ? '等待卖方开票' : '-'}</Typography.Text>
        ),
    },
  ];

  const invoiceColumns: ProColumns<InvoiceView>[] = [
    { title: '发票号码', dataIndex: 'number', width: 185, fieldProps: { placeholder: '请输入发票号码' }, render: (_, r) => <span className="coalx-num">{r.number}</span> },
    { title: '订单编号', dataIndex: 'orderNo', width: 145, fieldProps: { placeholder: '请输入订单编号' }, render: (_, r) => orderLink(r.orderId, r.orderNo) },
    counterpartySearchColumn(isOperator),
    { title: isOperator ? '卖方 → 买方' : '对方企业', dataIndex: 'party', width: 150, search: false, ellipsis: true, render: (_, r) => party(r) },
    {
      title: '发票类型',
      dataIndex: 'kind',
      width: 120,
      valueType: 'select',
      valueEnum: enumOf(INVOICE_KINDS),
      fieldProps: { placeholder: '全部类型', allowClear: true },
      render: (_, r) => (
        <span style={{ whiteSpace: 'nowrap' }}>
          {r.direction === 'red' ? <Typography.Text type="danger">红字</Typography.Text> : null}
          {INVOICE_KINDS[r.kind].replace('增值税', '')}
        </span>
      ),
    },
    { title: '开票日期', dataIndex: 'issuedOn', width: 100, search: false },
    { title: '价税合计 (¥)', dataIndex: 'total', width: 130, align: 'right', search: false, render: (_, r) => <Money fen={r.total} strong /> },
    ...(tab === 'pending'
      ? []
      : [
          {
            title: '状态',
            dataIndex: 'status',
            width: 80,
            valueType: 'select',
            valueEnum: enumOf(INVOICE_STATUS),
            fieldProps: { placeholder: '全部状态', allowClear: true },
            render: (_, r) => <InvoiceStatusTag status={r.status} />,
          } as ProColumns<InvoiceView>,
        ]),
    { title: '开票日期', dataIndex: 'dateRange', valueType: 'dateRange', hideInTable: true, fieldProps: { placeholder: ['开始日期', '结束日期'] } },
    {
      title: '操作',
      valueType: 'option',
      width: 140,
      render: (_, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setViewing(r)}>
            查看
          </Button>
          {r.actions.includes('confirm') ? (
            <Button type="link" size="small" onClick={() => void confirm(r)} data-testid={`confirm-${r.number}`}>
              确认收票
            </Button>
          ) : null}
          {r.actions.includes('reverse') ? (
            <Button type="link" size="small" danger onClick={() => setReversing(r)} data-testid={`reverse-${r.number}`}>
              红冲
            </Button>
          ) : null}
        </Space>
      ),
    },
  ];

  const toolbar = {
    menu: {
      type: 'tab' as const,
      activeKey: tab,
      items: (Object.keys(TABS) as Tab[]).map((key) => ({ key, label: <span data-testid={`invoice-tab-${key}`}>{TABS[key]}</span> })),
      onChange: (key: React.Key | undefined) => setSearch({ tab: String(key) }, { replace: true }),
    },
  };

  return (
    <>
      <LinkFilterNotice
        label={linkSide === 'buyer' ? '本企业收到的发票' : linkSide === 'seller' ? '本企业开具的发票' : null}
        onClear={() => setSearch({ tab }, { replace: true })}
      />
      {tab === 'due' ? (
        <ProTable<InvoiceDue>
          key="due"
          rowKey="orderId"
          actionRef={actionRef}
          columns={dueColumns}
          cardBordered
          tableLayout="fixed"
          search={{ labelWidth: 'auto', defaultCollapsed: false }}
          pagination={WS_PAGINATION}
          options={{ density: false, setting: false, reload: true }}
          toolbar={toolbar}
          locale={{ emptyText: '没有待开票的已结算订单' }}
          expandable={rowDetails<InvoiceDue>((r) => [
            { label: '合同编号', value: r.contractNo },
            { label: '产品', value: r.productName },
            { label: '卖方', value: r.sellerName },
            { label: '买方', value: r.buyerName },
            { label: '结算时间', value: r.settledAt },
            { label: '已确认收票', value: `${yuan(r.confirmed)}（有效发票 ${r.liveCount} 张）` },
          ])}
          request={async (p) => {
            const { orderNo } = cleanParams(p) as { orderNo?: string };
            const page = await listInvoiceDue({ orderNo, pageNo: p.current ?? 1, pageSize: p.pageSize ?? 10 });
            return { data: page.records, total: page.total, success: true };
          }}
        />
      ) : (
        <ProTable<InvoiceView>
          key={tab}
          rowKey="id"
          actionRef={actionRef}
          columns={invoiceColumns}
          cardBordered
          tableLayout="fixed"
          search={{ labelWidth: 'auto', defaultCollapsed: false }}
          pagination={WS_PAGINATION}
          options={{ density: false, setting: false, reload: true }}
          toolbar={toolbar}
          params={{ tab, side: linkSide, ...(linkStatus ? { status: linkStatus } : {}) }}
          locale={{ emptyText: tab === 'pending' ? '没有待确认的发票' : '暂无发票' }}
          expandable={rowDetails<InvoiceView>((r) => [
            { label: '发票类型', value: `${INVOICE_KINDS[r.kind]}（${INVOICE_DIRECTIONS[r.direction]}）` },
            { label: '发票介质', value: INVOICE_MEDIA[r.medium] },
            { label: '发票代码', value: r.code || '-' },
            { label: '不含税金额', value: yuan(r.amount) },
            { label: '税率 / 税额', value: `${r.rate}% / ${yuan(r.tax)}` },
            { label: '结算单号', value: r.settlementNo },
            { label: '登记时间', value: r.createdAt },
            { label: '确认收票时间', value: r.confirmedAt ?? '-' },
            ...(r.reversesNumber ? [{ label: '红冲的发票', value: r.reversesNumber }] : []),
            ...(r.reversedByNumber ? [{ label: '红字发票', value: r.reversedByNumber }] : []),
            ...(r.reverseReason ? [{ label: '红冲原因', value: r.reverseReason }] : []),
          ])}
          toolBarRender={() => [
            <Authorized key="export" action="export">
              <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportExcel()}>
                导出
              </Button>
            </Authorized>,
          ]}
          request={async (p) => {
            const { dateRange, tab: _tab, ...rest } = cleanParams(p) as InvoiceFilters & { dateRange?: [string, string]; tab?: string };
            filters.current = { ...rest, status: tab === 'pending' ? 'pending' : rest.status, dateFrom: dateRange?.[0], dateTo: dateRange?.[1] };
            const page = await listInvoices({ ...filters.current, pageNo: p.current ?? 1, pageSize: p.pageSize ?? 10 });
            return { data: page.records, total: page.total, success: true };
          }}
        />
      )}
      <RegisterInvoiceModal due={registering} onClose={() => setRegistering(null)} onDone={reload} />
      <ReverseInvoiceModal invoice={reversing} onClose={() => setReversing(null)} onDone={reload} />
      <InvoiceDetail invoice={viewing} onClose={() => setViewing(null)} />
    </>
  );
}
