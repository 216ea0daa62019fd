import { describe, expect, it } from 'vitest';
import { canPayOrder, orderCounterparty, signedProgress } from './order';

const progress = { plannedKg: 0, dispatchedTrucks: 0, loadedKg: 0, loadedTrucks: 0, arrivedKg: 0, arrivedTrucks: 0, signedKg: 0, signedTrucks: 0 };

describe('order helpers', () => {
  it('names the other party, none for the trading centre', () => {
    expect(orderCounterparty({ mySide: 'buyer', sellerName: '甲', buyerName: '乙' })).toBe('甲');
    expect(orderCounterparty({ mySide: 'seller', sellerName: '甲', buyerName: '乙' })).toBe('乙');
    expect(orderCounterparty({ mySide: null, sellerName: '甲', buyerName: '乙' })).toBeNull();
  });

  it('shows signed tons against the contract and caps the bar at 100 %', () => {
    expect(signedProgress({ quantity: 500_000, progress: { ...progress, signedKg: 125_500 } })).toEqual({ text: '已签收 125.50 / 合同 500.00 吨', percent: 25 });
    expect(signedProgress({ quantity: 500_000, progress: { ...progress, signedKg: 520_000 } }).percent).toBe(100);
    expect(signedProgress({ quantity: 0, progress }).percent).toBe(0);
  });

  it('only the buyer pays, only while unpaid', () => {
    expect(canPayOrder({ mySide: 'buyer', status: 'unpaid' })).toBe(true);
    expect(canPayOrder({ mySide: 'seller', status: 'unpaid' })).toBe(false);
    expect(canPayOrder({ mySide: 'buyer', status: 'awaiting_shipment' })).toBe(false);
  });
});
