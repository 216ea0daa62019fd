import { contractKindOf, defaultContractTerms, type ContractContext, type ContractParty } from '@coalx/shared';
import { and, eq, gte, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { auctions, contracts, deals, enterprises, listings } from '../db/schema/index';
import type { Clock } from '../lib/clock';
import type { EventBus } from '../lib/events';
import { startSweep } from '../lib/sweep';
import { contractForOrder, contractOfDeal, insertContract } from '../modules/contract/contract.service';
import { callOffForContract } from '../modules/long-term/call-offs.service';
import { priceBasisText } from '../modules/long-term/pricing.service';
import { currentTemplate } from '../modules/contract/template.service';
import type { FileStorage } from '../modules/files/storage';
import { performanceDepositOf } from '../modules/funds/trade-deposits.service';
import { parameterNumber, workingDaysDeadline } from '../modules/system/calendar';

type Enterprise = typeof enterprises.$inferSelect;

export function partyOf(e: Enterprise): ContractParty {
  return {
    name: e.organName,
    creditCode: e.creditCode,
    legalRepresentative: e.legalPerson,
    address: e.address,
    phone: e.contactMobile,
    bankName: [e.bankName, e.bankBranch].filter(Boolean).join(' '),
    bankAccount: e.bankAccountNo,
  };
}

/**
 * Makes the contract of one deal (DESIGN.md §8): the parties as registered now, the goods and delivery of the
 * listing or auction, default terms from the system parameters, the current template of the deal's kind and a
 * deadline of N working days. Idempotent: a deal that has its contract is left alone, and of two makers racing
 * (the event listener and the sweep, or two processes) the unique deal id keeps one.
 */
export async function makeContractForDeal(db: Db, storage: FileStorage, clock: Clock, dealId: number) {
  if (await contractOfDeal(db, dealId)) return null;
  const [deal] = await db.select().from(deals).where(eq(deals.id, dealId)).limit(1);
  if (!deal) return null;
  if (deal.tradeKind === 'long_term') return makeCallOffContract(db, storage, clock, deal);
  const trade =
    deal.tradeKind === 'listing'
      ? (await db.select().from(listings).where(eq(listings.tradeNo, deal.tradeNo)).limit(1))[0]
      : (await db.select().from(auctions).where(eq(auctions.tradeNo, deal.tradeNo)).limit(1))[0];
  if (!trade) throw new Error(`deal ${deal.dealNo}: trade ${deal.tradeNo} not found`);
  const parties = await db.select().from(enterprises).where(sql`${enterprises.id} IN (${deal.sellerEnterpriseId}, ${deal.buyerEnterpriseId})`);
  const seller = parties.find((e) => e.id === deal.sellerEnterpriseId)!;
  const buyer = parties.find((e) => e.id === deal.buyerEnterpriseId)!;
  const kind = contractKindOf(deal.tradeType);
  const template = await currentTemplate(db, kind);

  // the counterparty's deposit (subscription or enrolment) became its performance deposit at the deal
  const depositOf = (enterpriseId: number) =>
    performanceDepositOf(db, {
      tradeKind: deal.tradeKind as 'listing' | 'auction',
      tradeId: deal.tradeNo,
      enterpriseId,
      refId: deal.tradeKind === 'listing' ? String(deal.sourceId) : undefined,
    });
  const [sellerDeposit, buyerDeposit] = await Promise.all([depositOf(seller.id), depositOf(buyer.id)]);

  const terms = defaultContractTerms({
    priceType: trade.priceType,
    deliveryPlace: [trade.deliveryProvince, trade.deliveryCity, trade.deliveryDistrict, trade.deliveryPlace].filter(Boolean).join(''),
    deliveryDateStart: String(trade.deliveryDateStart),
    deliveryDateEnd: String(trade.deliveryDateEnd),
    quality: trade.quality,
  });
  terms.quantityTolerancePct = await parameterNumber(db, 'contract_quantity_tolerance_pct');
  terms.transitLossPct = await parameterNumber(db, 'contract_transit_loss_pct');
  terms.prepaymentPct = await parameterNumber(db, 'contract_prepayment_pct');
  terms.paymentWorkingDays = await parameterNumber(db, 'contract_payment_working_days');
  const signDeadline = await workingDaysDeadline(db, deal.createdAt, await parameterNumber(db, 'contract_sign_working_days'));

  const context: ContractContext = {
    kind,
    // one contract per deal: its number follows the deal's (CJ202611230001 → HT202611230001)
    contractNo: `HT${deal.dealNo.slice(2)}`,
    dealNo: deal.dealNo,
    tradeNo: deal.tradeNo,
    tradeType: deal.tradeType,
    dealAt: deal.createdAt.toISOString(),
    signDeadline: signDeadline.toISOString(),
    seller: partyOf(seller),
    buyer: partyOf(buyer),
    productName: deal.productName,
    stockCode: deal.stockCode,
    quality: trade.quality,
    quantityKg: deal.quantityKg,
    priceFen: deal.priceFen,
    amountFen: deal.amountFen,
    priceType: trade.priceType,
    transport: trade.transport,
    depositFen: (sellerDeposit?.amount ?? 0) + (buyerDeposit?.amount ?? 0),
    terms,
    // an auction's deal names the final hash of its public bid log; the auction has ended, so the log is closed
    bidLogHash: 'bidLogHash' in trade ? trade.bidLogHash : null,
  };
  return insertContract(db, storage, {
    dealId,
    kind,
    templateId: template.id,
    templateBody: template.body,
    sellerEnterpriseId: seller.id,
    buyerEnterpriseId: buyer.id,
    context,
    signDeadline,
    sellerDepositId: sellerDeposit?.id ?? null,
    buyerDepositId: buyerDeposit?.id ?? null,
    createdAt: clock.now(),
  });
}

/**
 * A long-term call-off's contract (长协月度合同): the framework contract's terms as signed, with the call-off's
 * delivery window, quantity and the month's price, and the framework and price basis named in the text.
 */
async function makeCallOffContract(db: Db, storage: FileStorage, clock: Clock, deal: typeof deals.$inferSelect) {
  const source = await callOffForContract(db, deal.sourceId);
  if (!source) throw new Error(`deal ${deal.dealNo}: call-off ${deal.sourceId} not found`);
  const { callOff, deal: longTerm, price } = source;
  const framework = longTerm.contractId !== null ? await contractForOrder(db, longTerm.contractId) : null;
  if (!framework) throw new Error(`deal ${deal.dealNo}: framework contract of ${longTerm.longTermNo} not found`);
  const parties = await db.select().from(enterprises).where(sql`${enterprises.id} IN (${deal.sellerEnterpriseId}, ${deal.buyerEnterpriseId})`);
  const seller = parties.find((e) => e.id === deal.sellerEnterpriseId)!;
  const buyer = parties.find((e) => e.id === deal.buyerEnterpriseId)!;
  const template = await currentTemplate(db, 'long_term_monthly');
  const signDeadline = await workingDaysDeadline(db, deal.createdAt, await parameterNumber(db, 'contract_sign_working_days'));
  const terms = { ...framework.terms, deliveryDateStart: callOff.deliveryDateStart, deliveryDateEnd: callOff.deliveryDateEnd };
  const context: ContractContext = {
    kind: 'long_term_monthly',
    contractNo: `HT${deal.dealNo.slice(2)}`,
    dealNo: deal.dealNo,
    tradeNo: deal.tradeNo,
    tradeType: deal.tradeType,
    dealAt: deal.createdAt.toISOString(),
    signDeadline: signDeadline.toISOString(),
    seller: partyOf(seller),
    buyer: partyOf(buyer),
    productName: deal.productName,
    stockCode: deal.stockCode,
    quality: longTerm.quality,
    quantityKg: deal.quantityKg,
    priceFen: deal.priceFen,
    amountFen: deal.amountFen,
    priceType: longTerm.priceType,
    transport: longTerm.transport,
    depositFen: 0,
    terms,
    longTerm: {
      longTermNo: longTerm.longTermNo,
      periodStart: longTerm.periodStart,
      periodEnd: longTerm.periodEnd,
      frameworkContractNo: framework.contractNo,
      month: callOff.month,
      priceBasis: priceBasisText(price),
    },
  };
  return insertContract(db, storage, {
    dealId: deal.id,
    kind: 'long_term_monthly',
    templateId: template.id,
    templateBody: template.body,
    sellerEnterpriseId: seller.id,
    buyerEnterpriseId: buyer.id,
    context,
    signDeadline,
    sellerDepositId: null,
    buyerDepositId: null,
    createdAt: clock.now(),
  });
}

/** Deals without a contract (made before a crash, or while a maker failed), made `since` if given: the sweep makes theirs. */
export async function dealsWithoutContract(db: Db, limit = 200, since?: Date): Promise<number[]> {
  const rows = await db
    .select({ id: deals.id })
    .from(deals)
    .leftJoin(contracts, eq(contracts.dealId, deals.id))
    .where(and(isNull(contracts.id), since ? gte(deals.createdAt, since) : undefined))
    .orderBy(deals.id)
    .limit(limit);
  return rows.map((r) => r.id);
}

export async function makeMissingContracts(db: Db, storage: FileStorage, clock: Clock, onError: (err: unknown, dealId: number) => void, since?: Date) {
  let made = 0;
  for (const dealId of await dealsWithoutContract(db, 200, since)) {
    try {
      if (await makeContractForDeal(db, storage, clock, dealId)) made++;
    } catch (err) {
      onError(err, dealId);
    }
  }
  return made;
}

/**
 * A deal's contract follows its `deal.created` event at once; a sweep at start-up and every minute makes any a
 * crash or a failure left out, so no deal stays without its contract.
 */
const SWEEP_WINDOW_MS = 7 * 24 * 3600_000;

export function contractFollowUps(
  bus: EventBus,
  app: { db: Db; storage: FileStorage; clock: Clock; log: { error(obj: object, msg: string): void } },
  sweepEveryMs = 60_000,
): Array<() => void> {
  const onError = (err: unknown, dealId: number) => app.log.error({ err, dealId }, 'contract generation failed');
  // the first round after a start reads every deal (a crash may have left any without its contract); later rounds
  // only the last week's, from the deal time index, so an idle market's round does not read the whole year
  let rounds = 0;
  const sweep = () => {
    const since = rounds++ === 0 ? undefined : new Date(app.clock.now().getTime() - SWEEP_WINDOW_MS);
    return makeMissingContracts(app.db, app.storage, app.clock, onError, since).catch((err) => app.log.error({ err }, 'contract sweep failed'));
  };
  return [
    bus.on('deal.created', ({ dealId }) => makeContractForDeal(app.db, app.storage, app.clock, dealId).catch((err) => onError(err, dealId))),
    startSweep(sweep, sweepEveryMs),
  ];
}
