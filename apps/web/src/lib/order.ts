import { formatTons, type OrderSummary } from '@coalx/shared';

/** Pure helpers of the order pages (tested alone). */

export const ORDER_STATUS_COLOR: Record<string, string> = {
  unpaid: 'orange',
  awaiting_shipment: 'blue',
  shipping: 'processing',
  awaiting_settlement: 'purple',
  settled: 'cyan',
  completed: 'success',
  terminated: 'default',
};

/** The other party's name; for the trading centre (no side) null. */
export function orderCounterparty(o: Pick<OrderSummary, 'mySide' | 'sellerName' | 'buyerName'>): string | null {
  if (o.mySide === 'seller') return o.buyerName;
  if (o.mySide === 'buyer') return o.sellerName;
  return null;
}

/** 已签收 x / 合同 y 吨, and the share signed (0–100, whole percent, capped at 100 for the bar). */
export function signedProgress(o: Pick<OrderSummary, 'quantity' | 'progress'>): { text: string; percent: number } {
  const signed = o.progress.signedKg;
  const percent = o.quantity > 0 ? Math.min(100, Math.floor((signed * 100) / o.quantity)) : 0;
  return { text: `已签收 ${formatTons(signed, false)} / 合同 ${formatTons(o.quantity)}`, percent };
}

/** The buyer may pay this order now (the server checks again). */
export const canPayOrder = (o: Pick<OrderSummary, 'mySide' | 'status'>) => o.mySide === 'buyer' && o.status === 'unpaid';
