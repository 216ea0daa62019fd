import { requestResult } from '@/app/request';

/** The trading centre's live market board (实时监控) and its pause / resume / cancel of auctions. */

export interface BoardAuction {
  tradeId: string;
  tradeType: number;
  productName: string;
  enterpriseName: string;
  hangState: number;
  quantity: number;
  startPrice: number;
  currentPrice: number;
  /** how far bidding moved the price in the publisher's favour, fen per ton */
  premium: number;
  /** premium ÷ start price in basis points */
  premiumBp: number;
  enrolCount: number;
  bidCount: number;
  deposit: number;
  bidStart: number;
  currentEnd: number;
  remainingMs: number | null;
  operatorReason: string | null;
  result: string | null;
}

export interface BoardListing {
  tradeId: string;
  tradeType: number;
  productName: string;
  enterpriseName: string;
  hangState: number;
  quantity: number;
  subscribed: number;
  price: number;
  subscriptionCount: number;
  listedDateStart: number;
  listedDateEnd: number;
  remainingMs: number | null;
}

export interface MarketBoard {
  auctions: BoardAuction[];
  listings: BoardListing[];
  serverTime: number;
}

export interface MovedAuction {
  tradeId: string;
  hangState: number;
  currentEnd: number;
  pausedRemainingMs: number | null;
}

const post = <T>(path: string, data: unknown) => requestResult<T>(path, { method: 'POST', data });

export const getMarketBoard = () => post<MarketBoard>('/api/monitor/board', {});
export const getRoomBidders = (tradeId: string) => post<{ bidder: string; enterpriseName: string; status: string }[]>('/api/monitor/auction/bidders', { tradeId });
export const getCancelPreview = (tradeId: string) => post<{ depositCount: number; depositTotal: number }>('/api/monitor/auction/cancelPreview', { tradeId });
export const pauseAuction = (tradeId: string, reason: string) => post<MovedAuction>('/api/monitor/auction/pause', { tradeId, reason });
export const resumeAuction = (tradeId: string) => post<MovedAuction>('/api/monitor/auction/resume', { tradeId });
export const cancelAuction = (tradeId: string, reason: string) => post<MovedAuction & { releasedDeposit: number }>('/api/monitor/auction/cancel', { tradeId, reason });
