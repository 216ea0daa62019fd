import { useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Breadcrumb, Button, Card, Form, Input, Result, message } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { formatFen, formatPrice, formatTons, HangState, tonsTextToKg, TradeType } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import { useSession } from '@/app/session';
import { useMoneyAction } from '@/components/MoneyConfirm';
import { newRequestId } from '@/components/PayAuth';
import { getFundInfo } from '@/services/funds';
import { getListing, subscribeListing, type SubscribeResult } from '@/services/listing';
import { TRADE_TYPE_TEXT, subscribeBounds, subscribeQuantityError, subscriptionPreview } from '@/lib/listing';
import { depositText, ListingHeadline } from '@/components/listing/ListingDetail';
import { ListingLoadState } from '@/components/listing/ListingDetail';
import '@/components/TradeDetail/trade.css';

/**
 * 挂牌摘牌 (/hang/hangSale?tradeId): the counterparty enters a quantity within [min, max] and the remainder, sees
 * the amount and the deposit, passes the pay-password flow and submits. One request id per submission, reused on
 * retry so a repeated click never subscribes twice.
 */
export default function HangSalePage() {
  const [params] = useSearchParams();
  const tradeId = params.get('tradeId') ?? '';
  const queryClient = useQueryClient();
  const listing = useQuery({ queryKey: ['listing', 'detail', tradeId], queryFn: () => getListing(tradeId), enabled: Boolean(tradeId), retry: false });
  const funds = useQuery({ queryKey: ['funds', 'info'], queryFn: getFundInfo, retry: false });
  const [text, setText] = useState('');
  const [touched, setTouched] = useState(false);
  const [sending, setSending] = useState(false);
  const [done, setDone] = useState<{ result: SubscribeResult; message: string } | null>(null);
  const requestId = useRef(newRequestId());
  const { act, holder } = useMoneyAction();
  const { companyInfo } = useSession();
  const l = listing.data;

  if (!l) {
    return (
      <div className="coalx-page">
        <ListingLoadState missingId={!tradeId} loading={listing.isLoading} error={listing.error} />
      </div>
    );
  }

  const kg = tonsTextToKg(text);
  const problem = subscribeQuantityError(l, kg);
  const preview = subscriptionPreview(l, problem ? null : kg);
  const bounds = subscribeBounds(l);
  const fundsShort = preview && funds.data ? funds.data.available < preview.deposit : false;
  // the server refuses these too; saying it first spares the trader a useless pay-password prompt
  const blocked = !companyInfo ? '仅企业交易员可以摘牌' : companyInfo.organName === l.enterpriseName ? '不能摘本企业发布的挂牌' : null;
  const open = l.hangState === HangState.open && !blocked;

  const submit = async () => {
    setTouched(true);
    if (problem || kg === null || !preview) return;
    const confirmation = {
      title: '确认摘牌',
      rows: [
        { label: '交易编号', value: l.tradeId },
        { label: '挂牌价格', value: formatPrice(l.price) },
        { label: '摘牌数量', value: formatTons(kg) },
        { label: '成交金额', value: `¥${formatFen(preview.amount)}`, strong: true },
        { label: '冻结保证金', value: `¥${formatFen(preview.deposit)}`, strong: true },
      ],
      next: l.autoConfirm
        ? `确认后立即从可用资金冻结保证金 ¥${formatFen(preview.deposit)}，本挂牌自动成交，保证金转为履约保证金。`
        : `确认后立即从可用资金冻结保证金 ¥${formatFen(preview.deposit)}；挂牌方确认即成交，拒绝则解冻保证金。`,
      okText: '确定摘牌',
    };
    try {
      let serverMessage = '';
      const result = await act(
        confirmation,
        async (auth) => {
          const r = await subscribeListing({ tradeId: l.tradeId, quantity: kg, requestId: requestId.current, ...auth });
          return r;
        },
        {
          action: 'listing_subscribe',
          payload: { tradeId: l.tradeId, quantity: kg, requestId: requestId.current },
          title: '摘牌确认：请输入支付密码',
          description: `摘牌 ${formatTons(kg)}，成交金额 ¥${formatFen(preview.amount)}，冻结保证金 ¥${formatFen(preview.deposit)}`,
          onConfirmed: () => setSending(true),
        },
      );
      if (!result) return;
      serverMessage = result.status === 'confirmed' ? '摘牌成功，已自动成交' : '摘牌成功，等待挂牌方确认';
      requestId.current = newRequestId();
      setDone({ result, message: serverMessage });
      void queryClient.invalidateQueries({ queryKey: ['listing'] });
      void queryClient.invalidateQueries({ queryKey: ['funds'] });
    } catch (error) {
      message.error(errorMessage(error, '摘牌失败，请稍后重试'));
    } finally {
      setSending(false);
    }
  };

  if (done) {
    return (
      <div className="coalx-page">
        <Card variant="borderless">
          <Result
            status="success"
            title={done.message}
            subTitle={`交易编号 ${l.tradeId}，摘牌数量 ${formatTons(done.result.quantity)}，已冻结保证金 ¥${formatFen(done.result.deposit)}`}
            extra={[
              <Link key="mine" to="/listingTrade/subscribe">
                <Button type="primary">查看我的摘牌</Button>
              </Link>,
              <Link key="detail" to={`/listingSalesDetails?tradeId=${l.tradeId}`}>
                <Button>返回挂牌详情</Button>
              </Link>,
              <Link key="home" to="/index">
                <Button>返回首页</Button>
              </Link>,
            ]}
          />
        </Card>
      </div>
    );
  }

  return (
    <div className="coalx-page">
      <Breadcrumb
        items={[
          { title: <Link to="/index">首页</Link> },
          { title: <Link to={`/moreListings?tradeType=${l.tradeType}`}>{TRADE_TYPE_TEXT[l.tradeType]}</Link> },
          { title: <Link to={`/listingSalesDetails?tradeId=${l.tradeId}`}>{l.tradeId}</Link> },
          { title: '摘牌' },
        ]}
      />
      <ListingHeadline listing={l} />
      <Card title={l.tradeType === TradeType.listingPurchase ? '摘牌（向采购方供货）' : '摘牌（向挂牌方购买）'} variant="borderless" className="coalx-section-card">
        {blocked && <Alert type="info" showIcon style={{ marginBottom: 16 }} message={blocked} />}
        {!blocked && !open && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            message={l.hangState === HangState.notStarted ? '挂牌尚未开始，暂不能摘牌' : '挂牌已结束，不能摘牌'}
            action={l.hangState === HangState.ended ? <Link to={`/listingResult?tradeId=${l.tradeId}`}>查看结果公告</Link> : undefined}
          />
        )}
        <div className="coalx-preview">
          <div>
            <div className="coalx-figure-label">可摘范围</div>
            <div className="coalx-figure-value">
              {bounds.onlyRemainder ? `须一次摘完 ${formatTons(bounds.max)}` : `${formatTons(bounds.min, false)} – ${formatTons(bounds.max)}`}
            </div>
          </div>
          <div>
            <div className="coalx-figure-label">保证金标准</div>
            <div className="coalx-figure-value">{depositText(l)}</div>
          </div>
          <div>
            <div className="coalx-figure-label">可用资金</div>
            <div className="coalx-figure-value">{funds.data ? `¥${formatFen(funds.data.available)}` : '-'}</div>
          </div>
        </div>
        <Form layout="vertical" onFinish={submit} style={{ maxWidth: 640 }}>
          <Form.Item
            label="摘牌数量"
            required
            validateStatus={touched && text && problem ? 'error' : undefined}
            help={touched && text && problem ? problem : `单位：吨，最多 3 位小数；剩余可摘 ${formatTons(l.remainingQuantity)}`}
          >
            <Input
              size="large"
              value={text}
              disabled={!open}
              placeholder={bounds.onlyRemainder ? `请输入 ${formatTons(bounds.max, false)}` : `${formatTons(bounds.min, false)} – ${formatTons(bounds.max, false)}`}
              suffix="吨"
              inputMode="decimal"
              onChange={(e) => {
                setText(e.target.value.trim());
                setTouched(true);
              }}
              aria-label="摘牌数量"
            />
          </Form.Item>
          <div className="coalx-preview" style={{ gridTemplateColumns: 'repeat(3, minmax(0, 1fr))' }}>
            <div>
              <div className="coalx-figure-label">成交价格</div>
              <div className="coalx-figure-value">{formatPrice(l.price)}</div>
            </div>
            <div>
              <div className="coalx-figure-label">成交金额</div>
              <div className="coalx-figure-value coalx-price" data-testid="subscribe-amount">
                {preview ? `¥${formatFen(preview.amount)}` : '-'}
              </div>
            </div>
            <div>
              <div className="coalx-figure-label">应冻结保证金</div>
              <div className="coalx-figure-value" data-testid="subscribe-deposit">
                {preview ? `¥${formatFen(preview.deposit)}` : '-'}
              </div>
            </div>
          </div>
          {fundsShort && (
            <Alert type="error" showIcon style={{ marginBottom: 16 }} message="可用资金不足以冻结保证金，请先入金" action={<Link to="/financial/application">去入金</Link>} />
          )}
          <Button type="primary" size="large" htmlType="submit" loading={sending} disabled={!open || sending}>
            确认摘牌
          </Button>
          <span className="coalx-hint" style={{ marginLeft: 16 }}>
            提交后立即冻结保证金；{l.autoConfirm ? '本挂牌自动确认成交' : '挂牌方确认后成交，拒绝则释放数量与保证金'}
          </span>
        </Form>
      </Card>
      {holder}
    </div>
  );
}
