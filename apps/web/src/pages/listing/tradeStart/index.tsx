import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { PRICE_LABEL, TradeType } from '@coalx/shared';
import { ListingLoadState } from '@/components/listing/ListingDetail';
import PublishPage from '@/components/TradeForm/PublishPage';
import { TRADE_TYPE_TEXT } from '@/lib/listing';
import { getListing } from '@/services/listing';
import ListingForm from './components/ListingForm';

/** 发起挂牌 (/listingTrade/tradeStart?tradeType=0|1[&tradeId=]): publish a listing sale or purchase, or edit a draft. */
export default function TradeStartPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const tradeId = params.get('tradeId') ?? '';
  const editing = useQuery({ queryKey: ['listing', 'detail', tradeId], queryFn: () => getListing(tradeId), enabled: Boolean(tradeId), retry: false });
  const purchase = (editing.data?.tradeType ?? Number(params.get('tradeType'))) === TradeType.listingPurchase;
  const tradeType = purchase ? TradeType.listingPurchase : TradeType.listingSale;

  return (
    <PublishPage
      verb="发起"
      noun="挂牌"
      typeText={TRADE_TYPE_TEXT[tradeType]!}
      subtitle={`${purchase ? '发布采购需求，由供货企业摘牌' : '发布销售资源，由采购企业摘牌'} · ${PRICE_LABEL[tradeType]}为含税价，单位 元/吨`}
      mine={{ path: '/listingTrade/query', label: '我的挂牌' }}
      switchTo={{ path: `/listingTrade/tradeStart?tradeType=${purchase ? TradeType.listingSale : TradeType.listingPurchase}`, label: purchase ? '改为挂牌销售' : '改为挂牌采购' }}
      editing={tradeId ? { data: editing.data, loadState: <ListingLoadState loading={editing.isLoading} error={editing.error} /> } : undefined}
    >
      <ListingForm key={`${tradeType}-${tradeId}`} tradeType={tradeType} editing={editing.data} onSaved={() => navigate('/listingTrade/query')} />
    </PublishPage>
  );
}
