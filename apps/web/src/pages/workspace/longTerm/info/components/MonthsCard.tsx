import { Card, Space, Table, Tag } from 'antd';
import { formatPrice, formatTons } from '@coalx/shared';
import { FlagTag } from '@/components/longTerm/LongTermParts';
import { rateText } from '@/lib/long-term';
import type { LongTermDetail, LongTermMonth, LongTermYear } from '@/services/longTerm';
import FulfilmentChart from './FulfilmentChart';

const tons = (kg: number) => <span className="coalx-num">{formatTons(kg, false)}</span>;

function Rate({ rate, flagged }: { rate: number | null; flagged: boolean }) {
  return (
    <Space size={4} wrap={false}>
      <span className={`coalx-num${flagged ? ' coalx-lt-flag-text' : ''}`}>{rateText(rate)}</span>
      {flagged ? <FlagTag /> : null}
    </Space>
  );
}

/**
 * 逐月计划与履约: each month's plan against what was called off, signed for and settled, its rate and price (本月
 * marked, a finished month below the warning line in red), the chart of plan vs delivery, and the years.
 */
export default function MonthsCard({ detail }: { detail: LongTermDetail }) {
  const running = ['executing', 'expired', 'terminated'].includes(detail.status);
  return (
    <>
      <Card title="逐月计划与履约" size="small" className="coalx-lt-row" extra={<span className="coalx-lt-sub">履约率 = 已签收 ÷ 计划量；已结束月份低于 {detail.warnPct}% 为履约预警</span>}>
            <Table<LongTermMonth>
              data-testid="lt-months"
              rowKey="month"
              size="small"
              pagination={false}
              tableLayout="fixed"
              scroll={detail.months.length > 12 ? { y: 420 } : undefined}
              dataSource={detail.months}
              rowClassName={(m) => (m.flagged ? 'coalx-lt-row-flagged' : '')}
              columns={[
                {
                  title: '月份',
                  key: 'month',
                  width: 118,
                  render: (_, m) => (
                    <Space size={4} wrap={false}>
                      <span className="coalx-num">{m.month}</span>
                      {m.phase === 'current' ? <Tag color="blue" className="coalx-lt-tag">本月</Tag> : null}
                    </Space>
                  ),
                },
                { title: '计划量', dataIndex: 'plannedKg', width: 92, align: 'right', render: (v: number) => tons(v) },
                { title: '已调运', dataIndex: 'calledKg', width: 92, align: 'right', render: (v: number) => tons(v) },
                { title: '已签收', dataIndex: 'deliveredKg', width: 92, align: 'right', render: (v: number) => tons(v) },
                { title: '已结算', dataIndex: 'settledKg', width: 92, align: 'right', render: (v: number) => tons(v) },
                { title: '履约率', key: 'rate', width: 128, render: (_, m) => (running && m.phase !== 'future' ? <Rate rate={m.rate} flagged={m.flagged} /> : '-') },
                {
                  title: '价格 (元/吨)',
                  key: 'price',
                  width: 96,
                  align: 'right',
                  render: (_, m) => (m.price ? <span className="coalx-num">{formatPrice(m.price.priceFen).replace(' 元/吨', '')}</span> : <span className="coalx-lt-sub">{m.phase === 'future' ? '当月确定' : '-'}</span>),
                },
              ]}
              summary={() => (
                <Table.Summary.Row>
                  <Table.Summary.Cell index={0}>合计</Table.Summary.Cell>
                  <Table.Summary.Cell index={1} align="right">
                    {tons(detail.plannedKg)}
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={2} align="right">
                    {tons(detail.months.reduce((s, m) => s + m.calledKg, 0))}
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={3} align="right">
                    {tons(detail.months.reduce((s, m) => s + m.deliveredKg, 0))}
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={4} align="right">
                    {tons(detail.months.reduce((s, m) => s + m.settledKg, 0))}
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={5} colSpan={2} />
                </Table.Summary.Row>
              )}
            />
            <div style={{ marginTop: 16 }}>
              <FulfilmentChart months={detail.months} />
            </div>
      </Card>
      <Card title="年度履约" size="small" className="coalx-lt-row" extra={<span className="coalx-lt-sub">按已结束月份统计</span>}>
        <Table<LongTermYear>
          data-testid="lt-years"
          rowKey="year"
          size="small"
          pagination={false}
          tableLayout="fixed"
          dataSource={detail.years}
          locale={{ emptyText: running ? '暂无已结束的月份' : '长协执行后统计' }}
          rowClassName={(y) => (y.flagged ? 'coalx-lt-row-flagged' : '')}
          columns={[
            { title: '年度', dataIndex: 'year', width: 100, render: (v: string) => `${v} 年` },
            { title: '计划量 (吨)', dataIndex: 'plannedKg', align: 'right', render: (v: number) => tons(v) },
            { title: '已调运 (吨)', dataIndex: 'calledKg', align: 'right', render: (v: number) => tons(v) },
            { title: '已签收 (吨)', dataIndex: 'deliveredKg', align: 'right', render: (v: number) => tons(v) },
            { title: '已结算 (吨)', dataIndex: 'settledKg', align: 'right', render: (v: number) => tons(v) },
            { title: '履约率', key: 'rate', width: 160, render: (_, y) => <Rate rate={y.rate} flagged={y.flagged} /> },
          ]}
        />
      </Card>
    </>
  );
}
