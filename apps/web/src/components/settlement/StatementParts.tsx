import type { ReactNode } from 'react';
import { Card, Descriptions, Table, Tag } from 'antd';
import { formatFen, formatTons, type StatementFigures, type StatementStatus } from '@coalx/shared';
import Money, { yuan } from '@/components/Money';
import './settlement.css';

const STATUS_COLOR: Record<StatementStatus, string> = { pending: 'processing', confirmed: 'success', disputed: 'error', returned: 'default' };

export function StatementStatusTag({ status, text }: { status: string; text: string }) {
  return (
    <Tag color={STATUS_COLOR[status as StatementStatus] ?? 'default'} data-testid="statement-status">
      {text}
    </Tag>
  );
}

type Truck = StatementFigures['trucks'][number];
type QualityLine = StatementFigures['qualityLines'][number];
const perTon = (fen: number) => `${formatFen(fen)} 元/吨`;
const signed = (fen: number) => (fen < 0 ? `减 ${perTon(-fen)}` : fen > 0 ? `加 ${perTon(fen)}` : '不调整');

/** 结算数量: every truck that counts, with its dispatch and both tickets (the source of the weight). */
export function StatementTrucks({ f }: { f: StatementFigures }) {
  return (
    <Card size="small" title={`一、结算数量（${f.weighingBasis}，${f.trucks.length} 车）`} className="coalx-statement-card">
      <Table<Truck>
        rowKey="dispatchNo"
        size="small"
        pagination={false}
        tableLayout="fixed"
        scroll={f.trucks.length > 8 ? { y: 320 } : undefined}
        dataSource={f.trucks}
        data-testid="statement-trucks"
        columns={[
          { title: '序号', width: 56, render: (_, __, i) => i + 1 },
          { title: '派车单号', dataIndex: 'dispatchNo', width: 170, className: 'coalx-num' },
          { title: '车牌号', dataIndex: 'plateNo', width: 100 },
          { title: '装车磅单', dataIndex: 'loadingTicketNo', width: 150, render: (v: string) => v || '—' },
          { title: '装车净重', dataIndex: 'loadedNetKg', width: 110, align: 'right', render: (v: number | null) => formatTons(v) },
          { title: '到货磅单', dataIndex: 'arrivalTicketNo', width: 150, render: (v: string) => v || '—' },
          { title: '到货净重', dataIndex: 'arrivedNetKg', width: 110, align: 'right', render: (v: number | null) => formatTons(v) },
          { title: '签收重量', dataIndex: 'signedKg', width: 110, align: 'right', render: (v: number) => <b>{formatTons(v)}</b> },
        ]}
        summary={() => (
          <Table.Summary.Row>
            <Table.Summary.Cell index={0} colSpan={7}>
              签收合计{f.moistureNote ? `；${f.moistureNote}` : ''}；结算数量 <b data-testid="statement-settled-kg">{formatTons(f.settledKg)}</b>
            </Table.Summary.Cell>
            <Table.Summary.Cell index={1} align="right">
              <b>{formatTons(f.signedKg)}</b>
            </Table.Summary.Cell>
          </Table.Summary.Row>
        )}
      />
    </Card>
  );
}

/** 质量与单价: the accepted lab report (the source of every quality line) and each adjustment. */
export function StatementQuality({ f }: { f: StatementFigures }) {
  const l = f.lab;
  return (
    <Card size="small" title={`二、质量与单价（化验单 ${l.reportNo}）`} className="coalx-statement-card">
      <Descriptions size="small" column={4} data-testid="statement-lab">
        <Descriptions.Item label="化验单号">{l.reportNo}</Descriptions.Item>
        <Descriptions.Item label="化验机构">{l.labName}</Descriptions.Item>
        <Descriptions.Item label="化验日期">{l.testedAt}</Descriptions.Item>
        <Descriptions.Item label="发热量 Qnet,ar">{l.qnet} kcal/kg</Descriptions.Item>
        <Descriptions.Item label="全水 Mt">{l.mt}%</Descriptions.Item>
        <Descriptions.Item label="全硫 St,d">{l.st}%</Descriptions.Item>
        <Descriptions.Item label="灰分 Ad">{l.ad}%</Descriptions.Item>
        <Descriptions.Item label="挥发分 Vdaf">{l.vdaf}%</Descriptions.Item>
      </Descriptions>
      <Table<QualityLine>
        rowKey={(r, i) => `${r.indicator}-${i}`}
        size="small"
        pagination={false}
        tableLayout="fixed"
        dataSource={f.qualityLines}
        data-testid="statement-quality"
        locale={{ emptyText: '各项指标均在合同基准内，单价不调整' }}
        columns={[
          { title: '指标', dataIndex: 'label', width: 130 },
          { title: '化验值', dataIndex: 'value', width: 110 },
          { title: '基准', dataIndex: 'basis', width: 110 },
          { title: '适用条款', dataIndex: 'tier' },
          { title: '档数', dataIndex: 'steps', width: 70, align: 'right' },
          { title: '单价调整', dataIndex: 'fenPerTon', width: 140, align: 'right', render: (v: number) => <span className={v < 0 ? 'coalx-statement-minus' : undefined}>{signed(v)}</span> },
        ]}
        summary={() => (
          <>
            <Table.Summary.Row>
              <Table.Summary.Cell index={0} colSpan={5}>
                合同单价
              </Table.Summary.Cell>
              <Table.Summary.Cell index={1} align="right">
                {perTon(f.contractPriceFen)}
              </Table.Summary.Cell>
            </Table.Summary.Row>
            <Table.Summary.Row>
              <Table.Summary.Cell index={0} colSpan={5}>
                <b>结算单价</b>（合同单价 + 各项调整）
              </Table.Summary.Cell>
              <Table.Summary.Cell index={1} align="right">
                <b data-testid="statement-unit-price">{perTon(f.unitPriceFen)}</b>
              </Table.Summary.Cell>
            </Table.Summary.Row>
          </>
        )}
      />
    </Card>
  );
}

function Figure({ label, value, strong, testId, note }: { label: string; value: ReactNode; strong?: boolean; testId?: string; note?: string }) {
  return (
    <div className={`coalx-statement-figure${strong ? ' strong' : ''}`}>
      <div className="coalx-statement-figure-label">{label}</div>
      <div className="coalx-statement-figure-value" data-testid={testId}>
        {value}
      </div>
      {note ? <div className="coalx-statement-figure-note">{note}</div> : null}
    </div>
  );
}

/** 三、金额: settled amount, escrow, refund or still to pay, the platform fee and what the seller receives. */
export function StatementMoney({ f, settled = false }: { f: StatementFigures; settled?: boolean }) {
  const pays = f.balanceFen > 0;
  return (
    <Card size="small" title="三、结算金额" className="coalx-statement-card" data-testid="statement-money">
      <div className="coalx-statement-figures">
        <Figure label="结算金额" value={<Money fen={f.amountFen} />} strong testId="statement-amount" note={`${formatTons(f.settledKg)} × ${perTon(f.unitPriceFen)}，四舍五入到分`} />
        <Figure label="已托管预付款" value={<Money fen={f.escrowFen} />} testId="statement-escrow" note="买方付款时冻结，结算时支付卖方" />
        <Figure
          label={pays ? (settled ? '买方已补付' : '买方应补付') : settled ? '已退还买方' : '退还买方'}
          value={<Money fen={Math.abs(f.balanceFen)} />}
          strong
          testId="statement-balance"
          note={settled ? '结算时已划转' : pays ? '确认时从买方可用资金支付' : '确认时解冻退回买方可用资金'}
        />
        <Figure label="平台服务费" value={<Money fen={f.feeFen} />} testId="statement-fee" note={`${perTon(f.feePerTonFen)}，由卖方承担`} />
        <Figure label="卖方实收" value={<Money fen={f.sellerReceivesFen} />} testId="statement-seller-receives" note="结算金额 − 平台服务费" />
      </div>
    </Card>
  );
}

/** The rows of the money confirmation before the buyer's 确认结算 (and the operator's 维持). */
export function statementMoneyRows(f: StatementFigures & { statementNo?: string }) {
  return [
    ...(f.statementNo ? [{ label: '结算单号', value: f.statementNo }] : []),
    { label: '订单编号', value: f.orderNo },
    { label: '结算数量', value: formatTons(f.settledKg) },
    { label: '结算单价', value: perTon(f.unitPriceFen) },
    { label: '结算金额', value: yuan(f.amountFen), strong: true },
    { label: '已托管预付款', value: yuan(f.escrowFen) },
    f.balanceFen > 0 ? { label: '需补付', value: yuan(f.balanceFen), strong: true } : { label: '退还买方', value: yuan(-f.balanceFen), strong: true },
  ];
}
