import type { z } from 'zod';
import type {
  BannerManageSchema,
  BannerSaveSchema,
  BannerSchema,
  ContentDetailSchema,
  ContentManageSchema,
  ContentRecordSchema,
  ContentSaveSchema,
  ContentType,
  MarketIndex,
  MarketIndexProposalSchema,
  RecommendRecord,
} from '@coalx/shared';
import { requestResult, type PageResult } from '@/app/request';

/**
 * Public content of the home page (spec §3, §7): market index, banners, announcements and recommended trades, and
 * the operator's calls that maintain them. Prices are fen per ton, quantities kg; times are Shanghai text.
 */

const INDEX = '/api/commoditymarketindex/commodityMarketIndex';

export type { MarketIndex, RecommendRecord };

export type IndexProposal = z.infer<typeof MarketIndexProposalSchema>;

export const marketIndexInfo = () => requestResult<MarketIndex | null>(`${INDEX}/info`);
export const marketIndexHistory = (limit = 52) => requestResult<MarketIndex[]>(`${INDEX}/history`, { params: { limit } });
export const marketIndexProposal = (year: number, term: number) =>
  requestResult<IndexProposal>(`${INDEX}/proposal`, { params: { year, term } });
export const publishMarketIndex = (data: { currentYear: number; currentTerm: number; quoteDate: string; price: number }) =>
  requestResult<MarketIndex>(`${INDEX}/publish`, { method: 'POST', data });

export type Banner = z.infer<typeof BannerSchema>;
export type BannerManage = z.infer<typeof BannerManageSchema>;
export type BannerSave = z.input<typeof BannerSaveSchema>;

export const bannerList = () => requestResult<Banner[]>('/api/banner/list');
export const bannerManageList = () => requestResult<BannerManage[]>('/api/banner/manageList');
export const saveBanner = (data: BannerSave) => requestResult<BannerManage>('/api/banner/save', { method: 'POST', data });
export const deleteBanner = (id: number) => requestResult<null>('/api/banner/delete', { method: 'POST', data: { id } });

/** The schema says string; the server only ever answers one of CONTENT_TYPES. */
export type ContentRecord = z.infer<typeof ContentRecordSchema> & { type: ContentType };
/** Its body is HTML sanitised by the server: the only HTML this app ever renders. */
export type ContentDetail = z.infer<typeof ContentDetailSchema> & { type: ContentType };
export type ContentManage = z.infer<typeof ContentManageSchema> & { type: ContentType };
export type ContentSave = z.input<typeof ContentSaveSchema>;

/** `_t` defeats browser/proxy caches (spec §7 'timestamp'); the server caches briefly and invalidates on change. */
export const contentList = (q: { type: ContentType; pageNo?: number; pageSize?: number }) =>
  requestResult<PageResult<ContentRecord>>('/api/content/list', {
    params: { type: q.type, pageNo: q.pageNo ?? 1, pageSize: q.pageSize ?? 10, _t: String(Date.now()) },
  });
export const contentDetail = (id: number) => requestResult<ContentDetail>('/api/content/detail', { params: { id } });
export const contentManageList = (q: { type?: ContentType; pageNo: number; pageSize: number }) =>
  requestResult<PageResult<ContentManage>>('/api/content/manageList', { params: q });
export const saveContent = (data: ContentSave) => requestResult<ContentManage>('/api/content/save', { method: 'POST', data });
export const publishContent = (id: number) => requestResult<ContentManage>('/api/content/publish', { method: 'POST', data: { id } });
export const unpublishContent = (id: number) => requestResult<ContentManage>('/api/content/unpublish', { method: 'POST', data: { id } });

export interface RecommendQuery {
  pageNo: number;
  pageSize: number;
  tradeId?: string;
  preDayNum?: number;
  /** comma list of trade types */
  tradeType?: string;
  /** hang_state_total_select, one value or a comma list */
  hangState?: number | string;
  productName?: string;
  stockCode?: string;
  category?: string;
}

/** Drops empty fields: the server's schema refuses '' for numbers and comma lists. */
export function compactQuery<T extends object>(q: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [key, value] of Object.entries(q) as [keyof T, unknown][]) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) {
      if (value.length) out[key] = value.join(',') as T[keyof T];
      continue;
    }
    out[key] = (typeof value === 'string' ? value.trim() : value) as T[keyof T];
  }
  return out;
}

export const recommendList = (q: RecommendQuery) =>
  requestResult<PageResult<RecommendRecord>>('/api/tradeHome/recommend/list', { method: 'POST', data: compactQuery(q) });
export const markRecommended = (tradeId: string, recommended: boolean) =>
  requestResult<null>('/api/tradeHome/recommend/mark', { method: 'POST', data: { tradeId, recommended } });

/** Every recommended trade number, whatever its state (the operator's switch column). */
export async function recommendedTradeIds(): Promise<Set<string>> {
  return new Set(await requestResult<string[]>('/api/tradeHome/recommend/ids'));
}
