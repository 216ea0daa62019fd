import { TradeType, amountFen, defaultContractTerms, monthDays, type ContractContext } from '@coalx/shared';
import type { Db } from '../db/client';
import type { Clock } from '../lib/clock';
import type { EventBus } from '../lib/events';
import { startSweep } from '../lib/sweep';
import {
  contractForOrder,
  contractOfLongTerm,
  insertContract,
  markContractCompleted,
  markContractPerforming,
} from '../modules/contract/contract.service';
import { currentTemplate } from '../modules/contract/template.service';
import { findEnterprise } from '../modules/enterprise/enterprise.service';
import type { FileStorage } from '../modules/files/storage';
import {
  attachFrameworkContract,
  endedLongTerms,
  expireLongTerm,
  longTermForContract,
  longTermsWithoutContract,
  pricingClauses,
  signingLongTerms,
  startExecution,
  terminateForVoidedContract,
} from '../modules/long-term/long-term.service';
import { parameterNumber, workingDaysDeadline } from '../modules/system/calendar';
import { partyOf } from './make-contract';

/**
 * A long-term deal's framework contract (DESIGN.md §8 "Long-term deals"): made from the long-term template when the
 * seller accepts an application, signed by both as any contract; its taking effect starts the deal's execution, its
 * voiding ends the deal, and the period's end completes both. Every step is idempotent and swept every minute, so
 * a crash between two steps is caught up.
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

/** The framework contract took effect: the deal is in execution and the contract 履行中, in one transaction. */
export async function startLongTermOfContract(db: Db, clock: Clock, contractId: number) {
  const contract = await contractForOrder(db, contractId);
  if (!contract || contract.longTermId === null || contract.status !== 'effective') return false;
  const now = clock.now();
  return db.transaction(async (tx) => {
    const started = await startExecution(tx, contract.longTermId!, now);
    await markContractPerforming(tx, contract.id, now, '长协执行期开始，按月发起调运');
    return started;
  });
}

/** The framework contract was voided: the deal ends (已终止). */
export async function endLongTermOfVoidedContract(db: Db, clock: Clock, contractId: number) {
  const contract = await contractForOrder(db, contractId);
  if (!contract || contract.longTermId === null || contract.status !== 'voided') return;
  await db.transaction((tx) => terminateForVoidedContract(tx, contract.longTermId!, clock.now(), `框架合同已作废：${contract.voidReason ?? ''}`));
}

/** Scheduled: deals whose last month is over are 已到期 and their framework contracts 已完成. */
export async function expireLongTerms(db: Db, now: Date): Promise<number> {
  let expired = 0;
  for (const deal of await endedLongTerms(db, now)) {
    await db.transaction(async (tx) => {
      if (!(await expireLongTerm(tx, deal.id, now))) return;
      expired++;
      if (deal.contractId !== null) await markContractCompleted(tx, deal.contractId, now, '长协合同期满');
    });
  }
  return expired;
}

async function sweep(db: Db, storage: FileStorage, clock: Clock, onError: (err: unknown, id: number) => void) {
  for (const id of await longTermsWithoutContract(db)) await makeFrameworkContract(db, storage, clock, id).catch((err) => onError(err, id));
  for (const deal of await signingLongTerms(db)) {
    if (deal.contractId !== null) await startLongTermOfContract(db, clock, deal.contractId).catch((err) => onError(err, deal.id));
  }
}

export function longTermFollowUps(
  bus: EventBus,
  app: { db: Db; storage: FileStorage; clock: Clock; log: { error(obj: object, msg: string): void } },
  sweepEveryMs = 60_000,
): Array<() => void> {
  const onError = (err: unknown, id: number) => app.log.error({ err, id }, 'long-term follow-up failed');
  const run = () => sweep(app.db, app.storage, app.clock, onError).catch((err) => app.log.error({ err }, 'long-term sweep failed'));
  return [
    bus.on('longterm.accepted', ({ id }) => makeFrameworkContract(app.db, app.storage, app.clock, id).catch((err) => onError(err, id))),
    bus.on('contract.effective', ({ id }) => startLongTermOfContract(app.db, app.clock, id).catch((err) => onError(err, id))),
    bus.on('contract.voided', ({ id }) => endLongTermOfVoidedContract(app.db, app.clock, id).catch((err) => onError(err, id))),
    startSweep(run, sweepEveryMs),
  ];
}
