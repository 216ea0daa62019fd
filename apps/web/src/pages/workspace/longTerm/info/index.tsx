import { useEffect, useState, type ReactNode } from 'react';
import { SolutionOutlined } from '@ant-design/icons';
import { ProDescriptions } from '@ant-design/pro-components';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Result } from 'antd';
import { Link, useLocation, useSearchParams } from 'react-router';
import { PRICE_TYPES, TRANSPORTS, formatPrice, formatTons, monthText } from '@coalx/shared';
import DetailLoadState from '@/components/DetailLoadState';
import ApplyModal from '@/components/longTerm/ApplyModal';
import { FlagTag, LongTermStatusTag, runAction } from '@/components/longTerm/LongTermParts';
import OfferModal from '@/components/longTerm/OfferModal';
import '@/components/longTerm/long-term.css';
import '@/components/TradeDetail/trade.css';
import { buyerText, flagMessage, rateText } from '@/lib/long-term';
import { qualityItems } from '@/lib/quality';
import { LONG_TERM_KEYS, getLongTerm, publishOffer, withdrawApplication, withdrawOffer, type LongTermDetail } from '@/services/longTerm';
import ApplicationsCard from './components/ApplicationsCard';
import CallOffModal from './components/CallOffModal';
import CallOffsCard from './components/CallOffsCard';
import MonthsCard from './components/MonthsCard';
import PricingCard from './components/PricingCard';
import TerminateModal from './components/TerminateModal';

const SIDE_TEXT = { seller: '卖方', buyer: '买方' } as const;

/** An accepted deal or call-off whose contract is still being made. */
const awaitsContract = (d: LongTermDetail) =>
  (d.status === 'signing' && d.contractId === null) || d.callOffs.some((c) => c.status === 'accepted' && c.contractId === null);

function Figure({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <div>
      <div className="coalx-lt-head-label">{label}</div>
      <div className="coalx-lt-head-value" data-testid={testId}>
        {value}
      </div>
    </div>
  );
}

/** The state of the deal in one sentence where it waits on someone. */
function StateAlert({ detail }: { detail: LongTermDetail }) {
  if (detail.status === 'terminated') {
    return <Alert className="coalx-lt-row" type="warning" showIcon message="长协已终止" description={`终止原因：${detail.terminateReason ?? '-'}`} />;
  }
  if (detail.status === 'signing') {
    return (
      <Alert
        className="coalx-lt-row"
        type="info"
        showIcon
        message={
          detail.contractId ? (
            <>
              框架合同 <Link to={`/contract/info?id=${detail.contractId}`}>{detail.contractNo}</Link> 待双方签署：请在「合同管理 → 合同签署」签署，合同生效后进入执行期，按月调运。
            </>
          ) : (
            '已接受申请，框架合同生成中，稍后在「合同管理」签署。'
          )
        }
      />
    );
  }
  if (detail.status === 'open') {
    const text =
      detail.mySide === 'seller'
        ? `征集中，申请截止 ${detail.applyDeadline}；已收到 ${detail.applicationCount} 份申请，接受其中一家后生成框架合同。`
        : detail.myApplicationStatus
          ? `本企业的申请：${detail.myApplicationStatus}。卖方接受后生成框架合同。`
          : `征集中，申请截止 ${detail.applyDeadline}。`;
    return <Alert className="coalx-lt-row" type="info" showIcon message={text} />;
  }
  if (detail.fulfilment.flagged) {
    return (
      <Alert
        className="coalx-lt-row"
        type="error"
        showIcon
        message={flagMessage(detail)}
      />
    );
  }
  return null;
}

/**
 * 长协详情 (/longTermDeal/info?id=): the deal's head (number, state, parties, framework contract, the figures) with
 * the buttons its `actions` allow, then its terms, pricing and each month's price basis, the monthly plan against
 * fulfilment with its chart, the years, the call-offs and the applications.
 */
export default function LongTermInfoPage() {
  const [params] = useSearchParams();
  const location = useLocation();
  const id = Number(params.get('id')) || null;
  const client = useQueryClient();
  const query = useQuery({
    queryKey: LONG_TERM_KEYS.detail(id ?? 0),
    queryFn: () => getLongTerm(id!),
    enabled: Boolean(id),
    retry: false,
    // the framework contract and a confirmed call-off's contract are made just after the answer: look again shortly
    refetchInterval: (q) => (q.state.data && awaitsContract(q.state.data) ? 3000 : false),
  });
  const [editing, setEditing] = useState(false);
  const [applying, setApplying] = useState(false);
  const [callingOff, setCallingOff] = useState(false);
  const [terminating, setTerminating] = useState(false);

  const loaded = Boolean(query.data);
  useEffect(() => {
    if (loaded && location.hash === '#applications') document.getElementById('applications')?.scrollIntoView({ behavior: 'smooth' });
  }, [loaded, location.hash]);

  const update = (next: LongTermDetail | null) => {
    if (!next) return;
    client.setQueryData(LONG_TERM_KEYS.detail(next.id), next);
    void client.invalidateQueries({ queryKey: LONG_TERM_KEYS.all, predicate: (q) => q.queryKey[1] !== 'detail' });
  };

  if (!id) return <Result status="warning" title="缺少长协参数" subTitle="请从长协交易进入长协详情。" extra={<Link to="/longTermDeal">返回长协交易</Link>} />;
  if (query.isError || !query.data) return <DetailLoadState query={query} noun="长协" back={{ path: '/longTermDeal', title: '长协交易' }} />;

  const d = query.data;
  const current = d.months.find((m) => m.phase === 'current');
  const can = (action: LongTermDetail['actions'][number]) => d.actions.includes(action);
  const callOffVerb = can('callOff') ? '发起本月调运' : can('requestCallOff') ? '申请本月调运' : null;
  const area = [d.deliveryProvince, d.deliveryCity, d.deliveryDistrict].filter(Boolean).join(' ');

  const actionButtons = [
    can('edit') ? (
      <Button key="edit" onClick={() => setEditing(true)}>
        修改
      </Button>
    ) : null,
    can('publish') ? (
      <Button
        key="publish"
        type="primary"
        onClick={async () =>
          update(
            await runAction(() => publishOffer(d.id), '已发布', {
              title: `发布长协 ${d.dealNo}？`,
              content: `发布后${d.targetName ? `定向买方 ${d.targetName}` : '经审核的买方'}可在「长协市场」申请，申请截止 ${d.applyDeadline}。`,
              okText: '确认发布',
            }),
          )
        }
      >
        发布
      </Button>
    ) : null,
    can('apply') ? (
      <Button key="apply" type="primary" onClick={() => setApplying(true)}>
        申请
      </Button>
    ) : null,
    can('withdrawApplication') ? (
      <Button
        key="withdrawApplication"
        onClick={async () =>
          update(await runAction(() => withdrawApplication(d.id), '已撤回申请', { title: '撤回本企业的申请？', content: '撤回后可在申请截止前重新申请。', okText: '撤回申请' }))
        }
      >
        撤回申请
      </Button>
    ) : null,
    callOffVerb && current ? (
      <Button key="callOff" type="primary" onClick={() => setCallingOff(true)} data-testid="lt-calloff-open">
        {callOffVerb}
      </Button>
    ) : null,
    can('withdraw') ? (
      <Button
        key="withdraw"
        danger
        onClick={async () =>
          update(
            await runAction(() => withdrawOffer(d.id), '已撤回', {
              title: `撤回长协 ${d.dealNo}？`,
              content: d.status === 'open' ? '撤回后买方不能再申请，待处理的申请将被拒绝；撤回不可恢复。' : '撤回后该草稿不再可用；撤回不可恢复。',
              okText: '确认撤回',
              danger: true,
            }),
          )
        }
      >
        撤回长协
      </Button>
    ) : null,
    can('terminate') ? (
      <Button key="terminate" danger onClick={() => setTerminating(true)}>
        终止长协
      </Button>
    ) : null,
  ].filter(Boolean);

  return (
    <div className="coalx-lt-info" data-testid="lt-info" data-status={d.status}>
      <Card>
        <div className="coalx-lt-head">
          <div>
            <div className="coalx-lt-head-title">
              <SolutionOutlined />
              <span className="coalx-num" data-testid="lt-no">
                {d.dealNo}
              </span>
              <LongTermStatusTag status={d.status} />
              {d.fulfilment.flagged ? <FlagTag /> : null}
            </div>
            <div className="coalx-lt-head-sub">
              卖方 <b>{d.sellerName}</b> · 买方 <b>{buyerText(d)}</b>
              {d.mySide ? <> · 我方为{SIDE_TEXT[d.mySide]}</> : null}
              <br />
              框架合同{' '}
              {d.contractId ? (
                <Link to={`/contract/info?id=${d.contractId}`} className="coalx-num" data-testid="lt-contract-link">
                  {d.contractNo}
                </Link>
              ) : (
                <span>{d.status === 'signing' ? '生成中' : '接受申请后生成'}</span>
              )}{' '}
              · {d.productName} · <span className="coalx-num">合同期 {monthText(d.periodStart)} 至 {monthText(d.periodEnd)}</span> ·{' '}
              <span className="coalx-num">创建于 {d.createdAt}</span>
            </div>
          </div>
          <div className="coalx-lt-head-figures">
            <Figure label="计划总量" value={formatTons(d.plannedKg)} />
            <Figure label="本月价格" value={d.currentPriceFen === null ? '-' : formatPrice(d.currentPriceFen)} testId="lt-current-price" />
            <Figure label="累计履约率" value={<span className={d.fulfilment.flagged ? 'coalx-lt-flagged' : undefined}>{rateText(d.fulfilment.rate)}</span>} />
          </div>
        </div>
        {actionButtons.length ? <div className="coalx-lt-actions">{actionButtons}</div> : null}
      </Card>

      <StateAlert detail={d} />

      <Card title="基本信息" size="small" className="coalx-lt-row">
        <ProDescriptions column={3} size="small" data-testid="lt-basic">
          <ProDescriptions.Item label="产品">{d.productName}</ProDescriptions.Item>
          <ProDescriptions.Item label="价格类型">{(PRICE_TYPES as Record<string, string>)[d.priceType] ?? d.priceType}</ProDescriptions.Item>
          <ProDescriptions.Item label="运输方式">{(TRANSPORTS as Record<string, string>)[d.transport] ?? d.transport}</ProDescriptions.Item>
          <ProDescriptions.Item label="交收地点" span={2}>
            {area} {d.deliveryPlace}
          </ProDescriptions.Item>
          <ProDescriptions.Item label="合同期">
            {monthText(d.periodStart)} 至 {monthText(d.periodEnd)}（{d.months.length} 个月）
          </ProDescriptions.Item>
          <ProDescriptions.Item label="征集方式">{d.targetName ? `定向：${d.targetName}` : '公开征集'}</ProDescriptions.Item>
          <ProDescriptions.Item label="申请截止">{d.applyDeadline}</ProDescriptions.Item>
          <ProDescriptions.Item label="定价">{d.pricingText}</ProDescriptions.Item>
          {qualityItems(d.quality).map((q) => (
            <ProDescriptions.Item key={q.key} label={q.label}>
              {q.value}
            </ProDescriptions.Item>
          ))}
          <ProDescriptions.Item label="备注" span={3}>
            {d.remark || '-'}
          </ProDescriptions.Item>
          {d.terminateReason ? (
            <ProDescriptions.Item label="终止原因" span={3}>
              <span className="coalx-text-danger">{d.terminateReason}</span>
            </ProDescriptions.Item>
          ) : null}
        </ProDescriptions>
      </Card>

      <PricingCard detail={d} />
      <MonthsCard detail={d} />
      <CallOffsCard
        detail={d}
        onChange={update}
        extra={
          current && callOffVerb ? (
            <span className="coalx-lt-sub">
              本月（{monthText(current.month)}）剩余可调运 <b className="coalx-num">{formatTons(current.availableKg)}</b>
            </span>
          ) : null
        }
      />
      <ApplicationsCard detail={d} onChange={update} />

      {can('edit') ? (
        <OfferModal
          open={editing}
          editing={d}
          onClose={() => setEditing(false)}
          onSaved={(saved) => {
            setEditing(false);
            update(saved);
          }}
        />
      ) : null}
      <ApplyModal
        deal={applying ? d : null}
        onClose={() => setApplying(false)}
        onDone={(next) => {
          setApplying(false);
          update(next);
        }}
      />
      {current && callOffVerb ? (
        <CallOffModal
          detail={d}
          month={current}
          open={callingOff}
          onClose={() => setCallingOff(false)}
          onDone={(next) => {
            setCallingOff(false);
            update(next);
          }}
        />
      ) : null}
      {can('terminate') ? (
        <TerminateModal
          detail={d}
          open={terminating}
          onOpenChange={setTerminating}
          onDone={(next) => {
            setTerminating(false);
            update(next);
          }}
        />
      ) : null}
    </div>
  );
}
