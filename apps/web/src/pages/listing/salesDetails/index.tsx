import { HangState } from '@coalx/shared';
import { useQuery } from '@tanstack/react-query';
import { Breadcrumb, Button } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { useSession } from '@/app/session';
import { getListing } from '@/services/listing';
import { TRADE_TYPE_TEXT, listingButtonPath, listingButtons } from '@/lib/listing';
import { ListingDescriptions, ListingHeadline } from '@/components/listing/ListingDetail';
import { ListingLoadState } from '@/components/listing/ListingDetail';
import '@/components/TradeDetail/trade.css';

/** 挂牌销售详情 (/listingSalesDetails?tradeId): every field, the state, the remainder and the buttons of its state. */
export default function ListingSalesDetailsPage() {
  const [params] = useSearchParams();
  const tradeId = params.get('tradeId') ?? '';
  const query = useQuery({ queryKey: ['listing', 'detail', tradeId], queryFn: () => getListing(tradeId), enabled: Boolean(tradeId), retry: false });
  const { companyInfo } = useSession();
  const l = query.data;
  const own = Boolean(l && companyInfo && companyInfo.organName === l.enterpriseName);

  return (
    <div className="coalx-page">
      <Breadcrumb
        items={[
          { title: <Link to="/index">首页</Link> },
          { title: <Link to={`/moreListings?tradeType=${l?.tradeType ?? 0}`}>{TRADE_TYPE_TEXT[l?.tradeType ?? 0]}</Link> },
          { title: '挂牌详情' },
        ]}
      />
      {!l ? (
        <ListingLoadState missingId={!tradeId} loading={query.isLoading} error={query.error} />
      ) : (
        <>
          <ListingHeadline
            listing={l}
            extra={listingButtons(l.hangState)
              .filter((b) => b.key !== 'details' && !(own && b.key === 'subscribe'))
              .map((b) =>
                b.disabled ? (
                  <Button key={b.key} disabled size="large">
                    {b.label}
                  </Button>
                ) : (
                  <Link key={b.key} to={listingButtonPath(b.key, l.tradeId)}>
                    <Button type="primary" size="large">
                      {b.key === 'subscribe' ? '立即摘牌' : b.label}
                    </Button>
                  </Link>
                ),
              )}
          />
          {own && l.hangState === HangState.open && <div className="coalx-hint">本企业发布的挂牌，摘牌记录与确认请到工作台“摘牌确认”。</div>}
          <ListingDescriptions listing={l} />
        </>
      )}
    </div>
  );
}
