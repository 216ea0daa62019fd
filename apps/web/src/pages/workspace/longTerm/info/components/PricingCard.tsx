import { ProDescriptions } from '@ant-design/pro-components';
import { Alert, Card, Table } from 'antd';
import { PRICING_MODES, formatPrice } from '@coalx/shared';
import { MonthPriceBasis } from '@/components/longTerm/PricePreview';
import { e4Text } from '@/lib/long-term';
import type { LongTermDetail, LongTermMonth } from '@/services/longTerm';

/**
 * 定价: the contract's pricing terms, and for every month priced so far its price with the basis it was fixed on
 * (the index terms used with their quote dates and prices, their average, the float) and the range warning.
 */
export default function PricingCard({ detail }: { detail: LongTermDetail }) {
  const p = detail.pricing;
  const priced = detail.months.filter((m) => m.price !== null);
  return (
    <Card title="定价" size="small" className="coalx-lt-row">
      <ProDescriptions column={3} size="small" data-testid="lt-pricing">
        <ProDescriptions.Item label="定价方式">{PRICING_MODES[p.mode]}</ProDescriptions.Item>
        <ProDescriptions.Item label={p.mode === 'fixed' ? '固定价格' : '基准价'}>{formatPrice(p.basePriceFen)}</ProDescriptions.Item>
        {p.mode === 'index' ? (
          <>
            <ProDescriptions.Item label="浮动系数">{e4Text(p.coefficientE4)}</ProDescriptions.Item>
            <ProDescriptions.Item label="基准参考值">{formatPrice(p.referenceFen)}</ProDescriptions.Item>
          </>
        ) : null}
        <ProDescriptions.Item label="热值折算系数">{p.heatFactorE4 !== null ? e4Text(p.heatFactorE4) : '按 Qnet,ar ÷ 5500'}</ProDescriptions.Item>
        {p.mode === 'index' ? (
          <ProDescriptions.Item label="计价公式" span={3}>
            月度价格 = 基准价 + 浮动系数 ×（取价月价格指数各期均值 − 基准参考值），四舍五入到分；取价月为执行月份的上一个月，取价月无指数的取执行月份前最近一期
          </ProDescriptions.Item>
        ) : null}
      </ProDescriptions>
      <Table<LongTermMonth>
        data-testid="lt-month-prices"
        rowKey="month"
        size="small"
        pagination={false}
        tableLayout="fixed"
        dataSource={priced}
        locale={{ emptyText: '各月价格在当月第一日按届时已发布的指数确定，长协执行后显示' }}
        columns={[
          { title: '月份', dataIndex: 'month', width: 100, render: (v: string) => <span className="coalx-num">{v}</span> },
          {
            title: '月度价格',
            key: 'price',
            width: 140,
            align: 'right',
            render: (_, m) => <b className="coalx-num">{formatPrice(m.price!.priceFen)}</b>,
          },
          { title: '价格依据', key: 'basis', render: (_, m) => <MonthPriceBasis price={m.price!} /> },
          {
            title: '区间预警',
            key: 'warning',
            width: 300,
            render: (_, m) => (m.price!.warning ? <Alert type="warning" showIcon message={m.price!.warning} style={{ padding: '2px 8px' }} /> : <span className="coalx-lt-sub">在合理区间内</span>),
          },
        ]}
      />
    </Card>
  );
}
