import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { gradientPng } from '../apps/server/src/lib/simple-png';
import { api, ensurePayPassword, login, payHash, type Session } from './api';
import { ACCOUNTS } from './browser';

const SELLER_NAME = '晋北煤业集团有限公司';
/** a small image standing for a scan or a photo (paper contract, weigh ticket, lab report) */
export const PHOTO = gradientPng(64, 48, [40, 40, 40], [220, 220, 200]);

export interface ChainOrder {
  id: number;
  orderNo: string;
  contractNo: string;
  status: string;
}

export async function uploadImage(token: string, name: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([PHOTO], { type: 'image/png' }), name);
  return (await api<{ url: string }>('/api/common/upload', { token, form })).url;
}

/**
 * An order waiting for its prepayment, made through the API the way the pages make it: buyer01 subscribes
 * `quantityKg` of an open seller01 listing (an amount no demo deal and no other spec has, so the deal is found by
 * it), the seller sets the contract terms, uploads the paper copy signed by both and the operator accepts it: the
 * contract takes effect and its order is made.
 */
export async function unpaidOrder(quantityKg: number, terms: Record<string, unknown>) {
  const buyer = await login(ACCOUNTS.buyer);
  const seller = await login(ACCOUNTS.seller);
  const operator = await login({ username: 'operator', password: 'Operator#2026' });
  await ensurePayPassword(buyer);
  const market = await api<{ records: { tradeId: string; enterpriseName: string; hangState: number; remainingQuantity: number; minSubscribe: number; maxSubscribe: number }[] }>('/api/tradeHome/listedTrade/list', {
    body: { pageNo: 1, pageSize: 50, tradeType: 0 },
  });
  const listing = market.records.find(
    (r) =>
      r.enterpriseName === SELLER_NAME &&
      r.hangState === 1 &&
      r.remainingQuantity >= quantityKg &&
      r.minSubscribe <= quantityKg &&
      r.maxSubscribe >= quantityKg,
  );
  expect(listing, 'an open listing sale of seller01 in the demo data').toBeTruthy();
  const sub = await api<{ id: number; status: string }>('/api/listedAnswerApply', {
    token: buyer.token,
    body: { tradeId: listing!.tradeId, quantity: quantityKg, requestId: randomUUID(), payPassword: payHash(buyer.enterPriseInfo.clientId) },
  });
  if (sub.status !== 'confirmed') await api('/api/listedRecord/answerOrdersDeal', { token: seller.token, body: { id: sub.id, action: 'confirm' } });
  const deals = await api<{ records: { dealNo: string; quantity: number }[] }>('/api/mydealListedTradeList', { token: buyer.token, body: { tradeId: listing!.tradeId, pageNo: 1, pageSize: 50 } });
  const deal = deals.records.find((d) => d.quantity === quantityKg);
  expect(deal).toBeTruthy();
  type Contract = { id: number; contractNo: string; terms: Record<string, unknown> };
  let contract: Contract | null = null;
  await expect
    .poll(
      async () => {
        contract = await api<Contract>(`/api/contract/by-deal/${deal!.dealNo}`, { token: seller.token }).catch(() => null);
        return contract !== null;
      },
      { timeout: 90_000, intervals: [1_000] },
    )
    .toBe(true);
  const made: Contract = contract!;
  await api(`/api/contract/${made.id}/terms`, { method: 'PUT', token: seller.token, body: { terms: { ...made.terms, ...terms } } });
  const form = new FormData();
  form.append('file', new Blob([PHOTO], { type: 'image/png' }), '纸质合同.png');
  const uploaded = await api<{ uploads: { id: number; status: string }[] }>(`/api/contract/${made.id}/upload`, { token: seller.token, form });
  const paper = uploaded.uploads.find((u) => u.status === 'submitted')!;
  await api(`/api/contract/${made.id}/uploads/${paper.id}/review`, { token: operator.token, body: { accept: true, note: '与生成文本一致' } });
  let order: ChainOrder | undefined;
  await expect
    .poll(
      async () => {
        const page = await api<{ records: ChainOrder[] }>(`/api/order/list?contractNo=${made.contractNo}`, { token: seller.token });
        order = page.records.find((o) => o.contractNo === made.contractNo);
        return order?.status;
      },
      { timeout: 90_000, intervals: [1_000] },
    )
    .toBe('unpaid');
  return { order: order!, contract: made, buyer, seller, operator } as { order: ChainOrder; contract: Contract; buyer: Session; seller: Session; operator: Session };
}
