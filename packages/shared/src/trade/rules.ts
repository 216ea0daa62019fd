import { formatPrice } from '../format';
import { amountFen } from '../money';
import { isSale } from './types';

/**
 * Trading rules that the server enforces and the browser says before sending: one copy, so the two can never
 * disagree (money in integer fen, quantities in integer kg).
 */

/** What a bid is judged against: the auction's prices as the API names them. */
export interface BidPriceRules {
  tradeType: number;
  startPrice: number;
  bestPrice: number | null;
  minStep: number;
  maxStep: number | null;
  limitPrice: number | null;
}

/** Why `price` is not acceptable now, or null. Sale: up from the start price; purchase: down from the base price. */
export function bidPriceRefusal(a: BidPriceRules, price: number): string | null {
  return bidPriceProblem(a, price)?.message ?? null;
}

/**
 * The refusal with its code: `bid_too_low` when the price does not improve enough on the best (or start) price,
 * `bid_too_high` when it jumps past the largest step or the cap / floor.
 */
export function bidPriceProblem(a: BidPriceRules, price: number): { code: 'bid_too_low' | 'bid_too_high'; message: string } | null {
  const low = (message: string) => ({ code: 'bid_too_low' as const, message });
  const high = (message: string) => ({ code: 'bid_too_high' as const, message });
  if (!Number.isInteger(price) || price <= 0) return low('出价须大于 0');
  const sale = isSale(a.tradeType);
  const best = a.bestPrice;
  if (best === null) {
    if (sale && price < a.startPrice) return low(`首次出价须不低于起拍价 (${formatPrice(a.startPrice)})`);
    if (!sale && price > a.startPrice) return low(`首次出价须不高于基价 (${formatPrice(a.startPrice)})`);
    if (a.maxStep !== null && Math.abs(price - a.startPrice) > a.maxStep) {
      return high(sale ? `出价不能高于起拍价加最大加价幅度 (${formatPrice(a.startPrice + a.maxStep)})` : `出价不能低于基价减最大降价幅度 (${formatPrice(a.startPrice - a.maxStep)})`);
    }
  } else if (sale) {
    if (price < best + a.minStep) return low(`出价须不低于当前价加最小加价幅度 (${formatPrice(best + a.minStep)})`);
    if (a.maxStep !== null && price > best + a.maxStep) return high(`出价不能高于当前价加最大加价幅度 (${formatPrice(best + a.maxStep)})`);
  } else {
    if (price > best - a.minStep) return low(`出价须不高于当前价减最小降价幅度 (${formatPrice(best - a.minStep)})`);
    if (a.maxStep !== null && price < best - a.maxStep) return high(`出价不能低于当前价减最大降价幅度 (${formatPrice(best - a.maxStep)})`);
  }
  if (a.limitPrice !== null && sale && price > a.limitPrice) return high(`出价不能高于出价上限 (${formatPrice(a.limitPrice)})`);
  if (a.limitPrice !== null && !sale && price < a.limitPrice) return high(`出价不能低于出价下限 (${formatPrice(a.limitPrice)})`);
  return null;
}

/** Is `price` better than `than` in this auction's direction (sale: higher, purchase: lower)? */
export const isBetterBid = (tradeType: number, price: number, than: number) => (isSale(tradeType) ? price > than : price < than);

/** Deadline after an accepted bid at `at` (延时竞价): the regular end while bids come in early, then bid time + period. */
export function deadlineAfterBid(a: { bidEnd: Date; extensionSeconds: number }, at: Date): Date {
  return new Date(Math.max(a.bidEnd.getTime(), at.getTime()) + a.extensionSeconds * 1000);
}

/** Deposit of a subscription: per ton subscribed, or a fixed sum per subscription. */
export function subscriptionDeposit(depositMode: string, depositValueFen: number, quantityKg: number): number {
  return depositMode === 'per_ton' ? Number(amountFen(depositValueFen, quantityKg)) : depositValueFen;
}
