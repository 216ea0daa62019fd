import { useRef, useState } from 'react';
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { useQuery } from '@tanstack/react-query';
import { Tag } from 'antd';
import { Link } from 'react-router';
import { ELLIPSIS, formatPrice, formatTons, isAuction, RECOMMEND_QUICK_FILTERS } from '@coalx/shared';
import { dictValueEnum, useDictionaries } from '@/app/dict';
import { withEmptyPageFallback } from '@/app/request';
import EllipsisText from '@/components/EllipsisText';
import { recommendButtons, recommendSearchParams, recommendStateText, TRADE_TYPE_TEXT, type QuickFilterKey, type RecommendSearchForm as SearchForm } from '@/lib/home';
import { recommendList, type RecommendRecord } from '@/services/content';
import { listProducts } from '@/services/listing';
import '@/styles/home.css';
import '@/styles/home-tables.css';

/**
 * /recommend/recommendList, the full-list mode of the recommended trades (spec §2): search by trade number, trade
 * type (multi), product name, product category and listing state (multi, hang_state_total_select), 查询 / 重置,
 * 10 per page with the total, the quick filters, and the per-row buttons of spec §4.
 */
export default function RecommendListPage() {
  const action = useRef<ActionType>(null);
  const [quick, setQuick] = useState<QuickFilterKey>('all');
  const dicts = useDictionaries();
  const products = useQuery({ queryKey: ['products', 'public'], queryFn: listProducts, staleTime: 300_000 });
  const categories = [...new Set((products.data ?? []).map((p) => p.category).filter(Boolean))];

  const columns: ProColumns<RecommendRecord>[] = [
    { title: '交易编号', dataIndex: 'tradeId', width: 160, fieldProps: { placeholder: '请输入交易编号' } },
    {
      title: '交易类型',
      dataIndex: 'tradeType',
      width: 100,
      valueType: 'select',
      valueEnum: dictValueEnum('trade_type', dicts),
      fieldProps: { mode: 'multiple', placeholder: '请选择' },
      render: (_, r) => <Tag color={['blue', 'orange', 'red', 'purple'][r.tradeType]}>{TRADE_TYPE_TEXT[r.tradeType]}</Tag>,
    },
    { title: '产品名称', dataIndex: 'productName', width: 150, render: (_, r) => <EllipsisText text={r.productName} max={ELLIPSIS.name} /> },
    {
      title: '产品类别',
      dataIndex: 'category',
      width: 100,
      valueType: 'select',
      valueEnum: Object.fromEntries(categories.map((c) => [c, { text: c }])),
      fieldProps: { showSearch: true, placeholder: '请选择' },
    },
    {
      title: '挂牌状态',
      dataIndex: 'hangState',
      width: 90,
      valueType: 'select',
      valueEnum: dictValueEnum('hang_state_total_select', dicts),
      fieldProps: { mode: 'multiple', placeholder: '请选择' },
      render: (_, r) => recommendStateText(r.tradeType, r.hangState),
    },
    { title: '企业名称', dataIndex: 'enterpriseName', search: false, width: 200, render: (_, r) => <EllipsisText text={r.enterpriseName} max={ELLIPSIS.name} /> },
    {
      title: '价格',
      dataIndex: 'price',
      search: false,
      align: 'right',
      width: 150,
      render: (_, r) => <span className="coalx-price">{formatPrice(isAuction(r.tradeType) ? (r.startPrice ?? r.price) : r.price)}</span>,
    },
    { title: '数量', dataIndex: 'quantity', search: false, align: 'right', width: 130, render: (_, r) => formatTons(r.quantity) },
    {
      title: '交收地',
      dataIndex: 'deliveryPlace',
      search: false,
      width: 180,
      render: (_, r) => <EllipsisText text={`${r.deliveryProvince}${r.deliveryCity}${r.deliveryDistrict}${r.deliveryPlace}`} />,
    },
    {
      title: '开始时间',
      dataIndex: 'listedDateStart',
      search: false,
      width: 170,
      render: (_, r) => (isAuction(r.tradeType) ? r.bidDateStart : r.listedDateStart) ?? '-',
    },
    {
      title: '操作',
      valueType: 'option',
      width: 230,
      fixed: 'right',
      render: (_, r) =>
        recommendButtons(r.tradeType, r.hangState, r.tradeId).map((b) =>
          b.disabled ? (
            <span key={b.key} className="coalx-mini-btn disabled" aria-disabled="true">
              {b.label}
            </span>
          ) : (
            <Link key={b.key} to={b.path} className={`coalx-mini-btn ${b.primary ? 'primary' : ''}`}>
              {b.label}
            </Link>
          ),
        ),
    },
  ];

  return (
    <div className="coalx-page">
      <div className="coalx-page-head">
        <div>
          <h2 className="coalx-page-title">推荐交易</h2>
          <div className="coalx-page-sub">交易中心推荐的挂牌与竞价交易</div>
        </div>
      </div>
      <div className="coalx-quick-filters" role="tablist" aria-label="快捷筛选" style={{ marginBottom: 12 }}>
        {RECOMMEND_QUICK_FILTERS.map((f) => (
          <button
            key={f.key}
            type="button"
            role="tab"
            aria-selected={quick === f.key}
            className={`coalx-quick-filter ${quick === f.key ? 'active' : ''}`}
            onClick={() => {
              setQuick(f.key);
            }}
          >
            {f.label}
          </button>
        ))}
      </div>
      <ProTable<RecommendRecord, SearchForm>
        actionRef={action}
        rowKey="tradeId"
        columns={columns}
        params={{ quick }}
        cardBordered
        scroll={{ x: 1500 }}
        search={{ labelWidth: 'auto', defaultCollapsed: false, searchText: '查询', resetText: '重置' }}
        options={false}
        pagination={{ pageSize: 10, showSizeChanger: false, showTotal: (total) => `共 ${total} 条` }}
        locale={{ emptyText: '暂无数据' }}
        request={async (p) => {
          const page = await withEmptyPageFallback(() =>
            recommendList({ pageNo: p.current ?? 1, pageSize: p.pageSize ?? 10, ...recommendSearchParams(p, p.quick ?? quick) }),
          );
          return { data: page.records, total: page.total, success: true };
        }}
      />
    </div>
  );
}
