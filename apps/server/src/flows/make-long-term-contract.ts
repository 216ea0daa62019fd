import { TradeType, amountFen, defaultContractTerms, monthDays, type ContractContext } from '@coalx/shared';
import type { Db } from '../db/client';
import type { Clock } from '../lib/clock';
import { contractOfLongTerm, insertContract } from '../modules/contract/contract.service';
import { currentTemplate } from '../modules/contract/template.service';
import { findEnterprise } from '../modules/enterprise/enterprise.service';
import type { FileStorage } from '../modules/files/storage';
import { attachFrameworkContract, longTermForContract } from '../modules/long-term/lifecycle.service';
import { pricingClauses } from '../modules/long-term/pricing.service';
import { parameterNumber, workingDaysDeadline } from '../modules/system/calendar';
import { partyOf } from './make-contract';

/**
 * A long-term deal's framework contract (DESIGN.md §8 "Long-term deals"): made from the long-term template when the
 * seller accepts an application (`longterm.accepted`, long-term-follow-ups.ts), signed by both as any contract.
 * Idempotent: a contract made already is attached instead.
 */
export async function makeFrameworkContract(db: Db, storage: FileStorage, clock: Clock, longTermId: number) {
  const existing = await contractOfLongTerm(db, longTermId);
  if (existing) {
    await attachFrameworkContract(db, longTermId, existing.id);
    return null;
  }
  const source = await longTermForContract(db, longTermId);
  if (!source || source.deal.status !== 'signing' || source.deal.buyerEnterpriseId === null) return null;
  const { deal, months } = source;
  const [seller, buyer] = await Promise.all([findEnterprise(db, deal.sellerEnterpriseId), findEnterprise(db, deal.buyerEnterpriseId!)]);
  if (!seller || !buyer) throw new Error(`long-term ${deal.longTermNo}: a party is missing`);
  const template = await currentTemplate(db, 'long_term');
  const now = clock.now();
  const dealAt = deal.acceptedAt ?? now;
  const terms = defaultContractTerms({
    priceType: deal.priceType,
    deliveryPlace: [deal.deliveryProvince, deal.deliveryCity, deal.deliveryDistrict, deal.deliveryPlace].filter(Boolean).join(''),
    deliveryDateStart: monthDays(deal.periodStart).first,
    deliveryDateEnd: monthDays(deal.periodEnd).last,
    quality: deal.quality,
  });
  terms.quantityTolerancePct = await parameterNumber(db, 'contract_quantity_tolerance_pct');
  terms.transitLossPct = await parameterNumber(db, 'contract_transit_loss_pct');
  terms.prepaymentPct = await parameterNumber(db, 'contract_prepayment_pct');
  terms.paymentWorkingDays = await parameterNumber(db, 'contract_payment_working_days');
  const signDeadline = await workingDaysDeadline(db, dealAt, await parameterNumber(db, 'contract_sign_working_days'));
  const context: ContractContext = {
    kind: 'long_term',
    // the framework's number follows the deal's (CX202611240001 → HTCX202611240001), apart from spot contracts' HT + date
    contractNo: `HT${deal.longTermNo}`,
    dealNo: deal.longTermNo,
    tradeNo: deal.longTermNo,
    tradeType: TradeType.listingSale,
    dealAt: dealAt.toISOString(),
    signDeadline: signDeadline.toISOString(),
    seller: partyOf(seller),
    buyer: partyOf(buyer),
    productName: deal.productName,
    stockCode: deal.stockCode,
    quality: deal.quality,
    quantityKg: deal.plannedKg,
    priceFen: deal.pricing.basePriceFen,
    amountFen: Number(amountFen(deal.pricing.basePriceFen, deal.plannedKg)),
    priceType: deal.priceType,
    transport: deal.transport,
    depositFen: 0,
    terms,
    longTerm: {
      longTermNo: deal.longTermNo,
      periodStart: deal.periodStart,
      periodEnd: deal.periodEnd,
      months: months.map((m) => ({ month: m.month, plannedKg: m.plannedKg })),
      pricingClauses: pricingClauses(deal.pricing),
    },
  };
  const row = await insertContract(db, storage, {
    dealId: null,
    longTermId,
    kind: 'long_term',
    templateId: template.id,
    templateBody: template.body,
    sellerEnterpriseId: seller.id,
    buyerEnterpriseId: buyer.id,
    context,
    signDeadline,
    sellerDepositId: null,
    buyerDepositId: null,
    createdAt: now,
  });
  const made = row ?? (await contractOfLongTerm(db, longTermId));
  if (made) await attachFrameworkContract(db, longTermId, made.id);
  return row;
}
