/**
 * Trade types and market states by name (dictionaries trade_type, hang_state_total_trans, bid_hang_state_hp). The
 * numbers are what the database and the API carry; code says `TradeType.auctionSale`, never `2`.
 */
export const TradeType = { listingSale: 0, listingPurchase: 1, auctionSale: 2, auctionPurchase: 3 } as const;
export type TradeTypeCode = (typeof TradeType)[keyof typeof TradeType];

/** The enterprise that publishes sells: the counterparty buys, and an auction's price goes up. */
export const isSale = (tradeType: number) => tradeType === TradeType.listingSale || tradeType === TradeType.auctionSale;
export const isPurchase = (tradeType: number) => tradeType === TradeType.listingPurchase || tradeType === TradeType.auctionPurchase;
export const isListing = (tradeType: number) => tradeType === TradeType.listingSale || tradeType === TradeType.listingPurchase;
export const isAuction = (tradeType: number) => tradeType === TradeType.auctionSale || tradeType === TradeType.auctionPurchase;

/** Who sells and who buys in a deal between the publisher and its counterparty. */
export function dealSides<T>(tradeType: number, publisher: T, counterparty: T): { seller: T; buyer: T } {
  return isSale(tradeType) ? { seller: publisher, buyer: counterparty } : { seller: counterparty, buyer: publisher };
}

/** Market state of an approved listing (hang_state_total_trans). */
export const HangState = { notStarted: 0, open: 1, ended: 2 } as const;
export type HangStateCode = (typeof HangState)[keyof typeof HangState];
export const HANG_STATE_LABELS: Record<HangStateCode, string> = { 0: '未开始', 1: '挂牌中', 2: '已结束' };

/** Market state of an approved auction (bid_hang_state_hp); `ended` is final once stored. */
export const AuctionState = { enrolling: 0, waiting: 1, bidding: 2, ended: 3, paused: 4, cancelled: 5 } as const;
export type AuctionStateCode = (typeof AuctionState)[keyof typeof AuctionState];
export const AUCTION_STATE_LABELS: Record<AuctionStateCode, string> = { 0: '报名中', 1: '待竞价', 2: '竞价中', 3: '已结束', 4: '暂停', 5: '已撤销' };

/** The filter of the home page's trade tables (hang_state_total_select) across listings and auctions. */
export const TradeProgress = { upcoming: 0, ongoing: 1, ended: 2 } as const;

// the market states' transition tables and their time rule (listingHangState, auctionHangState): market-states.ts
