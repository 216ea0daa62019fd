import type { z } from 'zod';
import type { DealView, ListingApply, ListingResultSchema, ListingView, OppositeCompanySchema, ProductSchema, SubscriptionView } from '@coalx/shared';
import { handleErrorCatalogue, isRequestError, requestResult, type PageResult } from '@/app/request';
import { session } from '@/app/session';
import type { PaymentAuth } from '@/services/funds';

/** Listing trade (挂牌) calls of spec §7: money in integer fen, quantities in integer kg, times already Shanghai. */

export type Product = z.infer<typeof ProductSchema>;
export type ProductSave = Omit<Product, 'quality'> & { quality: Record<string, number | null> };

export interface PageQuery {
  pageNo: number;
  pageSize: number;
}

export interface MarketQuery extends PageQuery {
  tradeType?: number;
  tradeId?: string;
  productName?: string;
  hangState?: number;
}

export interface MyListingQuery extends PageQuery {
  tradeType?: number;
  tradeId?: string;
  status?: string;
  hangState?: number;
}

export interface SubscriptionQuery extends PageQuery {
  tradeId?: string;
  status?: string;
}

export type ListingResult = z.infer<typeof ListingResultSchema>;

export type OppositeCompany = z.infer<typeof OppositeCompanySchema>;

export interface SubscribeResult {
  id: number;
  status: string;
  quantity: number;
  deposit: number;
}

const post = <T>(path: string, data: unknown) => requestResult<T>(path, { method: 'POST', data });

/**
 * A trading action. The server answers its policy refusals ('不能摘本企业发布的挂牌', '只能操作本企业的挂牌',
 * '企业未通过交易中心审核，不能摘牌') with HTTP 403, which the spec §8 catalogue turns into a sign-out and a reload.
 * For these calls a 403 is a refusal the page shows (message.error); every other status still goes through the
 * catalogue (an expired token still signs out).
 */
export async function action<T>(path: string, data: unknown): Promise<T> {
  const hadToken = Boolean(session.token());
  try {
    return await requestResult<T>(path, { method: 'POST', data, skipErrorHandler: true });
  } catch (error) {
    if (isRequestError(error) && error.status !== 403) handleErrorCatalogue(error.status, error, hadToken);
    throw error;
  }
}

export const listProducts = () => post<Product[]>('/product/stockinfo/productList', {});
export const listManagedProducts = () => requestResult<Product[]>('/product/stockinfo/manageList');
export const saveProduct = (mode: 'add' | 'edit', data: ProductSave) => action<Product>(`/product/stockinfo/${mode}`, data);

/** Saves a draft (submit false) or submits for audit (submit true); tradeId edits a draft or rejected listing. */
export const saveListing = (data: ListingApply) => action<ListingView>('/api/addListedApply', data);
export const getListing = (tradeId: string) => post<ListingView>('/api/listedApplyDetail', { tradeId });
export const listMarket = (query: MarketQuery) => post<PageResult<ListingView>>('/api/tradeHome/listedTrade/list', query);
export const listMyListings = (query: MyListingQuery) => post<PageResult<ListingView>>('/api/myListedTradeList', query);

export const subscribeListing = (data: { tradeId: string; quantity: number; requestId: string } & PaymentAuth) =>
  action<SubscribeResult>('/api/listedAnswerApply', data);

export const listSubscriptionsOfListing = (query: SubscriptionQuery & { tradeId: string }) =>
  post<PageResult<SubscriptionView>>('/api/listedRecord/listQuery', query);
/** Subscriptions to my enterprise's listings (the confirm page). */
export const listSubscriptionsToMe = (query: SubscriptionQuery) =>
  post<PageResult<SubscriptionView>>('/api/listedRecord/myListedApplyList', query);
/** My enterprise's own subscriptions. */
export const listMySubscriptions = (query: SubscriptionQuery) =>
  post<PageResult<SubscriptionView>>('/api/listedRecord/myDealListedApplyList', query);
export const answerSubscription = (data: { id: number; action: 'confirm' | 'decline'; reason?: string }) =>
  action<{ id: number; status: string }>('/api/listedRecord/answerOrdersDeal', data);
export const listMyDeals = (query: PageQuery & { tradeId?: string }) => post<PageResult<DealView>>('/api/mydealListedTradeList', query);
export const getListingResult = (query: PageQuery & { tradeId: string }) => post<ListingResult>('/api/listedRecord/listSuccessQuery', query);
export const getOppositeCompany = (dealId: number) => action<OppositeCompany>('/api/listedRecord/queryOppositeCompanyInfo', { id: dealId });

export const listAuditQueue = (query: PageQuery & { status?: string }) => post<PageResult<ListingView>>('/api/listing/audit/list', query);
export const approveListing = (tradeId: string) => action<ListingView>('/api/listing/audit/approve', { tradeId });
export const rejectListing = (tradeId: string, reason: string) => action<ListingView>('/api/listing/audit/reject', { tradeId, reason });
