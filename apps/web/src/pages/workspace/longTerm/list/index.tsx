import { useRef, useState } from 'react';
import { DownloadOutlined, PlusOutlined } from '@ant-design/icons';
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Space, Switch, message } from 'antd';
import { Link, useNavigate } from 'react-router';
import { LONG_TERM_STATUS, formatPrice, formatTons, monthText, type LongTermStatus } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import { useSession } from '@/app/session';
import Authorized from '@/components/Authorized';
import ApplyModal from '@/components/longTerm/ApplyModal';
import { FulfilmentRate, LongTermStatusTag, runAction } from '@/components/longTerm/LongTermParts';
import OfferModal from '@/components/longTerm/OfferModal';
import '@/components/longTerm/long-term.css';
import { rowDetails } from '@/components/RowDetails';
import '@/components/TradeDetail/trade.css';
import { useExcelExport } from '@/hooks/useExcelExport';
import { downloadWithToken } from '@/lib/download';
import { buyerText, rateText } from '@/lib/long-term';
import { cleanParams, enumOf, WS_PAGINATION } from '@/lib/pro-table';
import {
  LONG_TERM_EXPORT_PATH,
  LONG_TERM_KEYS,
  getLongTerm,
  listLongTerm,
  publishOffer,
  withdrawApplication,
  type LongTermDetail,
  type LongTermFilters,
  type LongTermSummary,
} from '@/services/longTerm';

type Scope = 'mine' | 'market';

const SIDE_TEXT = { seller: '卖方', buyer: '买方' } as const;

/** 合同期 in two lines so the column stays narrow and each month whole. */
function Period({ deal }: { deal: Pick<LongTermSummary, 'periodStart' | 'periodEnd'> }) {
  return (
    <div className="coalx-num" style={{ lineHeight: 1.35 }}>
      <div>{deal.periodStart}</div>
      <div className="coalx-lt-sub">至 {deal.periodEnd}</div>
    </div>
  );
}

/** 定价 in two lines: the base (or fixed) price whole, then how it moves; the server's full text on hover. */
function Pricing({ deal }: { deal: Pick<LongTermSummary, 'pricingMode' | 'basePriceFen' | 'pricingText'> }) {
  return (
    <div className="coalx-lt-lines" title={deal.pricingText} style={{ overflow: 'hidden' }}>
      <div className="coalx-num">
        {deal.pricingMode === 'fixed' ? '固定' : '基准'} {formatPrice(deal.basePriceFen).replace(' 元/吨', '')}
      </div>
      <div className="coalx-lt-sub">{deal.pricingMode === 'fixed' ? '固定价格' : '按指数浮动'}</div>
    </div>
  );
}

const Name = ({ text }: { text: string }) => (
  <span className="coalx-lt-cell" title={text}>
    {text}
  </span>
);

/**
 * 长协交易: 我的长协 (offers I published, deals I am a side of, offers I applied to; the trading centre: all of them)
 * and 长协市场 (open offers this enterprise may apply to), searchable by number or product and state, with the
 * fulfilment warning filter, export and 发布长协.
 */
export default function LongTermListPage() {
  const { userInfo, companyInfo } = useSession();
  const isOperator = userInfo?.role?.code === 'operator';
  const navigate = useNavigate();
  const client = useQueryClient();
  const actionRef = useRef<ActionType>(undefined);
  const filters = useRef<LongTermFilters>({});
  const [scope, setScope] = useState<Scope>('mine');
  const [flagged, setFlagged] = useState(false);
  const [offering, setOffering] = useState<{ editing: LongTermDetail | null } | null>(null);
  const [applying, setApplying] = useState<LongTermSummary | null>(null);
  const market = scope === 'market';
  const { exporting, exportExcel } = useExcelExport(() => {
    const f = filters.current;
    return downloadWithToken(LONG_TERM_EXPORT_PATH, { scope: f.scope, status: f.status, keyword: f.keyword, flagged: f.flagged }, market ? '长协市场.xlsx' : '长协.xlsx');
  }, '当前查询没有可导出的长协');

  const changed = () => {
    void client.invalidateQueries({ queryKey: LONG_TERM_KEYS.all });
    actionRef.current?.reload();
  };
  const open = (r: LongTermSummary) => navigate(`/longTermDeal/info?id=${r.id}`);
  const edit = async (r: LongTermSummary) => {
    try {
      setOffering({ editing: await getLongTerm(r.id) });
    } catch (error) {
      message.error(errorMessage(error));
    }
  };

  const columns: ProColumns<LongTermSummary>[] = [
    {
      title: '长协编号',
      dataIndex: 'dealNo',
      width: 126,
      search: false,
      render: (_, r) => (
        <Link to={`/longTermDeal/info?id=${r.id}`} className="coalx-num">
          {r.dealNo}
        </Link>
      ),
    },
    { title: '关键字', dataIndex: 'keyword', hideInTable: true, fieldProps: { placeholder: '长协编号或产品名称' } },
    {
      title: '状态',
      dataIndex: 'status',
      width: 72,
      valueType: 'select',
      valueEnum: enumOf(LONG_TERM_STATUS),
      hideInSearch: market,
      hideInTable: market,
      fieldProps: { placeholder: '全部', allowClear: true },
      render: (_, r) => <LongTermStatusTag status={r.status} />,
    },
    { title: '卖方', dataIndex: 'sellerName', width: market ? 140 : 97, search: false, render: (_, r) => <Name text={r.sellerName} /> },
    {
      title: market ? '征集方式' : '买方',
      key: 'buyer',
      width: market ? 90 : 97,
      search: false,
      render: (_, r) => (market ? (r.targetName ? '定向' : '公开征集') : <Name text={buyerText(r)} />),
    },
    { title: '产品', dataIndex: 'productName', width: 104, search: false, render: (_, r) => <Name text={r.productName} /> },
    { title: '合同期', key: 'period', width: 82, search: false, render: (_, r) => <Period deal={r} /> },
    {
      title: '计划总量 (吨)',
      dataIndex: 'plannedKg',
      width: 96,
      align: 'right',
      search: false,
      render: (_, r) => <span className="coalx-num">{formatTons(r.plannedKg, false)}</span>,
    },
    {
      title: '定价',
      dataIndex: 'pricingText',
      width: market ? 140 : 98,
      search: false,
      render: (_, r) => <Pricing deal={r} />,
    },
    ...(market
      ? ([
          { title: '申请截止', dataIndex: 'applyDeadline', width: 96, search: false, render: (_, r) => <span className="coalx-num">{r.applyDeadline}</span> },
          { title: '我的申请', dataIndex: 'myApplicationStatus', width: 80, search: false, render: (_, r) => r.myApplicationStatus ?? '未申请' },
        ] as ProColumns<LongTermSummary>[])
      : ([
          {
            title: '本月价格 (元/吨)',
            dataIndex: 'currentPriceFen',
            width: 86,
            align: 'right',
            search: false,
            render: (_, r) => <span className="coalx-num">{r.currentPriceFen === null ? '-' : formatPrice(r.currentPriceFen).replace(' 元/吨', '')}</span>,
          },
          { title: '累计履约率', key: 'rate', width: 90, search: false, render: (_, r) => <FulfilmentRate fulfilment={r.fulfilment} stacked /> },
        ] as ProColumns<LongTermSummary>[])),
    {
      title: '操作',
      valueType: 'option',
      width: 100,
      render: (_, r) => (
        <Space size={[0, 0]} wrap>
          <Button type="link" size="small" onClick={() => open(r)}>
            查看
          </Button>
          {r.actions.includes('apply') ? (
            <Button type="link" size="small" onClick={() => setApplying(r)}>
              申请
            </Button>
          ) : null}
          {r.actions.includes('withdrawApplication') ? (
            <Button
              type="link"
              size="small"
              onClick={async () => {
                const done = await runAction(() => withdrawApplication(r.id), '已撤回申请', {
                  title: `撤回对 ${r.dealNo} 的申请？`,
                  content: '撤回后可在申请截止前重新申请。',
                  okText: '撤回申请',
                });
                if (done) changed();
              }}
            >
              撤回申请
            </Button>
          ) : null}
          {r.actions.includes('edit') ? (
            <Button type="link" size="small" onClick={() => void edit(r)}>
              修改
            </Button>
          ) : null}
          {r.actions.includes('publish') ? (
            <Button
              type="link"
              size="small"
              onClick={async () => {
                const done = await runAction(() => publishOffer(r.id), `已发布长协 ${r.dealNo}`, {
                  title: `发布长协 ${r.dealNo}？`,
                  content: `发布后${r.targetName ? `定向买方 ${r.targetName}` : '经审核的买方'}可在「长协市场」申请，申请截止 ${r.applyDeadline}。`,
                  okText: '确认发布',
                });
                if (done) changed();
              }}
            >
              发布
            </Button>
          ) : null}
          {r.actions.includes('accept') ? (
            <Button type="link" size="small" onClick={() => navigate(`/longTermDeal/info?id=${r.id}#applications`)}>
              处理申请
            </Button>
          ) : null}
          {r.actions.includes('callOff') || r.actions.includes('requestCallOff') ? (
            <Button type="link" size="small" onClick={() => open(r)}>
              调运
            </Button>
          ) : null}
        </Space>
      ),
    },
  ];

  const tabs = [
    { key: 'mine', label: isOperator ? '全部长协' : '我的长协' },
    ...(isOperator ? [] : [{ key: 'market', label: '长协市场' }]),
  ];

  return (
    <>
      <ProTable<LongTermSummary>
        rowKey="id"
        headerTitle={isOperator ? '长协交易（全部长协）' : '长协交易'}
        actionRef={actionRef}
        columns={columns}
        cardBordered
        tableLayout="fixed"
        search={{ labelWidth: 'auto', defaultCollapsed: false }}
        pagination={WS_PAGINATION}
        options={{ density: false, setting: false, reload: true }}
        params={{ scope, flagged }}
        toolbar={{ menu: { type: 'tab', activeKey: scope, items: tabs, onChange: (key) => setScope(key as Scope) } }}
        rowClassName={(r) => (r.fulfilment.flagged ? 'coalx-lt-row-flagged' : '')}
        expandable={rowDetails<LongTermSummary>((r) => [
          { label: '卖方', value: r.sellerName },
          { label: '买方', value: buyerText(r) },
          { label: '定价', value: r.pricingText },
          { label: '合同期', value: `${monthText(r.periodStart)} 至 ${monthText(r.periodEnd)}` },
          { label: '申请截止', value: r.applyDeadline },
          { label: '我方', value: r.mySide ? SIDE_TEXT[r.mySide] : r.myApplicationStatus ? `申请人（${r.myApplicationStatus}）` : '-' },
          { label: '申请数', value: r.mySide === 'seller' || isOperator ? `${r.applicationCount} 家` : '-' },
          {
            label: '框架合同',
            value: r.contractId ? (
              <Link to={`/contract/info?id=${r.contractId}`} className="coalx-num">
                {r.contractNo}
              </Link>
            ) : (
              '-'
            ),
          },
          { label: '累计签收', value: formatTons(r.fulfilment.deliveredKg) },
          { label: '累计履约率', value: rateText(r.fulfilment.rate) },
          { label: '创建时间', value: r.createdAt },
        ])}
        locale={{ emptyText: market ? '暂无可申请的长协' : flagged ? '没有履约预警的长协' : '暂无长协' }}
        toolBarRender={() => [
          market ? null : (
            <Space key="flagged" size={6}>
              <Switch size="small" checked={flagged} onChange={setFlagged} aria-label="仅看履约预警" />
              <span>仅看履约预警</span>
            </Space>
          ),
          <Authorized key="export" action="export">
            <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportExcel()}>
              导出
            </Button>
          </Authorized>,
          companyInfo && !isOperator ? (
            <Authorized key="add" action="add">
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setOffering({ editing: null })}>
                发布长协
              </Button>
            </Authorized>
          ) : null,
        ]}
        request={async (p) => {
          const { scope: chosen, flagged: onlyFlagged, ...rest } = cleanParams(p) as LongTermFilters & { flagged?: boolean };
          filters.current = {
            scope: chosen,
            keyword: rest.keyword,
            status: chosen === 'market' ? undefined : (rest.status as LongTermStatus | undefined),
            flagged: chosen !== 'market' && onlyFlagged ? '1' : undefined,
          };
          const page = await listLongTerm({ ...filters.current, pageNo: p.current ?? 1, pageSize: p.pageSize ?? 10 });
          return { data: page.records, total: page.total, success: true };
        }}
      />
      <OfferModal
        open={offering !== null}
        editing={offering?.editing}
        onClose={() => setOffering(null)}
        onSaved={() => {
          setOffering(null);
          changed();
        }}
      />
      <ApplyModal
        deal={applying}
        onClose={() => setApplying(null)}
        onDone={() => {
          setApplying(null);
          changed();
        }}
      />
    </>
  );
}
