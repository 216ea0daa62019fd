import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Col, Empty, Row, Segmented, Select, Skeleton, Space, Statistic, Table, Typography } from 'antd';
import { Link } from 'react-router';
import { formatFen, formatTons } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import LazyChart, { type EchartsModule } from '@/components/LazyChart';
import { marketDaily, type MarketDay } from '@/services/market';
import '@/components/MarketChart/market.css';

const loadCandles = () => import('@/components/MarketChart/echarts') as unknown as EchartsModule;

const RANGES = [
  { label: '30 天', value: 30 },
  { label: '90 天', value: 90 },
  { label: '180 天', value: 180 },
  { label: '一年', value: 365 },
];

const yuanPerTon = (fen: number) => `${formatFen(fen)}`;

/** The candlestick (open, close, low, high in 元/吨) over the day's tonnage bars. */
function chartOption(days: MarketDay[]) {
  const dates = days.map((d) => d.date);
  return {
    animation: false,
    legend: { data: ['日K', '成交均价', '成交量'], top: 0, right: 8 },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'cross' },
      formatter: (items: { dataIndex: number }[]) => {
        const d = days[items[0]?.dataIndex ?? 0];
        if (!d) return '';
        return [
          `<b>${d.date}</b>`,
          `开盘 ${yuanPerTon(d.open)}　收盘 ${yuanPerTon(d.close)}`,
          `最高 ${yuanPerTon(d.high)}　最低 ${yuanPerTon(d.low)}`,
          `成交均价 ${yuanPerTon(d.average)} 元/吨`,
          `成交量 ${formatTons(d.tonnage)}（${d.dealCount} 笔）`,
        ].join('<br/>');
      },
    },
    axisPointer: { link: [{ xAxisIndex: 'all' }] },
    grid: [
      { left: 72, right: 24, top: 56, height: '52%' },
      { left: 72, right: 24, top: '72%', height: '16%' },
    ],
    xAxis: [
      { type: 'category', data: dates, boundaryGap: true, axisLabel: { show: false } },
      { type: 'category', gridIndex: 1, data: dates, boundaryGap: true },
    ],
    yAxis: [
      {
        scale: true,
        name: '元/吨',
        // 2 % of room above and below, so a day of one deal (a flat candle) does not sit on the frame
        min: (v: { min: number }) => Math.floor(v.min * 0.98),
        max: (v: { max: number }) => Math.ceil(v.max * 1.02),
        axisLabel: { formatter: (v: number) => v.toLocaleString('zh-CN') },
      },
      { min: 0, gridIndex: 1, name: '吨', splitNumber: 2, axisLabel: { formatter: (v: number) => v.toLocaleString('zh-CN') } },
    ],
    dataZoom: [{ type: 'inside', xAxisIndex: [0, 1] }],
    series: [
      {
        name: '日K',
        type: 'candlestick',
        // ECharts order: open, close, lowest, highest; red rising and green falling as the Chinese market reads them
        data: days.map((d) => [d.open / 100, d.close / 100, d.low / 100, d.high / 100]),
        itemStyle: { color: '#cf1322', color0: '#389e0d', borderColor: '#cf1322', borderColor0: '#389e0d' },
      },
      { name: '成交均价', type: 'line', data: days.map((d) => d.average / 100), showSymbol: false, lineStyle: { width: 1.5, color: '#1a56db' } },
      {
        name: '成交量',
        type: 'bar',
        xAxisIndex: 1,
        yAxisIndex: 1,
        data: days.map((d) => ({ value: d.tonnage / 1000, itemStyle: { color: d.close >= d.open ? 'rgba(207,19,34,0.55)' : 'rgba(56,158,13,0.55)' } })),
      },
    ],
  };
}

/**
 * 行情 (public, no sign-in): each day's deals of one product, optionally in one delivery province, as a candlestick
 * (open the first deal, close the last) with the day's volume-weighted average price and tonnage, and the same
 * figures in a table. From the platform's recorded listing and auction deals only; no enterprise appears.
 */
export default function MarketPage() {
  const [stockCode, setStockCode] = useState<string | undefined>();
  const [province, setProvince] = useState<string | undefined>();
  const [days, setDays] = useState(90);
  const market = useQuery({ queryKey: ['market', 'daily', stockCode, province, days], queryFn: () => marketDaily({ stockCode, province, days }), staleTime: 30_000 });
  const data = market.data;
  const option = useMemo(() => (data && data.days.length > 0 ? chartOption(data.days) : null), [data]);
  const totals = useMemo(() => {
    if (!data || data.days.length === 0) return null;
    const tonnage = data.days.reduce((s, d) => s + d.tonnage, 0);
    const amount = data.days.reduce((s, d) => s + d.amount, 0);
    return {
      last: data.days[data.days.length - 1]!,
      high: Math.max(...data.days.map((d) => d.high)),
      low: Math.min(...data.days.map((d) => d.low)),
      tonnage,
      // the period's volume-weighted average, as each day's: Σ amount / Σ tonnage
      average: tonnage > 0 ? Math.round((amount * 1000) / tonnage) : 0,
    };
  }, [data]);

  return (
    <div className="coalx-container coalx-market">
      <div className="coalx-market-head">
        <div>
          <Typography.Title level={3} style={{ margin: 0 }}>
            行情
          </Typography.Title>
          <Typography.Text type="secondary">本平台挂牌、竞价成交的每日价格与成交量（不含长协月度调运），不显示成交企业。</Typography.Text>
        </div>
        <Link to="/marketIndex/method" data-testid="market-index-method-link">
          动力煤价格指数编制方法 &gt;
        </Link>
      </div>

      <Card className="coalx-market-filters">
        <Space wrap size={[16, 12]}>
          <span>
            产品：
            <Select
              data-testid="market-product"
              style={{ width: 200 }}
              placeholder="选择产品"
              value={data?.stockCode || undefined}
              options={(data?.products ?? []).map((p) => ({ value: p.stockCode, label: p.productName }))}
              onChange={(value: string) => {
                setStockCode(value);
                setProvince(undefined);
              }}
            />
          </span>
          <span>
            交收省份：
            <Select
              data-testid="market-province"
              style={{ width: 180 }}
              value={province ?? ''}
              options={[{ value: '', label: '全部省份' }, ...(data?.provinces ?? []).map((p) => ({ value: p, label: p }))]}
              onChange={(value: string) => setProvince(value || undefined)}
            />
          </span>
          <Segmented options={RANGES} value={days} onChange={(value) => setDays(Number(value))} />
        </Space>
      </Card>

      {market.isError ? <Alert type="error" showIcon message={errorMessage(market.error, '行情加载失败，请稍后重试')} /> : null}
      {market.isLoading ? <Skeleton active paragraph={{ rows: 8 }} /> : null}
      {data ? (
        <>
          {totals ? (
            <Row gutter={[16, 16]} className="coalx-market-stats">
              <Col xs={12} md={6}>
                <Card>
                  <Statistic title={`最新成交均价（${totals.last.date}）`} value={formatFen(totals.last.average)} suffix="元/吨" />
                </Card>
              </Col>
              <Col xs={12} md={6}>
                <Card>
                  <Statistic title="区间成交均价" value={formatFen(totals.average)} suffix="元/吨" />
                </Card>
              </Col>
              <Col xs={24} md={6}>
                <Card>
                  <Statistic title="区间最高 / 最低" value={`${formatFen(totals.high)} / ${formatFen(totals.low)}`} suffix="元/吨" valueStyle={{ fontSize: 20 }} />
                </Card>
              </Col>
              <Col xs={12} md={6}>
                <Card>
                  <Statistic title="区间成交量" value={formatTons(totals.tonnage)} />
                </Card>
              </Col>
            </Row>
          ) : null}
          <Card
            title={`${data.productName || '暂无成交'}${province ? ` · ${province}` : ''} 日K线`}
            extra={<Typography.Text type="secondary" className="coalx-market-range">{`${data.from} 至 ${data.to}`}</Typography.Text>}
            className="coalx-market-chart"
          >
            {option ? <LazyChart option={option} empty="所选范围内没有成交" testId="market-candles" height={420} load={loadCandles} /> : <Empty description="所选范围内没有成交" />}
          </Card>
          <Card title="每日成交" className="coalx-market-table">
            <Table<MarketDay>
              data-testid="market-table"
              rowKey="date"
              size="middle"
              scroll={{ x: 860 }}
              pagination={{ pageSize: 15, showSizeChanger: false, showTotal: (total) => `共 ${total} 个交易日` }}
              dataSource={[...data.days].reverse()}
              locale={{ emptyText: '所选范围内没有成交' }}
              columns={[
                { title: '日期', dataIndex: 'date', width: 110, fixed: 'left' },
                { title: '成交均价 (元/吨)', dataIndex: 'average', align: 'right', render: (v: number) => <b className="coalx-num">{formatFen(v)}</b> },
                { title: '开盘 (元/吨)', dataIndex: 'open', align: 'right', render: (v: number) => <span className="coalx-num">{formatFen(v)}</span> },
                { title: '收盘 (元/吨)', dataIndex: 'close', align: 'right', render: (v: number) => <span className="coalx-num">{formatFen(v)}</span> },
                { title: '最高 (元/吨)', dataIndex: 'high', align: 'right', render: (v: number) => <span className="coalx-num">{formatFen(v)}</span> },
                { title: '最低 (元/吨)', dataIndex: 'low', align: 'right', render: (v: number) => <span className="coalx-num">{formatFen(v)}</span> },
                { title: '成交量', dataIndex: 'tonnage', align: 'right', render: (v: number) => <span className="coalx-num">{formatTons(v)}</span> },
                { title: '成交额', dataIndex: 'amount', align: 'right', render: (v: number) => <span className="coalx-num">¥{formatFen(v)}</span> },
                { title: '笔数', dataIndex: 'dealCount', align: 'right', width: 70 },
              ]}
            />
          </Card>
          <Typography.Paragraph type="secondary" className="coalx-market-note">
            说明：成交均价 = 当日成交金额合计 ÷ 当日成交吨数合计；开盘、收盘为当日第一笔、最后一笔成交的价格；日期按北京时间。交收省份取成交所属挂牌或竞价的交收地。
          </Typography.Paragraph>
        </>
      ) : null}
    </div>
  );
}
