import type { z } from 'zod';
import type {
  CallOff,
  CallOffCreate,
  LongTermDetail,
  LongTermMonth,
  LongTermOfferSchema,
  LongTermPageSchema,
  LongTermQuery,
  LongTermSummary,
  MonthPriceSchema,
  PricePreviewQuerySchema,
} from '@coalx/shared';
import { requestResult } from '@/app/request';
import type { PaymentAuth } from '@/services/funds';

/** Long-term deal calls (apps/server/src/modules/long-term/long-term.routes.ts is the contract). */

export type { CallOff, CallOffCreate, LongTermDetail, LongTermMonth, LongTermSummary };
/** The offer as sent (defaults left to the server). */
export type LongTermOfferInput = z.input<typeof LongTermOfferSchema>;
export type LongTermPage = z.infer<typeof LongTermPageSchema>;
export type LongTermApplication = LongTermDetail['applications'][number];
export type LongTermYear = LongTermDetail['years'][number];
export type MonthPriceAnswer = z.infer<typeof MonthPriceSchema>;
export type PricePreviewQuery = z.input<typeof PricePreviewQuerySchema>;
/** The list filters (paging added by the call). */
export type LongTermFilters = Partial<Omit<LongTermQuery, 'pageNo' | 'pageSize'>>;

/** TanStack Query keys: an action on the detail page refreshes the lists too. */
export const LONG_TERM_KEYS = {
  all: ['longTerm'] as const,
  detail: (id: number) => ['longTerm', 'detail', id] as const,
  preview: (query: PricePreviewQuery) => ['longTerm', 'preview', query] as const,
};

export const LONG_TERM_EXPORT_PATH = '/api/longTerm/export';

const BASE = '/api/longTerm';
const post = (url: string, data?: unknown) => requestResult<LongTermDetail>(url, { method: 'POST', data: data ?? {} });

export const listLongTerm = (params: LongTermFilters & { pageNo: number; pageSize: number }) => requestResult<LongTermPage>(`${BASE}/list`, { params: { ...params } });
export const getLongTerm = (id: number) => requestResult<LongTermDetail>(`${BASE}/detail`, { params: { id } });
export const previewPrice = (query: PricePreviewQuery) => requestResult<MonthPriceAnswer>(`${BASE}/pricePreview`, { params: { ...query } });

/** Saves a draft (submit false) or publishes (submit true); `id` edits one's own draft. */
export const saveOffer = (offer: LongTermOfferInput) => post(`${BASE}/offer`, offer);
export const publishOffer = (id: number) => post(`${BASE}/${id}/publish`);
export const withdrawOffer = (id: number) => post(`${BASE}/${id}/withdraw`);
export const applyOffer = (id: number, note: string) => post(`${BASE}/${id}/apply`, { note });
export const withdrawApplication = (id: number) => post(`${BASE}/${id}/application/withdraw`);
export const acceptApplication = (id: number, applicationId: number) => post(`${BASE}/${id}/accept`, { applicationId });
export const terminateLongTerm = (id: number, reason: string) => post(`${BASE}/${id}/terminate`, { reason });
export const createCallOff = (id: number, input: CallOffCreate) => post(`${BASE}/${id}/callOff`, input);
/** Confirming carries the pay password or key signature (`auth`) when the switches ask for them. */
export const decideCallOff = (callOffId: number, accept: boolean, reason = '', auth: PaymentAuth = {}) => post(`${BASE}/callOff/${callOffId}/decide`, { accept, reason, ...auth });
export const withdrawCallOff = (callOffId: number) => post(`${BASE}/callOff/${callOffId}/withdraw`);
