import LinkFilterNotice from '@/components/LinkFilterNotice';
import { useLinkFilters } from '@/hooks/useLinkFilters';
import { useRef, useState } from 'react';
import { FileAddOutlined } from '@ant-design/icons';
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Badge, Button, Empty, Modal, Space, Spin, Table, message } from 'antd';
import { Link, useNavigate } from 'react-router';
import { STATEMENT_STATUS, formatTons, type StatementStatus } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import { hasAction } from '@/app/access';
import { useSession } from '@/app/session';
import Money from '@/components/Money';
import { partyColumns } from '@/components/PartyColumn';
import { rowDetails } from '@/components/RowDetails';
import { StatementMoney, StatementQuality, StatementStatusTag, StatementTrucks } from '@/components/settlement/StatementParts';
import { cleanParams, WS_PAGINATION } from '@/lib/pro-table';
import {
  SETTLEMENT_KEYS,
  issueStatement,
  listSettleableOrders,
  listStatements,
  previewStatement,
  type SettleableOrder,
  type StatementView,
} from '@/services/settlement';

type Tab = 'all' | StatementStatus;
const TABS: Tab[] = ['all', 'pending', 'disputed', 'confirmed', 'returned'];
const TAB_TEXT: Record<Tab, string> = { all: '全部', ...STATEMENT_STATUS };

/** 开具结算单: the seller picks an order in 待结算, sees every line of the statement, then issues it. */
function IssueModal({ open, onClose, onIssued }: { open: boolean; onClose: () => void; onIssued: (s: StatementView) => void }) {
  const [orderId, setOrderId] = useState<number | null>(null);
  const [issuing, setIssuing] = useState(false);
  const orders = useQuery({ queryKey: SETTLEMENT_KEYS.settleable, queryFn: listSettleableOrders, enabled: open });
  const preview = useQuery({ queryKey: SETTLEMENT_KEYS.preview(orderId ?? 0), queryFn: () => previewStatement(orderId!), enabled: open && orderId !== null, retry: false, staleTime: 0 });
  const close = () => {
    setOrderId(null);
    onClose();
  };
  const issue = async () => {
    if (!orderId || issuing) return;
    setIssuing(true);
    try {
      const made = await issueStatement(orderId);
      message.success(`结算单 ${made.statementNo} 已开具，等待买方确认`);
      setOrderId(null);
      onIssued(made);
    } catch (error) {
      message.error(errorMessage(error, '开具失败，请稍后重试'));
    } finally {
      setIssuing(false);
    }
  };
  const rows = orders.data ?? [];
  return (
    <Modal
      open={open}
      title={orderId && preview.data ? `开具结算单 · 订单 ${preview.data.orderNo}` : '开具结算单：选择待结算订单'}
      width={1180}
      onCancel={close}
      maskClosable={false}
      destroyOnHidden
      footer={
        orderId ? (
          <Space>
            <Button onClick={() => setOrderId(null)}>返回选择订单</Button>
            <Button type="primary" loading={issuing} disabled={!preview.data} onClick={() => void issue()} data-testid="statement-issue-confirm">
              确认开具
            </Button>
          </Space>
        ) : (
          <Button onClick={close}>取消</Button>
        )
      }
    >
      {!orderId ? (
        <Table<SettleableOrder>
          rowKey="orderId"
          size="small"
          loading={orders.isLoading}
          pagination={false}
          tableLayout="fixed"
          dataSource={rows}
          data-testid="statement-settleable"
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无待开具结算单的订单（订单全部签收并确认化验单后进入待结算）" /> }}
          columns={[
            { title: '订单编号', dataIndex: 'orderNo', width: 160, render: (v: string, r) => <Link to={`/order/info?id=${r.orderId}`}>{v}</Link> },
            { title: '买方', dataIndex: 'buyerName', width: 220, ellipsis: true },
            { title: '产品', dataIndex: 'productName', width: 160, ellipsis: true },
            { title: '已签收', dataIndex: 'signedKg', width: 130, align: 'right', render: (v: number) => formatTons(v) },
            { title: '托管预付款', dataIndex: 'escrowFen', width: 150, align: 'right', render: (v: number) => <Money fen={v} /> },
            {
              title: '操作',
              width: 120,
              render: (_, r) => (
                <Button type="link" size="small" onClick={() => setOrderId(r.orderId)} data-testid={`statement-preview-${r.orderNo}`}>
                  预览结算单
                </Button>
              ),
            },
          ]}
        />
      ) : preview.isLoading ? (
        <Spin tip="正在计算结算单" size="large">
          <div style={{ height: 240 }} />
        </Spin>
      ) : preview.isError || !preview.data ? (
        <Alert type="error" showIcon message="不能开具结算单" description={errorMessage(preview.error)} data-testid="statement-preview-error" />
      ) : (
        <div data-testid="statement-preview">
          <Alert
            type="info"
            showIcon
            message={`卖方 ${preview.data.sellerName} · 买方 ${preview.data.buyerName} · 合同 ${preview.data.contractNo} · ${preview.data.productName}`}
            description="以下各项由已签收的派车单、磅单和双方确认的化验单按合同条款计算；开具后发送买方确认，买方确认时货款即时划转。"
          />
          <StatementTrucks f={preview.data} />
          <StatementQuality f={preview.data} />
          <StatementMoney f={preview.data} />
        </div>
      )}
    </Modal>
  );
}

/**
 * 余额结算: the statements the enterprise issued or received (the trading centre: all), by state; the seller issues
 * a statement for an order in 待结算 after a preview of every line. A row opens 结算单详情.
 */
export default function SettlementBalancePage() {
  const { userInfo } = useSession();
  const isOperator = userInfo?.role?.code === 'operator';
  // the same grant the server asks of 开具结算单 (settlement-balance.add), besides being a trading party
  const mayIssue = !isOperator && hasAction('settlement-balance.add', userInfo);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const actionRef = useRef<ActionType>(undefined);
  // a 待办 opens the list filtered: 待裁定结算异议 ?status=disputed, 待确认结算单 ?status=pending&side=buyer
  const link = useLinkFilters(['status', 'side'] as const);
  const [tab, setTab] = useState<Tab>(link.filters.status && (TABS as readonly string[]).includes(link.filters.status) ? (link.filters.status as Tab) : 'all');
  const [issuing, setIssuing] = useState(false);
  const settleable = useQuery({ queryKey: SETTLEMENT_KEYS.settleable, queryFn: listSettleableOrders, enabled: !isOperator });
  const waiting = settleable.data?.length ?? 0;

  const open = (r: StatementView) => navigate(`/settlement/info?id=${r.id}`);

  const columns: ProColumns<StatementView>[] = [
    {
      title: '结算单号',
      dataIndex: 'statementNo',
      width: 140,
      fieldProps: { placeholder: '请输入结算单号' },
      render: (_, r) => (
        <Link to={`/settlement/info?id=${r.id}`} className="coalx-num" onClick={(e) => e.stopPropagation()}>
          {r.statementNo}
        </Link>
      ),
    },
    { title: '订单编号', dataIndex: 'orderNo', width: 130, search: false, render: (_, r) => <span className="coalx-num">{r.orderNo}</span> },
    ...partyColumns<StatementView>({ isOperator, side: (r) => r.side, title: '对方企业 / 我方角色', width: 160 }),
    { title: '产品', dataIndex: 'productName', width: 95, search: false, ellipsis: true },
    { title: '结算数量', dataIndex: 'settledKg', width: 95, align: 'right', search: false, render: (_, r) => formatTons(r.settledKg) },
    { title: '结算金额 (¥)', dataIndex: 'amountFen', width: 125, align: 'right', search: false, render: (_, r) => <Money fen={r.amountFen} strong /> },
    {
      title: '补付 / 退还 (¥)',
      dataIndex: 'balanceFen',
      width: 135,
      align: 'right',
      search: false,
      render: (_, r) => (
        <span>
          <span style={{ color: 'rgba(0,0,0,0.45)', fontSize: 12, marginInlineEnd: 4 }}>{r.balanceFen > 0 ? '补付' : '退还'}</span>
          <Money fen={Math.abs(r.balanceFen)} />
        </span>
      ),
    },
    { title: '状态', dataIndex: 'status', width: 75, search: false, render: (_, r) => <StatementStatusTag status={r.status} text={r.statusText} /> },
    {
      title: '操作',
      valueType: 'option',
      width: 90,
      render: (_, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => open(r)}>
            查看
          </Button>
          {r.canConfirm ? (
            <Button type="link" size="small" onClick={() => open(r)}>
              确认
            </Button>
          ) : r.canRule ? (
            <Button type="link" size="small" onClick={() => open(r)}>
              裁定
            </Button>
          ) : null}
        </Space>
      ),
    },
  ];

  return (
    <>
      <LinkFilterNotice label={link.filters.side === 'buyer' ? '本企业为买方、等待本企业确认的结算单' : link.filters.side === 'seller' ? '本企业为卖方的结算单' : null} onClear={link.clear} />
      <ProTable<StatementView>
        rowKey="id"
        headerTitle={isOperator ? '余额结算（全部结算单）' : '余额结算'}
        actionRef={actionRef}
        columns={columns}
        cardBordered
        tableLayout="fixed"
        search={{ labelWidth: 'auto', defaultCollapsed: false }}
        pagination={WS_PAGINATION}
        options={{ density: false, setting: false, reload: true }}
        params={{ tab, side: link.filters.side }}
        onRow={(r) => ({ onClick: () => open(r), style: { cursor: 'pointer' } })}
        expandable={rowDetails<StatementView>((r) => [
          { label: '合同编号', value: r.contractNo },
          { label: '签收重量', value: formatTons(r.signedKg) },
          { label: '结算单价', value: `${(r.unitPriceFen / 100).toFixed(2)} 元/吨` },
          { label: '已托管预付款', value: <Money fen={r.escrowFen} /> },
          { label: '平台服务费', value: <Money fen={r.feeFen} /> },
          { label: '化验单', value: r.lab.reportNo },
          { label: '开具人', value: r.issuedByName },
          { label: '开具时间', value: r.issuedAt },
          { label: '确认时间', value: r.confirmedAt ?? '未确认' },
        ])}
        locale={{ emptyText: '暂无结算单' }}
        toolbar={{
          menu: {
            type: 'tab',
            activeKey: tab,
            items: TABS.map((key) => ({ key, label: <span data-testid={`statement-tab-${key}`}>{TAB_TEXT[key]}</span> })),
            onChange: (key) => {
              setTab(key as Tab);
              link.clear();
            },
          },
        }}
        toolBarRender={() =>
          !mayIssue
            ? []
            : [
                <Badge key="issue" count={waiting} size="small">
                  <Button type="primary" icon={<FileAddOutlined />} onClick={() => setIssuing(true)} data-testid="statement-issue">
                    开具结算单
                  </Button>
                </Badge>,
              ]
        }
        request={async (p) => {
          const { tab: chosen, statementNo, side } = cleanParams(p) as { tab?: Tab; statementNo?: string; side?: 'buyer' | 'seller' };
          const page = await listStatements({
            statementNo,
            side,
            status: chosen && chosen !== 'all' ? chosen : undefined,
            pageNo: p.current ?? 1,
            pageSize: p.pageSize ?? 10,
          });
          return { data: page.records, total: page.total, success: true };
        }}
      />
      {!mayIssue ? null : (
        <IssueModal
          open={issuing}
          onClose={() => setIssuing(false)}
          onIssued={(made) => {
            setIssuing(false);
            void queryClient.invalidateQueries({ queryKey: SETTLEMENT_KEYS.all });
            actionRef.current?.reload();
            navigate(`/settlement/info?id=${made.id}`);
          }}
        />
      )}
    </>
  );
}
