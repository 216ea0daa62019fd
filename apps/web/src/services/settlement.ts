import type { z } from 'zod';
import type {
  SettleableOrderListSchema,
  StatementConfirm,
  StatementFigures,
  StatementPageSchema,
  StatementQuery,
  StatementRuleSchema,
  StatementStatus,
  StatementView,
} from '@coalx/shared';
import { API_PREFIX } from '@coalx/shared';
import { requestResult, TOKEN_HEADER } from '@/app/request';
import { session } from '@/app/session';

/** Settlement statement calls (apps/server/src/modules/settlement/settlement.routes.ts is the contract). */

export type { StatementFigures, StatementStatus, StatementView };
export type StatementPage = z.infer<typeof StatementPageSchema>;
export type SettleableOrder = z.infer<typeof SettleableOrderListSchema>[number];
export type StatementRule = z.infer<typeof StatementRuleSchema>;
export type StatementFilters = Partial<Omit<StatementQuery, 'pageNo' | 'pageSize'>>;

/** TanStack Query keys, so confirming on the detail page refreshes the list. */
export const SETTLEMENT_KEYS = {
  all: ['settlement'] as const,
  detail: (id: number) => ['settlement', 'detail', id] as const,
  settleable: ['settlement', 'settleable'] as const,
  preview: (orderId: number) => ['settlement', 'preview', orderId] as const,
};

const BASE = '/api/settlement';

export const listStatements = (params: StatementFilters & { pageNo: number; pageSize: number }) =>
  requestResult<StatementPage>(`${BASE}/statements`, { params: { ...params } });

export const listSettleableOrders = () => requestResult<SettleableOrder[]>(`${BASE}/orders`);

export const previewStatement = (orderId: number) => requestResult<StatementFigures>(`${BASE}/preview`, { params: { orderId } });

export const issueStatement = (orderId: number) => requestResult<StatementView>(`${BASE}/statements`, { method: 'POST', data: { orderId } });

export const getStatement = (id: number) => requestResult<StatementView>(`${BASE}/statements/${id}`);

export const confirmStatement = (id: number, body: StatementConfirm) =>
  requestResult<StatementView>(`${BASE}/statements/${id}/confirm`, { method: 'POST', data: body });

export const disputeStatement = (id: number, reason: string) =>
  requestResult<StatementView>(`${BASE}/statements/${id}/dispute`, { method: 'POST', data: { reason } });

export const ruleStatement = (id: number, body: StatementRule) =>
  requestResult<StatementView>(`${BASE}/statements/${id}/rule`, { method: 'POST', data: body });

/** Saves the statement PDF (fetched with the token header, never in an address). */
export async function downloadStatementPdf(id: number, fileName: string): Promise<void> {
  const token = session.token();
  const response = await fetch(`${API_PREFIX}${BASE}/statements/${id}/pdf`, { headers: token ? { [TOKEN_HEADER]: token } : {} });
  if (!response.ok) throw new Error('结算单下载失败，请稍后重试');
  const href = URL.createObjectURL(await response.blob());
  const link = Object.assign(document.createElement('a'), { href, download: fileName });
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
