import type { z } from 'zod';
import type { AuctionApply, AuctionBidLog, AuctionResultSchema, AuctionSnapshot, AuctionView, BidView, DealView, EnrolmentViewSchema } from '@coalx/shared';
import { requestResult, type PageResult } from '@/app/request';
import type { PaymentAuth } from '@/services/funds';
import { action, type PageQuery } from '@/services/listing';

/** Auction trade (竞价) calls of spec §7: money in integer fen, quantity in integer kg, times already Shanghai text. */

export interface BidMarketQuery extends PageQuery {
  tradeType?: number;
  /** The enterprise clientId (spec §7), to list one enterprise's auctions. */
  enterpriseId?: string;
  tradeId?: string;
  productName?: string;
  hangState?: number;
}

export interface MyAuctionQuery extends PageQuery {
  tradeType?: number;
  tradeId?: string;
  status?: string;
  hangState?: number;
}

export type AuctionResult = z.infer<typeof AuctionResultSchema>;

export type EnrolmentView = z.infer<typeof EnrolmentViewSchema>;

/** A bid of the history; only the operator sees the enterprise behind an alias. */
export type BidRecord = BidView & { enterpriseName: string | null };

export interface PlacedBid {
  seq: number;
  price: number;
  currentEnd: number;
}

const post = <T>(path: string, data: unknown) => requestResult<T>(path, { method: 'POST', data });

/** Saves a draft (submit false) or submits for audit; tradeId edits a draft or rejected auction. */
export const saveAuction = (data: AuctionApply) => action<AuctionView>('/api/bidApply', data);
export const getAuction = (tradeId: string) => post<AuctionView>('/api/bidApplyDetail', { tradeId });
export const listBidMarket = (query: BidMarketQuery) => post<PageResult<AuctionView>>('/api/tradeHome/bidTrade/list', query);
export const listMyAuctions = (query: MyAuctionQuery) => post<PageResult<AuctionView>>('/api/myBidTradeList', query);

export const enrolAuction = (data: { tradeId: string; requestId: string } & PaymentAuth) =>
  action<{ id: number; bidderNo: number; status: string }>('/api/bidEnroll/add', { ...data, acceptRules: true });
export const listMyEnrolments = (query: PageQuery & { tradeId?: string; startsToday?: '1' }) => post<PageResult<EnrolmentView>>('/api/bidEnroll/myList', query);

/** One bid; every refusal rejects with the server's Chinese message (a 403 'not enrolled' included). */
export const placeBid = (tradeId: string, price: number) => action<PlacedBid>('/api/bidRecord/bidAnswerApply', { tradeId, price });
export const listBidRecords = (query: PageQuery & { tradeId: string }) => post<PageResult<BidRecord>>('/api/bidRecord/list', query);
/** The live state by plain GET: the catch-up after every (re)connect of the socket. */
export const getAuctionSnapshot = (tradeId: string, signal?: AbortSignal) =>
  requestResult<AuctionSnapshot>('/api/bidRecord/snapshot', { params: { tradeId }, signal, skipErrorHandler: true });
export const getAuctionResult = (tradeId: string) => post<AuctionResult>('/api/bidResult', { tradeId });
/** The public bid log of an ended auction (公开出价记录); refusals (not ended, not found) are left to the page. */
export const getAuctionBidLog = (tradeId: string) => requestResult<AuctionBidLog>('/api/bidRecord/log', { params: { tradeId }, skipErrorHandler: true });
export const listMyAuctionDeals = (query: PageQuery & { tradeId?: string }) => post<PageResult<DealView>>('/api/myDealBidTradeList', query);

export const listAuctionAudit = (query: PageQuery & { status?: string }) => post<PageResult<AuctionView>>('/api/auction/audit/list', query);
export const approveAuction = (tradeId: string) => action<AuctionView>('/api/auction/audit/approve', { tradeId });
export const rejectAuction = (tradeId: string, reason: string) => action<AuctionView>('/api/auction/audit/reject', { tradeId, reason });
