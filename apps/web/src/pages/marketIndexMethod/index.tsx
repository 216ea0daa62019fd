import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Descriptions, Empty, Select, Skeleton, Space, Table, Tag, Typography } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { formatFen, formatTons, type IndexSample } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import { marketIndexHistory } from '@/services/content';
import { indexTermSamples } from '@/services/market';
import '@/components/MarketChart/market.css';

const termKey = (year: number, term: number) => `${year}-${term}`;

/** The method, as the trading centre applies it (modules/market-index/index-samples.ts on the server). */
function Method() {
  return (
    <Card title="编制方法" className="coalx-market-chart" data-testid="index-method">
      <Typography.Paragraph>
        <b>一、样本范围。</b>
        指数跟踪 5500 大卡动力煤（产品编码 DLM5500）的现货成交价格。每期对应一个 ISO 自然周（北京时间周一 00:00 至周日 24:00），样本为该周在本平台达成的挂牌成交与竞价成交。长协月度调运不计入：其价格依指数本身确定，计入会使指数自我循环。
      </Typography.Paragraph>
      <Typography.Paragraph>
        <b>二、剔除规则</b>（依次适用，每笔被剔除的成交均列明原因）：
      </Typography.Paragraph>
      <ol className="coalx-method-rules">
        <li>已取消的成交：成交后合同被作废的，不反映真实成交，剔除。</li>
        <li>关联交易：买卖双方为同一企业，或为同一法定代表人的企业（视为同一企业集团），价格不反映市场供求，剔除。</li>
        <li>异常价格：在剔除前两类后，计算本周成交价格的中位数；成交价偏离中位数超过 20% 的，视为异常价格，剔除。</li>
      </ol>
      <Typography.Paragraph>
        <b>三、计算方法。</b>
        指数 = Σ（样本成交价 × 成交吨数）÷ Σ 样本成交吨数，即按成交吨数加权的平均价格，单位元/吨，四舍五入到分。本期有样本成交的，发布价格必须等于样本加权均价，任何人可用下表的样本复算。
      </Typography.Paragraph>
      <Typography.Paragraph style={{ marginBottom: 0 }}>
        <b>四、发布与更正。</b>
        每周发布一期，由交易中心运营人员核对后发布；更正某一期时，按更正时的成交重新取样。本周没有样本成交的，指数由交易中心依据市场报价人工发布，页面如实注明“本期无成交样本”。成交编号部分隐藏，不公布成交企业名称。
      </Typography.Paragraph>
    </Card>
  );
}

/**
 * 指数编制方法 (public): how the weekly thermal-coal index is made, and for each published term the deals it rests
 * on and those left out with the reason, masked (no enterprise names, deal numbers partly hidden).
 */
export default function MarketIndexMethodPage() {
  const [search, setSearch] = useSearchParams();
  const history = useQuery({ queryKey: ['marketIndex', 'history', 260], queryFn: () => marketIndexHistory(260), staleTime: 60_000 });
  const terms = [...(history.data ?? [])].reverse();
  const chosenYear = Number(search.get('year')) || terms[0]?.currentYear;
  const chosenTerm = Number(search.get('term')) || terms[0]?.currentTerm;
  const samples = useQuery({
    queryKey: ['marketIndex', 'samples', chosenYear, chosenTerm],
    queryFn: () => indexTermSamples(chosenYear!, chosenTerm!),
    enabled: !!chosenYear && !!chosenTerm,
    staleTime: 60_000,
  });
  const data = samples.data;
  const included = data?.samples.filter((s) => s.included) ?? [];
  const excluded = data?.samples.filter((s) => !s.included) ?? [];

  return (
    <div className="coalx-container coalx-market">
      <div className="coalx-market-head">
        <div>
          <Typography.Title level={3} style={{ margin: 0 }}>
            动力煤价格指数编制方法
          </Typography.Title>
          <Typography.Text type="secondary">CCI 5500 · 每周一期 · 样本与剔除原因逐笔公开</Typography.Text>
        </div>
        <Link to="/market">查看每日行情 &gt;</Link>
      </div>
      <Method />

      <Card
        title="各期样本"
        className="coalx-market-table"
      >
        <div style={{ marginBottom: 16 }}>
          期数：
          <Select
            data-testid="index-term-select"
            style={{ width: 'min(270px, 60vw)' }}
            placeholder="选择期数"
            value={chosenYear && chosenTerm ? termKey(chosenYear, chosenTerm) : undefined}
            options={terms.map((t) => ({ value: termKey(t.currentYear, t.currentTerm), label: `${t.currentYear}年第${t.currentTerm}期（总第${t.totalTerm}期）` }))}
            onChange={(value: string) => {
              const [year, term] = value.split('-');
              setSearch({ year: year!, term: term! }, { replace: true });
            }}
          />
        </div>
        {history.isError || samples.isError ? <Alert type="error" showIcon message={errorMessage(history.error ?? samples.error, '指数样本加载失败，请稍后重试')} /> : null}
        {history.isLoading || samples.isLoading ? <Skeleton active paragraph={{ rows: 6 }} /> : null}
        {history.data && terms.length === 0 ? <Empty description="暂无已发布的指数" /> : null}
        {samples.isSuccess && !data ? <Empty description="该期指数尚未发布" /> : null}
        {data ? (
          <Space direction="vertical" size={16} style={{ width: '100%' }}>
            <Descriptions size="small" column={{ xs: 1, md: 3 }} bordered data-testid="index-term-summary">
              <Descriptions.Item label="期数">{`${data.currentYear}年第${data.currentTerm}期（总第${data.totalTerm}期）`}</Descriptions.Item>
              <Descriptions.Item label="样本周期">{`${data.weekFrom} 至 ${data.weekTo}`}</Descriptions.Item>
              <Descriptions.Item label="报价日期">{data.quoteDate}</Descriptions.Item>
              <Descriptions.Item label="发布价格">
                <b className="coalx-num" data-testid="index-published-price">
                  {formatFen(data.price)} 元/吨
                </b>
              </Descriptions.Item>
              <Descriptions.Item label="样本加权均价">
                <span className="coalx-num" data-testid="index-sample-price">
                  {data.samplePrice === null ? '无样本' : `${formatFen(data.samplePrice)} 元/吨`}
                </span>
              </Descriptions.Item>
              <Descriptions.Item label="样本">{`计入 ${included.length} 笔 · ${formatTons(included.reduce((s, x) => s + x.quantity, 0))}；剔除 ${excluded.length} 笔`}</Descriptions.Item>
            </Descriptions>
            {data.samples.length === 0 ? (
              <Alert
                type="warning"
                showIcon
                data-testid="index-no-samples"
                message="本期无成交样本"
                description="本期指数由交易中心依据市场报价人工发布，本平台该周没有符合样本范围的挂牌或竞价成交，未经本平台成交校验。"
              />
            ) : (
              <Table<IndexSample>
                data-testid="index-samples"
                rowKey={(r) => `${r.dealNo}-${r.dealDate}-${r.price}-${r.quantity}`}
                size="middle"
                pagination={false}
                scroll={{ x: 820 }}
                dataSource={data.samples}
                columns={[
                  { title: '成交编号', dataIndex: 'dealNo', width: 170, render: (v: string) => <span className="coalx-num">{v}</span> },
                  { title: '方式', dataIndex: 'tradeKind', width: 70 },
                  { title: '成交日期', dataIndex: 'dealDate', width: 110 },
                  { title: '成交价 (元/吨)', dataIndex: 'price', align: 'right', width: 130, render: (v: number) => <span className="coalx-num">{formatFen(v)}</span> },
                  { title: '成交量', dataIndex: 'quantity', align: 'right', width: 130, render: (v: number) => <span className="coalx-num">{formatTons(v)}</span> },
                  { title: '是否计入', dataIndex: 'included', width: 90, render: (v: boolean) => (v ? <Tag color="blue">计入</Tag> : <Tag color="default">剔除</Tag>) },
                  { title: '剔除原因', dataIndex: 'exclusionReason', render: (v: string | null) => v ?? '—' },
                ]}
              />
            )}
          </Space>
        ) : null}
      </Card>
    </div>
  );
}
