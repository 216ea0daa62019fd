import { useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Col, DatePicker, Row, Space, Statistic, Table, Tag, Tooltip, Typography, message } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { FundsFlowDay, Reconciliation, ReconciliationDifference } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import Authorized from '@/components/Authorized';
import LazyChart from '@/components/LazyChart';
import Money, { yuan } from '@/components/Money';
import { getFundsFlows, getFundsOverview, listReconciliations, reconcileNow } from '@/services/fundsOverview';

const DAY = 'YYYY-MM-DD';

function Figure({ title, fen, hint, testId }: { title: string; fen: number; hint?: string; testId: string }) {
  return (
    <Card size="small" style={{ height: '100%' }}>
      <Statistic
        title={hint ? <Tooltip title={hint}>{title}</Tooltip> : title}
        valueRender={() => (
          <span data-testid={testId} style={{ fontSize: 22, fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
            {yuan(fen)}
          </span>
        )}
      />
    </Card>
  );
}

function FlowsChart({ days }: { days: FundsFlowDay[] }) {
  const option = useMemo(() => {
    if (days.length === 0) return null;
    const y = (fen: number) => fen / 100;
    return {
      animation: false,
      grid: { left: 96, right: 32, top: 48, bottom: 32 },
      legend: { top: 8 },
      tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => yuan(Math.round(Number(v) * 100)) },
      xAxis: { type: 'category', data: days.map((d) => d.day.slice(5)) },
      yAxis: { type: 'value', name: '金额 (元)', axisLabel: { formatter: (v: number) => v.toLocaleString('zh-CN') } },
      series: [
        { name: '入金', type: 'bar', data: days.map((d) => y(d.depositIn)), itemStyle: { color: '#16a34a' } },
        { name: '出金', type: 'bar', data: days.map((d) => y(d.withdrawal)), itemStyle: { color: '#dc2626' } },
        { name: '净流入', type: 'line', data: days.map((d) => y(d.net)), itemStyle: { color: '#1a56db' }, lineStyle: { width: 2 } },
      ],
    };
  }, [days]);
  return <LazyChart option={option} empty="所选期间没有出入金" testId="funds-flows-chart" height={300} />;
}

function DifferencesTable({ rows }: { rows: ReconciliationDifference[] }) {
  return (
    <Table
      rowKey={(r) => `${r.enterpriseId ?? 'all'}-${r.item}`}
      size="small"
      pagination={false}
      dataSource={rows}
      columns={[
        { title: '账户', dataIndex: 'enterpriseName', width: 260, ellipsis: true },
        { title: '核对项', dataIndex: 'item', width: 200 },
        { title: '应有', dataIndex: 'expected', width: 170, align: 'right', render: (v: number) => <Money fen={v} /> },
        { title: '实有', dataIndex: 'actual', width: 170, align: 'right', render: (v: number) => <Money fen={v} /> },
        { title: '差额', key: 'diff', width: 150, align: 'right', render: (_, r) => <Money fen={r.actual - r.expected} style={{ color: '#dc2626' }} /> },
      ]}
    />
  );
}

function ReconciliationResult({ result }: { result: Reconciliation }) {
  const f = result.figures;
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={12}>
      {result.balanced ? (
        <Alert type="success" showIcon message={<span data-testid="reconciliation-verdict">{result.day} 对账结果：无差异</span>} description={`对账时间 ${result.madeAt}，共 ${f.accountCount} 个资金账户；各账户流水回放与余额一致。`} />
      ) : (
        <Alert
          type="error"
          showIcon
          message={<span data-testid="reconciliation-verdict">{result.day} 对账结果：发现 {f.differences.length} 处差异，合计 {yuan(result.differenceFen)}</span>}
          description={`对账时间 ${result.madeAt}。请核查下列账户的流水与出入金记录。`}
        />
      )}
      <Row gutter={[12, 12]}>
        <Col xs={24} md={8}>
          <Card size="small">
            <Statistic title="Σ 账户资金（可用 + 冻结）" valueRender={() => <Money fen={f.accountsTotal} strong />} />
          </Card>
        </Col>
        <Col xs={24} md={8}>
          <Card size="small">
            <Statistic title="Σ 已确认入金 − Σ 已付出金" valueRender={() => <Money fen={f.expectedTotal} strong />} />
          </Card>
        </Col>
        <Col xs={24} md={8}>
          <Card size="small">
            <Statistic title="入金 / 出金合计" valueRender={() => <span style={{ whiteSpace: 'nowrap' }}>{`${yuan(f.depositInTotal)} / ${yuan(f.withdrawalTotal)}`}</span>} />
          </Card>
        </Col>
      </Row>
      {!result.balanced && <DifferencesTable rows={f.differences} />}
    </Space>
  );
}

/**
 * 资金总览 (workspace /operation/fundsOverview, operator): client funds available and frozen with the frozen parts,
 * the platform's fee account, 入金 / 出金 per day, and the daily funds reconciliation (立即对账 and its history).
 */
export default function FundsOverviewPage() {
  const queryClient = useQueryClient();
  const [range, setRange] = useState<[Dayjs, Dayjs]>([dayjs().subtract(29, 'day'), dayjs()]);
  const [historyPage, setHistoryPage] = useState(1);
  const overview = useQuery({ queryKey: ['operation', 'funds', 'overview'], queryFn: getFundsOverview });
  const dateFrom = range[0].format(DAY);
  const dateTo = range[1].format(DAY);
  const flows = useQuery({ queryKey: ['operation', 'funds', 'flows', dateFrom, dateTo], queryFn: () => getFundsFlows(dateFrom, dateTo) });
  const history = useQuery({ queryKey: ['operation', 'funds', 'reconciliations', historyPage], queryFn: () => listReconciliations(historyPage, 10) });
  const reconcile = useMutation({
    mutationFn: reconcileNow,
    onSuccess: (result) => {
      if (result.balanced) message.success('对账完成：无差异');
      else message.warning(`对账完成：发现 ${result.figures.differences.length} 处差异`);
      void queryClient.invalidateQueries({ queryKey: ['operation', 'funds'] });
    },
    onError: (error) => message.error(errorMessage(error, '对账失败，请稍后重试')),
  });
  const o = overview.data;
  const latest = reconcile.data ?? history.data?.records[0];
  const totals = (flows.data ?? []).reduce((s, d) => ({ depositIn: s.depositIn + d.depositIn, withdrawal: s.withdrawal + d.withdrawal }), { depositIn: 0, withdrawal: 0 });

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card title="客户资金" extra={o ? <Typography.Text type="secondary">截至 {o.at}，{o.accountCount} 个客户账户</Typography.Text> : null} loading={overview.isLoading}>
        {overview.isError && <Alert type="error" showIcon message={errorMessage(overview.error, '资金总览加载失败')} />}
        {o && (
          <Row gutter={[12, 12]}>
            <Col xs={24} sm={12} lg={6}>
              <Figure title="客户资金合计" fen={o.clientAvailable + o.clientFrozen} testId="funds-total" />
            </Col>
            <Col xs={24} sm={12} lg={6}>
              <Figure title="可用资金" fen={o.clientAvailable} testId="funds-available" />
            </Col>
            <Col xs={24} sm={12} lg={6}>
              <Figure title="冻结资金" fen={o.clientFrozen} testId="funds-frozen" />
            </Col>
            <Col xs={24} sm={12} lg={6}>
              <Card size="small" style={{ height: '100%' }}>
                <Statistic
                  title={<Tooltip title="结算时从卖方货款中扣收的平台服务费记入平台服务费账户">平台服务费账户</Tooltip>}
                  valueRender={() => (
                    <span data-testid="funds-platform" style={{ fontSize: 22, whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
                      {yuan(o.platform ? o.platform.available + o.platform.frozen : 0)}
                    </span>
                  )}
                />
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {o.platform ? `累计服务费 ${yuan(o.platform.feesTotal)}` : '尚未收取服务费，平台账户未开立'}
                </Typography.Text>
              </Card>
            </Col>
            <Col xs={24} sm={12} lg={6}>
              <Figure title="其中：交易保证金" fen={o.tradeDeposits} hint="摘牌、竞价报名时冻结的保证金" testId="funds-trade-deposits" />
            </Col>
            <Col xs={24} sm={12} lg={6}>
              <Figure title="其中：履约保证金" fen={o.performanceDeposits} hint="成交后转为履约保证金，结算后释放" testId="funds-performance" />
            </Col>
            <Col xs={24} sm={12} lg={6}>
              <Figure title="其中：货款托管" fen={o.escrow} hint="买方预付、冻结在自身账户的订单货款" testId="funds-escrow" />
            </Col>
            <Col xs={24} sm={12} lg={6}>
              <Figure title="其中：其他冻结" fen={o.otherFrozen} hint="待付款的出金申请、结算补付等" testId="funds-other-frozen" />
            </Col>
          </Row>
        )}
      </Card>

      <Card
        title="每日出入金"
        extra={
          <DatePicker.RangePicker
            value={range}
            allowClear={false}
            format={DAY}
            disabledDate={(d) => d.isAfter(dayjs(), 'day')}
            onChange={(values) => {
              if (values?.[0] && values[1]) setRange([values[0], values[1]]);
            }}
          />
        }
      >
        {flows.isError && <Alert type="error" showIcon message={errorMessage(flows.error, '出入金加载失败')} style={{ marginBottom: 12 }} />}
        <FlowsChart days={flows.data ?? []} />
        <Table
          rowKey="day"
          size="small"
          style={{ marginTop: 12 }}
          loading={flows.isLoading}
          dataSource={[...(flows.data ?? [])].reverse()}
          pagination={{ pageSize: 10, showSizeChanger: false, showTotal: (n) => `共 ${n} 天` }}
          columns={[
            { title: '日期', dataIndex: 'day', width: 120 },
            { title: '入金笔数', dataIndex: 'depositInCount', width: 100, align: 'right' },
            { title: '入金金额', dataIndex: 'depositIn', width: 180, align: 'right', render: (v: number) => <Money fen={v} /> },
            { title: '出金笔数', dataIndex: 'withdrawalCount', width: 100, align: 'right' },
            { title: '出金金额', dataIndex: 'withdrawal', width: 180, align: 'right', render: (v: number) => <Money fen={v} /> },
            { title: '净流入', dataIndex: 'net', width: 180, align: 'right', render: (v: number) => <Money fen={v} style={{ color: v < 0 ? '#dc2626' : undefined }} /> },
          ]}
          summary={() => (
            <Table.Summary.Row>
              <Table.Summary.Cell index={0}>合计</Table.Summary.Cell>
              <Table.Summary.Cell index={1} />
              <Table.Summary.Cell index={2} align="right">
                <Money fen={totals.depositIn} strong />
              </Table.Summary.Cell>
              <Table.Summary.Cell index={3} />
              <Table.Summary.Cell index={4} align="right">
                <Money fen={totals.withdrawal} strong />
              </Table.Summary.Cell>
              <Table.Summary.Cell index={5} align="right">
                <Money fen={totals.depositIn - totals.withdrawal} strong />
              </Table.Summary.Cell>
            </Table.Summary.Row>
          )}
        />
      </Card>

      <Card
        title="资金对账"
        extra={
          <Authorized action="edit">
            <Button type="primary" loading={reconcile.isPending} onClick={() => reconcile.mutate()}>
              立即对账
            </Button>
          </Authorized>
        }
      >
        <Typography.Paragraph type="secondary">
          每日自动对账一次：Σ 客户与平台账户资金（可用 + 冻结）应等于 Σ 已确认入金 − Σ 已付出金，且每个账户的流水回放应等于其余额；发现差异时向运营人员发送紧急待办。
        </Typography.Paragraph>
        {latest ? <ReconciliationResult result={latest} /> : <Alert type="info" showIcon message="尚无对账记录，点击「立即对账」开始" />}
        <Typography.Title level={5} style={{ marginTop: 20 }}>
          对账记录
        </Typography.Title>
        <Table
          rowKey="id"
          size="small"
          loading={history.isLoading}
          dataSource={history.data?.records ?? []}
          pagination={{ current: historyPage, pageSize: 10, total: history.data?.total ?? 0, onChange: setHistoryPage, showSizeChanger: false, showTotal: (n) => `共 ${n} 天` }}
          expandable={{ rowExpandable: (r) => !r.balanced, expandedRowRender: (r) => <DifferencesTable rows={r.figures.differences} /> }}
          columns={[
            { title: '对账日期', dataIndex: 'day', width: 120 },
            { title: '结果', dataIndex: 'balanced', width: 110, render: (v: boolean) => (v ? <Tag color="green">无差异</Tag> : <Tag color="red">有差异</Tag>) },
            { title: '差异金额', dataIndex: 'differenceFen', width: 150, align: 'right', render: (v: number) => <Money fen={v} /> },
            { title: 'Σ 账户资金', key: 'accounts', width: 180, align: 'right', render: (_, r) => <Money fen={r.figures.accountsTotal} /> },
            { title: '入金 − 出金', key: 'expected', width: 180, align: 'right', render: (_, r) => <Money fen={r.figures.expectedTotal} /> },
            { title: '账户数', key: 'count', width: 80, align: 'right', render: (_, r) => r.figures.accountCount },
            { title: '对账时间', dataIndex: 'madeAt', width: 170 },
          ]}
        />
      </Card>
    </Space>
  );
}
