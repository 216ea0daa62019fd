import type { z } from 'zod';
import type {
  OrderDetailSchema,
  OrderFilter,
  OrderPageSchema,
  OrderPay,
  OrderPaymentPageSchema,
  OrderPaymentQuery,
  OrderSummary,
  OrderTerminate,
} from '@coalx/shared';
import { requestResult } from '@/app/request';

/** Order calls (apps/server/src/modules/order/order.routes.ts is the contract). */

export type { OrderSummary };
export type OrderDetail = z.infer<typeof OrderDetailSchema>;
export type OrderPage = z.infer<typeof OrderPageSchema>;
export type OrderPaymentPage = z.infer<typeof OrderPaymentPageSchema>;
export type OrderEvent = OrderDetail['timeline'][number];
/** The list filters (paging added by the call). */
export type OrderFilters = Partial<OrderFilter>;

/** TanStack Query keys, so paying on one page refreshes the others. */
export const ORDER_KEYS = {
  all: ['order'] as const,
  detail: (id: number) => ['order', 'detail', id] as const,
  byContract: (contractNo: string) => ['order', 'byContract', contractNo] as const,
};

export const ORDER_EXPORT_PATH = '/api/order/export';

export const listOrders = (params: OrderFilters & { pageNo: number; pageSize: number }) =>
  requestResult<OrderPage>('/api/order/list', { params: { ...params } });

export const getOrder = (id: number) => requestResult<OrderDetail>(`/api/order/${id}`);

export const listOrderPayments = (params: Partial<OrderPaymentQuery> & { pageNo: number; pageSize: number }) =>
  requestResult<OrderPaymentPage>('/api/order/payments', { params: { ...params } });

export const payOrder = (id: number, body: OrderPay) => requestResult<OrderDetail>(`/api/order/${id}/pay`, { method: 'POST', data: body });

export const terminateOrder = (id: number, body: OrderTerminate) =>
  requestResult<OrderDetail>(`/api/order/${id}/terminate`, { method: 'POST', data: body });

/** The order made from a contract, if any (the contract page links to it). */
export async function orderOfContract(contractNo: string): Promise<OrderSummary | null> {
  const page = await listOrders({ contractNo, pageNo: 1, pageSize: 10 });
  return page.records.find((r) => r.contractNo === contractNo) ?? null;
}
