import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { DownloadOutlined } from '@ant-design/icons';
import { ProCard } from '@ant-design/pro-components';
import { Button, DatePicker, Segmented, Space, Statistic, Table, Tabs, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { formatTons, STATISTICS_GRANULARITIES, type DealFigures, type StatisticsGranularity } from '@coalx/shared';
import Authorized from '@/components/Authorized';
import Money, { yuan } from '@/components/Money';
import { BreakdownChart, TrendChart } from '@/components/statistics/StatisticsCharts';
import { useExcelExport } from '@/hooks/useExcelExport';
import { downloadWithToken } from '@/lib/download';
import { getStatistics, STATISTICS_EXPORT_PATH, STATISTICS_KEYS, type StatisticsAnswer } from '@/services/statistics';

const DAY_FORMAT = 'YYYY-MM-DD';
type Range = [Dayjs, Dayjs];

/** Quick ranges of the picker (Asia/Shanghai days: the browser of the trading centre is in China). */
function quickRanges(): { label: string; value: Range }[] {
  const today = dayjs().startOf('day');
  return [
    { label: '近7天', value: [today.subtract(6, 'day'), today] },
    { label: '近30天', value: [today.subtract(29, 'day'), today] },
    { label: '本月', value: [today.startOf('month'), today] },
    { label: '上月', value: [today.subtract(1, 'month').startOf('month'), today.subtract(1, 'month').endOf('month').startOf('day')] },
    { label: '近90天', value: [today.subtract(89, 'day'), today] },
    { label: '今年', value: [today.startOf('year'), today] },
  ];
}

const dealColumns = (keyTitle: string) => [
  { title: keyTitle, dataIndex: 'label', width: 180, ellipsis: true },
  { title: '成交笔数', dataIndex: 'dealCount', width: 100, align: 'right' as const },
  { title: '成交量 (吨)', dataIndex: 'quantityKg', width: 140, align: 'right' as const, render: (v: number) => formatTons(v, false) },
  { title: '成交金额', dataIndex: 'amountFen', width: 170, align: 'right' as const, render: (v: number) => <Money fen={v} /> },
  { title: '均价 (元/吨)', dataIndex: 'avgPriceFen', width: 140, align: 'right' as const, render: (v: number, r: DealFigures) => (r.quantityKg > 0 ? <Money fen={v} /> : '-') },
];

function DealTable({ rows, keyTitle, testId }: { rows: DealFigures[]; keyTitle: string; testId: string }) {
  return (
    <Table<DealFigures>
      data-testid={testId}
      rowKey="key"
      size="small"
      tableLayout="fixed"
      pagination={rows.length > 12 ? { pageSize: 12, showSizeChanger: false } : false}
      dataSource={rows}
      columns={dealColumns(keyTitle)}
      locale={{ emptyText: '所选区间暂无成交' }}
    />
  );
}

const pct = (part: number, whole: number) => (whole > 0 ? `${((part * 100) / whole).toFixed(1)}%` : '-');

/** The summary cards: deals, auctions, performance, disputes and money of the range. */
function SummaryCards({ data }: { data: StatisticsAnswer }) {
  const s = data.summary;
  const cards: { title: string; value: string; note?: string }[] = [
    { title: '成交笔数', value: `${s.dealCount} 笔`, note: `活跃企业 ${s.activeEnterprises} 家` },
    { title: '成交量', value: formatTons(s.quantityKg) },
    { title: '成交金额', value: yuan(s.amountFen) },
    { title: '成交均价', value: s.quantityKg > 0 ? `${yuan(s.avgPriceFen)}/吨` : '-' },
    { title: '竞价场次', value: `${s.auctionsHeld} 场`, note: `流拍 ${s.auctionsFailed} 场` },
    {
      title: '竞价平均溢价率',
      value: s.auctionPremiumPct === null ? '-' : `${s.auctionPremiumPct.toFixed(2)}%`,
      note: s.auctionPremiumFen === null ? '较起拍价' : `平均 ${yuan(s.auctionPremiumFen)}/吨`,
    },
    { title: '合同按期签署', value: `${s.contractsSignedOnTime}/${s.contractsSigned} 份`, note: `按期率 ${pct(s.contractsSignedOnTime, s.contractsSigned)}，逾期 ${s.contractsOverdue} 份` },
    { title: '订单按期交付', value: `${s.ordersDeliveredInWindow}/${s.ordersDelivered} 单`, note: `按期率 ${pct(s.ordersDeliveredInWindow, s.ordersDelivered)}` },
    { title: '签收车辆', value: `${s.trucksSigned} 车`, note: `签收量 ${formatTons(s.trucksSignedKg)}` },
    { title: '争议', value: `新增 ${s.disputesOpened} 起`, note: `裁定 ${s.disputesRuled} 起` },
    { title: '入金 / 出金', value: yuan(s.fundsInFen), note: `出金 ${yuan(s.fundsOutFen)}` },
    { title: '保证金冻结 / 释放', value: yuan(s.depositsFrozenFen), note: `释放 ${yuan(s.depositsReleasedFen)}` },
  ];
  return (
    <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(230px, 1fr))', gap: 12 }} data-testid="statistics-summary">
      {cards.map((card) => (
        <ProCard key={card.title} bordered bodyStyle={{ padding: '12px 16px' }}>
          <Statistic title={card.title} value={card.value} valueStyle={{ fontSize: 20, whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }} />
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {card.note ?? '\u00a0'}
          </Typography.Text>
        </ProCard>
      ))}
    </div>
  );
}

/** 运营统计: the market's figures over a date range, by period, kind, product, province and price type; Excel export. */
export default function StatisticsPage() {
  const presets = useMemo(quickRanges, []);
  const [range, setRange] = useState<Range>(presets[1]!.value);
  const [granularity, setGranularity] = useState<StatisticsGranularity>('day');
  const query = { from: range[0].format(DAY_FORMAT), to: range[1].format(DAY_FORMAT), granularity };
  const overview = useQuery({ queryKey: STATISTICS_KEYS.overview(query), queryFn: () => getStatistics(query) });
  const { exporting, exportExcel } = useExcelExport(
    () => downloadWithToken(STATISTICS_EXPORT_PATH, { ...query }, `运营统计_${query.from}_${query.to}.xlsx`),
    '当前区间没有可导出的数据',
  );
  const data = overview.data;
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <ProCard>
        <Space wrap size={16}>
          <span>统计区间</span>
          <DatePicker.RangePicker
            value={range}
            allowClear={false}
            presets={presets}
            disabledDate={(d) => d.isAfter(dayjs(), 'day')}
            onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
          />
          <Segmented
            value={granularity}
            onChange={(v) => setGranularity(v as StatisticsGranularity)}
            options={Object.entries(STATISTICS_GRANULARITIES).map(([value, label]) => ({ value, label }))}
          />
          <Authorized action="export">
            <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportExcel()}>
              导出Excel
            </Button>
          </Authorized>
        </Space>
      </ProCard>
      {data && <SummaryCards data={data} />}
      <ProCard title="成交趋势（金额与成交量）" loading={overview.isLoading}>
        {data && <TrendChart rows={data.trend} />}
      </ProCard>
      <ProCard gutter={16} ghost wrap={false}>
        <ProCard title="按交易方式" colSpan="33%" loading={overview.isLoading}>
          {data && <BreakdownChart rows={data.byKind} testId="statistics-kind-chart" />}
        </ProCard>
        <ProCard title="按品名" colSpan="34%" loading={overview.isLoading}>
          {data && <BreakdownChart rows={data.byProduct} testId="statistics-product-chart" horizontal />}
        </ProCard>
        <ProCard title="按交收省份" colSpan="33%" loading={overview.isLoading}>
          {data && <BreakdownChart rows={data.byProvince} testId="statistics-province-chart" horizontal />}
        </ProCard>
      </ProCard>
      <ProCard title="统计明细">
        {data && (
          <Tabs
            items={[
              { key: 'trend', label: `按期间（${STATISTICS_GRANULARITIES[granularity]}）`, children: <DealTable rows={data.trend} keyTitle="期间" testId="statistics-trend-table" /> },
              { key: 'kind', label: '按交易方式', children: <DealTable rows={data.byKind} keyTitle="交易方式" testId="statistics-kind-table" /> },
              { key: 'product', label: '按品名', children: <DealTable rows={data.byProduct} keyTitle="品名" testId="statistics-product-table" /> },
              { key: 'province', label: '按交收省份', children: <DealTable rows={data.byProvince} keyTitle="交收省份" testId="statistics-province-table" /> },
              { key: 'priceType', label: '按价格类型', children: <DealTable rows={data.byPriceType} keyTitle="价格类型" testId="statistics-price-type-table" /> },
              {
                key: 'disputes',
                label: '争议',
                children: (
                  <Table
                    rowKey="key"
                    size="small"
                    tableLayout="fixed"
                    pagination={false}
                    dataSource={data.disputes}
                    columns={[
                      { title: '争议类型', dataIndex: 'label', width: 180 },
                      { title: '新增', dataIndex: 'opened', width: 120, align: 'right' },
                      { title: '裁定', dataIndex: 'ruled', width: 120, align: 'right' },
                    ]}
                  />
                ),
              },
            ]}
          />
        )}
      </ProCard>
    </Space>
  );
}
