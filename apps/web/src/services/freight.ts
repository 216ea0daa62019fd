import type { z } from 'zod';
import type {
  FreightCarriersSchema,
  FreightDetail,
  FreightDraftInput,
  FreightPageSchema,
  FreightPreview,
  FreightQuery,
  FreightStatementSummary,
  FreightSummaryAnswer,
  FreightSummaryQuery,
} from '@coalx/shared';
import { requestResult } from '@/app/request';

/** Freight statement calls (apps/server/src/modules/freight/freight.routes.ts is the contract). */

export type { FreightDetail, FreightDraftInput, FreightPreview, FreightStatementSummary, FreightSummaryAnswer };
export type FreightLine = FreightDetail['lines'][number];
export type FreightPage = z.infer<typeof FreightPageSchema>;
export type FreightCarriers = z.infer<typeof FreightCarriersSchema>;
/** The list filters (paging added by the call). */
export type FreightFilters = Partial<Omit<FreightQuery, 'pageNo' | 'pageSize'>>;

export const FREIGHT_KEYS = {
  all: ['freight'] as const,
  detail: (id: number) => ['freight', 'detail', id] as const,
  carriers: ['freight', 'carriers'] as const,
  summary: (query: FreightSummaryQuery) => ['freight', 'summary', query] as const,
};

export const FREIGHT_EXPORT_PATH = '/api/freight/export';
export const FREIGHT_SUMMARY_EXPORT_PATH = '/api/freight/summary/export';

export const listFreight = (params: FreightFilters & { pageNo: number; pageSize: number }) => requestResult<FreightPage>('/api/freight/list', { params: { ...params } });
export const getFreight = (id: number) => requestResult<FreightDetail>(`/api/freight/${id}`);
export const getFreightCarriers = () => requestResult<FreightCarriers>('/api/freight/carriers');
export const previewFreight = (input: FreightDraftInput) => requestResult<FreightPreview>('/api/freight/preview', { method: 'POST', data: input });
export const draftFreight = (input: FreightDraftInput) => requestResult<FreightDetail>('/api/freight', { method: 'POST', data: input });
export const confirmFreight = (id: number, input: { signedCopy: string; carrierSigner: string }) =>
  requestResult<FreightDetail>(`/api/freight/${id}/confirm`, { method: 'POST', data: input });
export const payFreight = (id: number, input: { voucher: string; note?: string }) => requestResult<FreightDetail>(`/api/freight/${id}/pay`, { method: 'POST', data: input });
export const cancelFreight = (id: number) => requestResult<FreightDetail>(`/api/freight/${id}/cancel`, { method: 'POST' });
export const getFreightSummary = (query: FreightSummaryQuery) => requestResult<FreightSummaryAnswer>('/api/freight/summary', { params: { ...query } });
