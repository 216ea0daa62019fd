import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { PRICE_LABEL, TradeType } from '@coalx/shared';
import { AuctionLoadState } from '@/components/auction/AuctionParts';
import PublishPage from '@/components/TradeForm/PublishPage';
import { AUCTION_TYPE_TEXT } from '@/lib/auction';
import { getAuction } from '@/services/auction';
import AuctionForm from './components/AuctionForm';

/** 发布竞价 (/listingTrade/Bidding?tradeType=2|3[&tradeId=]): publish an auction sale or purchase, or edit a draft. */
export default function AuctionPublishPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const tradeId = params.get('tradeId') ?? '';
  const editing = useQuery({ queryKey: ['auction', 'detail', tradeId], queryFn: () => getAuction(tradeId), enabled: Boolean(tradeId), retry: false });
  const purchase = (editing.data?.tradeType ?? Number(params.get('tradeType'))) === TradeType.auctionPurchase;
  const tradeType = purchase ? TradeType.auctionPurchase : TradeType.auctionSale;

  return (
    <PublishPage
      verb="发布"
      noun="竞价"
      typeText={AUCTION_TYPE_TEXT[tradeType]!}
      subtitle={`${purchase ? '发布采购竞价，供货企业报名后逐次降价，价低者得' : '发布销售竞价，采购企业报名后逐次加价，价高者得'} · ${PRICE_LABEL[tradeType]}单位 元/吨`}
      mine={{ path: '/auctionTrade/query', label: '我的竞价' }}
      switchTo={{ path: `/listingTrade/Bidding?tradeType=${purchase ? TradeType.auctionSale : TradeType.auctionPurchase}`, label: purchase ? '改为竞价销售' : '改为竞价采购' }}
      editing={tradeId ? { data: editing.data, loadState: <AuctionLoadState loading={editing.isLoading} error={editing.error} /> } : undefined}
    >
      <AuctionForm key={`${tradeType}-${tradeId}`} tradeType={tradeType} editing={editing.data} onSaved={() => navigate('/auctionTrade/query')} />
    </PublishPage>
  );
}
