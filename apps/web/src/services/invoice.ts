import type { z } from 'zod';
import {
  API_PREFIX,
  type InvoiceConfirmSchema,
  type InvoiceCreate,
  type InvoiceDue,
  type InvoiceDuePageSchema,
  type InvoiceDueQuery,
  type InvoicePage,
  type InvoiceQuery,
  type InvoiceReverse,
  type InvoiceView,
  type OrderInvoices,
} from '@coalx/shared';
import { requestResult, TOKEN_HEADER } from '@/app/request';
import { session } from '@/app/session';

/** VAT invoice calls (apps/server/src/modules/invoice/invoice.routes.ts is the contract). */

export type { InvoiceDue, InvoiceView, OrderInvoices };
export type InvoiceFilters = Partial<Omit<InvoiceQuery, 'pageNo' | 'pageSize'>>;
export type InvoiceDuePage = z.infer<typeof InvoiceDuePageSchema>;

const BASE = '/api/invoice';
export const INVOICE_EXPORT_PATH = `${BASE}/export`;

export const listInvoices = (params: InvoiceFilters & { pageNo: number; pageSize: number }) => requestResult<InvoicePage>(`${BASE}/list`, { params: { ...params } });
export const listInvoiceDue = (params: Partial<InvoiceDueQuery>) => requestResult<InvoiceDuePage>(`${BASE}/due`, { params: { ...params } });
export const getOrderInvoices = (orderId: number) => requestResult<OrderInvoices>(`${BASE}/order/${orderId}`);
export const registerInvoice = (orderId: number, body: InvoiceCreate) => requestResult<InvoiceView>(`${BASE}/order/${orderId}`, { method: 'POST', data: body });
export const confirmInvoice = (id: number, body: z.input<typeof InvoiceConfirmSchema> = {}) => requestResult<InvoiceView>(`${BASE}/${id}/confirm`, { method: 'POST', data: body });
export const reverseInvoice = (id: number, body: InvoiceReverse) => requestResult<InvoiceView>(`${BASE}/${id}/reverse`, { method: 'POST', data: body });

/** The invoice's file as a blob (fetched with the token header, never a token in the address). */
export async function fetchInvoiceFile(id: number): Promise<Blob> {
  const token = session.token();
  const response = await fetch(`${API_PREFIX}${BASE}/${id}/file`, { headers: token ? { [TOKEN_HEADER]: token } : {} });
  if (!response.ok) throw new Error(response.status === 404 ? '文件不存在或已删除' : '文件加载失败，请稍后重试');
  return response.blob();
}
