import { TradeType } from '@coalx/shared';
import AnnouncementTabs from '@/components/AnnouncementTabs';
import BidTradeTable from './components/BidTradeTable';
import ListedTradeTable from './components/ListedTradeTable';
import RecommendTrades from './components/RecommendTrades';
import RuleLinks from './components/RuleLinks';
import '@/styles/home-tables.css';
import '@/styles/home.css';

/**
 * Home (/index) inside the public layout, whose slots hold the banner and the market-index strip. Every block has
 * its own query and skeleton, so each shows as soon as its own data arrives (spec §2 Home page).
 */
export default function HomePage() {
  return (
    <>
      <RecommendTrades />
      <div className="coalx-home-row">
        <AnnouncementTabs />
        <RuleLinks />
      </div>
      <div className="coalx-home-tables">
        <ListedTradeTable tradeType={TradeType.listingSale} />
        <ListedTradeTable tradeType={TradeType.listingPurchase} />
        <BidTradeTable tradeType={TradeType.auctionSale} />
        <BidTradeTable tradeType={TradeType.auctionPurchase} />
      </div>
    </>
  );
}
