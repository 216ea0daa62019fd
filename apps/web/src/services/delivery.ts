import type { z } from 'zod';
import {
  API_PREFIX,
  type DeliveryDay,
  type DeliveryOrder,
  type DeliveryOrderPage,
  type DispatchCancelSchema,
  type DispatchCreate,
  type DispatchDriver,
  type DispatchNote,
  type DispatchPage,
  type DispatchView,
  type DisputeAnswerSchema,
  type DisputeRulingSchema,
  type DisputeSchema,
  type OrderDelivery,
  type QualityReportAnswerSchema,
  type QualityReportCreate,
  type QualityReportView,
  type TransportQuery,
  type WeighTicketInput,
  type WeighTicketView,
} from '@coalx/shared';
import { requestResult, TOKEN_HEADER } from '@/app/request';
import { session } from '@/app/session';
import { fileNameOf } from '@/lib/download';

/** Delivery calls (apps/server/src/modules/delivery/delivery.routes.ts is the contract). */

export type { DeliveryDay, DeliveryOrder, DispatchDriver, DispatchNote, DispatchView, OrderDelivery, QualityReportView, WeighTicketView };
export type TransportFilters = Partial<Omit<TransportQuery, 'pageNo' | 'pageSize'>>;

export const DELIVERY_KEYS = {
  all: ['delivery'] as const,
  order: (orderId: number) => ['delivery', 'order', orderId] as const,
  daily: (orderId: number) => ['delivery', 'daily', orderId] as const,
  note: (id: number) => ['delivery', 'note', id] as const,
  gate: (token: string) => ['delivery', 'gate', token] as const,
};

const BASE = '/api/delivery';
export const TRANSPORT_EXPORT_PATH = `${BASE}/transport/export`;

export const getOrderDelivery = (orderId: number) => requestResult<OrderDelivery>(`${BASE}/order/${orderId}`);
export const getDeliveryDaily = (orderId: number) => requestResult<DeliveryDay[]>(`${BASE}/order/${orderId}/daily`);
export const listDispatchDrivers = (orderId: number) => requestResult<DispatchDriver[]>(`${BASE}/order/${orderId}/drivers`);
export const getDispatchNote = (id: number) => requestResult<DispatchNote>(`${BASE}/dispatch/${id}`);
export const getTruckAtGate = (token: string) => requestResult<DispatchNote>(`${BASE}/gate/${encodeURIComponent(token)}`);

export const listDeliveryOrders = (params: { pageNo: number; pageSize: number; orderNo?: string }) =>
  requestResult<DeliveryOrderPage>(`${BASE}/progress`, { params: { ...params } });
export const listTrucks = (params: TransportFilters & { pageNo: number; pageSize: number }) =>
  requestResult<DispatchPage>(`${BASE}/transport`, { params: { ...params } });
export const listSignFor = (params: { pageNo: number; pageSize: number; status?: 'arrived' | 'disputed'; answer?: 'pending' }) => requestResult<DispatchPage>(`${BASE}/sign-for`, { params: { ...params } });

export const dispatchTruck = (body: DispatchCreate) => requestResult<DispatchView>(`${BASE}/dispatch`, { method: 'POST', data: body });
export const cancelTruck = (id: number, body: z.infer<typeof DispatchCancelSchema>) =>
  requestResult<DispatchView>(`${BASE}/dispatch/${id}/cancel`, { method: 'POST', data: body });
export const recordTicket = (id: number, stage: 'loading' | 'arrival', body: WeighTicketInput) =>
  requestResult<DispatchView>(`${BASE}/dispatch/${id}/${stage}`, { method: 'POST', data: body });
export const signForTruck = (id: number) => requestResult<DispatchView>(`${BASE}/dispatch/${id}/sign`, { method: 'POST', data: {} });
export const disputeTruck = (id: number, body: z.input<typeof DisputeSchema>) =>
  requestResult<DispatchView>(`${BASE}/dispatch/${id}/dispute`, { method: 'POST', data: body });
export const answerDispute = (id: number, body: z.infer<typeof DisputeAnswerSchema>) =>
  requestResult<DispatchView>(`${BASE}/dispatch/${id}/answer`, { method: 'POST', data: body });
export const ruleDispute = (id: number, body: z.input<typeof DisputeRulingSchema>) =>
  requestResult<DispatchView>(`${BASE}/dispatch/${id}/rule`, { method: 'POST', data: body });
export const finishDelivery = (orderId: number) => requestResult<OrderDelivery>(`${BASE}/order/${orderId}/finish`, { method: 'POST', data: {} });
export const submitQualityReport = (orderId: number, body: QualityReportCreate) =>
  requestResult<QualityReportView>(`${BASE}/order/${orderId}/quality-report`, { method: 'POST', data: body });
export const answerQualityReport = (id: number, body: z.input<typeof QualityReportAnswerSchema>) =>
  requestResult<QualityReportView>(`${BASE}/quality-report/${id}/answer`, { method: 'POST', data: body });

/**
 * Opens a ticket photo or dispute photo of the order in a new tab, or saves a lab report (fetched with the token
 * header). Only a picture is shown from a blob address; a PDF, which may carry JavaScript, is saved, never opened
 * as a document of the platform's origin (the server answers it as a sandboxed download too).
 */
export async function openOrderFile(orderId: number, fileId: number): Promise<void> {
  const tab = window.open('', '_blank');
  try {
    const token = session.token();
    const response = await fetch(`${API_PREFIX}${BASE}/order/${orderId}/files/${fileId}`, { headers: token ? { [TOKEN_HEADER]: token } : {} });
    if (!response.ok) throw new Error(response.status === 404 ? '文件不存在或已删除' : '文件加载失败，请稍后重试');
    const blob = await response.blob();
    const url = URL.createObjectURL(blob);
    if (/^image\/(png|jpeg)$/.test(blob.type)) {
      if (tab) tab.location.href = url;
      else window.location.assign(url);
    } else {
      tab?.close();
      const link = Object.assign(document.createElement('a'), { href: url, download: fileNameOf(response.headers.get('content-disposition'), '化验单.pdf') });
      document.body.appendChild(link);
      link.click();
      link.remove();
    }
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  } catch (error) {
    tab?.close();
    throw error;
  }
}
