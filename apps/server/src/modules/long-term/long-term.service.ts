import {
  CALL_OFF_STATUS,
  ORDER_STATUS,
  CallOffStates,
  LONG_TERM_APPLICATION_STATUS,
  LONG_TERM_STATUS,
  LongTermApplicationStates,
  LongTermStates,
  PRICING_MODES,
  TradeType,
  amountFen,
  formatDateTime,
  formatPrice,
  fulfilmentRate,
  monthDays,
  monthPrice,
  monthText,
  monthsBetween,
  type CallOff,
  type CallOffCreate,
  type Fulfilment,
  type LongTermAction,
  type LongTermDetail,
  type LongTermMonth,
  type LongTermOffer,
  type LongTermPricing,
  type LongTermQuery,
  type LongTermSummary,
  type MonthPrice,
} from '@coalx/shared';
import { and, asc, count, desc, eq, ilike, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import {
  longTermApplications,
  longTermCallOffs,
  longTermDeals,
  longTermMonths,
  type LongTermCallOffRow,
  type LongTermDealRow,
  type LongTermMonthRow,
} from '../../db/schema/index';
import { appError, businessRule, notFound } from '../../errors';
import type { Actor } from '../../lib/actor';
import type { Clock } from '../../lib/clock';
import { publish } from '../../lib/events';
import { shanghaiDate } from '../../lib/shanghai-time';
import { nextTradeNumber } from '../../lib/trade-number';
import { transition } from '../../lib/transition';
import { contractsByIds, contractsOfDeals, markContractTerminated } from '../contract/contract.service';
import { createDeal } from '../deal/deal.service';
import { enterpriseNames, findEnterprise, enterpriseByCreditCode } from '../enterprise/enterprise.service';
import { indexTermsBefore } from '../market-index/market-index.service';
import { deliveryOfDeals } from '../order/order-delivery.service';
import { findEnabledProduct } from '../product/product.service';
import { parameterNumber } from '../system/calendar';
import { longTermPolicy, longTermSideOf, type LongTermSide } from './long-term.policy';

const escapeLike = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The calendar month of an instant in Asia/Shanghai, YYYY-MM. */
export function shanghaiMonth(now: Date): string {
  return shanghaiDate(now).slice(0, 7);
}

async function findLongTerm(db: Db | Tx, id: number, lock?: 'update' | 'share'): Promise<LongTermDealRow> {
  const query = db.select().from(longTermDeals).where(eq(longTermDeals.id, id)).limit(1);
  const [row] = lock === 'update' ? await query.for('update') : lock === 'share' ? await query.for('share') : await query;
  if (!row) throw notFound('长协不存在');
  return row;
}

async function hasApplied(db: Db | Tx, id: number, enterpriseId: number | null): Promise<boolean> {
  if (enterpriseId === null) return false;
  const [row] = await db
    .select({ id: longTermApplications.id })
    .from(longTermApplications)
    .where(and(eq(longTermApplications.longTermId, id), eq(longTermApplications.buyerEnterpriseId, enterpriseId)))
    .limit(1);
  return !!row;
}

/** The deal as the actor may see it (another enterprise's is "not found"). */
async function viewable(db: Db | Tx, actor: Actor, id: number): Promise<LongTermDealRow> {
  const deal = await findLongTerm(db, id);
  longTermPolicy.can(actor, 'view', { deal, applied: await hasApplied(db, id, actor.enterpriseId) });
  return deal;
}

// ---------- pricing ----------

async function priceRange(db: Db | Tx) {
  const [minFen, maxFen] = await Promise.all([parameterNumber(db, 'price_range_5500_min_fen'), parameterNumber(db, 'price_range_5500_max_fen')]);
  return { minFen, maxFen };
}

/** The price `month` gets from the terms published before it (what it is fixed at on its first day). */
export async function priceOfMonth(db: Db | Tx, pricing: LongTermPricing, month: string, qnet: number | null | undefined): Promise<MonthPrice> {
  const terms = pricing.mode === 'index' ? await indexTermsBefore(db, `${month}-01`) : [];
  return monthPrice(pricing, month, terms, qnet, await priceRange(db));
}

/**
 * Fixes the price of every begun month of the deal that has none yet (its first day has come), from the index
 * terms published before it; `WHERE price IS NULL` keeps the first price, so a later index correction never
 * changes a month already priced. Returns how many months were priced.
 */
export async function priceBegunMonths(db: Db | Tx, deal: LongTermDealRow, now: Date): Promise<number> {
  const current = shanghaiMonth(now);
  const open = await db
    .select()
    .from(longTermMonths)
    .where(and(eq(longTermMonths.longTermId, deal.id), isNull(longTermMonths.price), sql`${longTermMonths.month} <= ${current}`));
  let priced = 0;
  for (const month of open) {
    const price = await priceOfMonth(db, deal.pricing, month.month, deal.quality.qnet);
    const done = await db
      .update(longTermMonths)
      .set({ price, pricedAt: now })
      .where(and(eq(longTermMonths.id, month.id), isNull(longTermMonths.price)))
      .returning({ id: longTermMonths.id });
    priced += done.length;
  }
  return priced;
}

/** Job: prices the begun months of every deal in execution (start-up, then hourly; the 1st's are priced at 00:00+). */
export async function priceAllBegunMonths(db: Db, now: Date): Promise<number> {
  const executing = await db.select().from(longTermDeals).where(eq(longTermDeals.status, 'executing'));
  let priced = 0;
  for (const deal of executing) priced += await priceBegunMonths(db, deal, now);
  return priced;
}

/** The framework contract's 定价条款, one paragraph each. */
export function pricingClauses(pricing: LongTermPricing): string[] {
  if (pricing.mode === 'fixed') return [`1. 定价方式：${PRICING_MODES.fixed}。`, `2. 合同期内各月执行价格均为 ${formatPrice(pricing.basePriceFen)}。`];
  return [
    `1. 定价方式：${PRICING_MODES.index}；基准价 ${formatPrice(pricing.basePriceFen)}。`,
    `2. 浮动价 = 浮动系数 ${(pricing.coefficientE4 / 10_000).toFixed(4)} ×（取价月平台动力煤价格指数（5500 大卡）各期均值 − 基准参考值 ${formatPrice(pricing.referenceFen)}），四舍五入到分；取价月为执行月份的上一个月，取价月无指数的，取执行月份前最近一期指数。`,
  ];
}

/** How a month's price was fixed, in one line (the monthly contract's 价格依据). */
export function priceBasisText(price: MonthPrice): string {
  if (price.basis === 'fixed') return `长协固定价格 ${formatPrice(price.priceFen)}`;
  const base = `基准价 ${formatPrice(price.basePriceFen)} ${price.floatFen < 0 ? '−' : '+'} 浮动价 ${formatPrice(Math.abs(price.floatFen))}`;
  if (price.basis === 'no_index') return `${base}（尚无指数）`;
  const terms = price.terms.map((t) => t.label).join('、');
  const source = price.basis === 'month_average' ? `取价月 ${monthText(price.sourceMonth)} 指数均值` : '取价月无指数，取最近一期指数';
  return `${base}（${source} ${formatPrice(price.averageFen ?? 0)}：${terms}）`;
}

// ---------- offers ----------

async function resolveTarget(db: Db | Tx, sellerId: number, creditCode: string | undefined): Promise<number | null> {
  if (!creditCode) return null;
  const target = await enterpriseByCreditCode(db, creditCode);
  if (!target || target.auditStatus !== 'approved') throw businessRule('定向买方不存在或未通过交易中心审核，请核对统一社会信用代码');
  if (target.id === sellerId) throw businessRule('定向买方不能是本企业');
  return target.id;
}

/**
 * Saves a seller's offer: a new draft, or an edit of its own draft; `submit` publishes it (征集中). The period may
 * not start before the current month and applications close before its last month.
 */
export async function saveOffer(db: Db, clock: Clock, actor: Actor, input: LongTermOffer): Promise<LongTermDetail> {
  const sellerId = longTermPolicy.can(actor, 'offer');
  const now = clock.now();
  const enterprise = await findEnterprise(db, sellerId);
  if (!enterprise || enterprise.auditStatus !== 'approved') throw appError('enterprise_not_approved', '企业未通过交易中心审核，不能发布长协');
  if (input.periodStart < shanghaiMonth(now)) throw businessRule('合同开始月份不能早于本月');
  if (input.applyDeadline < shanghaiDate(now)) throw businessRule('申请截止日期不能早于今天');
  const product = await findEnabledProduct(db, input.stockCode);
  const targetId = await resolveTarget(db, sellerId, input.targetCreditCode);
  const plannedKg = input.months.reduce((sum, m) => sum + m.plannedKg, 0);
  const values = {
    stockCode: product.stockCode,
    productName: product.stockName,
    quality: input.quality as Record<string, number | null>,
    priceType: input.priceType,
    transport: input.transport,
    deliveryProvince: input.deliveryProvince,
    deliveryCity: input.deliveryCity,
    deliveryDistrict: input.deliveryDistrict,
    deliveryPlace: input.deliveryPlace,
    periodStart: input.periodStart,
    periodEnd: input.periodEnd,
    plannedKg,
    pricing: input.pricing,
    targetEnterpriseId: targetId,
    applyDeadline: input.applyDeadline,
    remark: input.remark,
    updatedAt: now,
  };
  const id = await db.transaction(async (tx) => {
    let id: number;
    if (input.id) {
      const draft = await findLongTerm(tx, input.id, 'update');
      longTermPolicy.can(actor, 'actAsSeller', draft);
      if (draft.status !== 'draft') throw appError('state_changed', `长协状态为「${LONG_TERM_STATUS[draft.status as keyof typeof LONG_TERM_STATUS] ?? draft.status}」，只有草稿可以修改`);
      await tx.update(longTermDeals).set(values).where(eq(longTermDeals.id, draft.id));
      await tx.delete(longTermMonths).where(eq(longTermMonths.longTermId, draft.id));
      id = draft.id;
    } else {
      const [row] = await tx
        .insert(longTermDeals)
        .values({ ...values, longTermNo: await nextTradeNumber(tx, 'CX', now), sellerEnterpriseId: sellerId, status: 'draft', createdBy: actor.userId, createdAt: now })
        .returning({ id: longTermDeals.id });
      id = row!.id;
    }
    await tx.insert(longTermMonths).values(input.months.map((m) => ({ longTermId: id, month: m.month, plannedKg: m.plannedKg })));
    if (input.submit) await transition(tx, LongTermStates, 'publish', { table: longTermDeals, where: eq(longTermDeals.id, id), set: { publishedAt: now } });
    return id;
  });
  return longTermDetail(db, clock, actor, id);
}

export async function publishOffer(db: Db, clock: Clock, actor: Actor, id: number): Promise<LongTermDetail> {
  const now = clock.now();
  const deal = await findLongTerm(db, id);
  longTermPolicy.can(actor, 'actAsSeller', deal);
  if (deal.applyDeadline < shanghaiDate(now)) throw businessRule('申请截止日期已过，请修改草稿后再发布');
  if (deal.periodStart < shanghaiMonth(now)) throw businessRule('合同开始月份已过，请修改草稿后再发布');
  await transition(db, LongTermStates, 'publish', { table: longTermDeals, where: eq(longTermDeals.id, id), set: { publishedAt: now, updatedAt: now } });
  return longTermDetail(db, clock, actor, id);
}

/** The seller withdraws a draft or an open offer; pending applications are declined with it. */
export async function withdrawOffer(db: Db, clock: Clock, actor: Actor, id: number): Promise<LongTermDetail> {
  const now = clock.now();
  await db.transaction(async (tx) => {
    const deal = await findLongTerm(tx, id, 'update');
    longTermPolicy.can(actor, 'actAsSeller', deal);
    await transition(tx, LongTermStates, 'withdraw', { table: longTermDeals, where: eq(longTermDeals.id, id), set: { endedAt: now, updatedAt: now } });
    await declinePending(tx, id, now);
  });
  return longTermDetail(db, clock, actor, id);
}

async function declinePending(tx: Tx, id: number, now: Date, exceptId?: number) {
  const pending = await tx
    .select({ id: longTermApplications.id })
    .from(longTermApplications)
    .where(and(eq(longTermApplications.longTermId, id), eq(longTermApplications.status, 'pending')));
  for (const application of pending) {
    if (application.id === exceptId) continue;
    await transition(tx, LongTermApplicationStates, 'decline', { table: longTermApplications, where: eq(longTermApplications.id, application.id), set: { decidedAt: now } });
  }
}

/** A buyer applies to an open offer (once at a time); the offer's deadline closes applications. */
export async function applyToOffer(db: Db, clock: Clock, actor: Actor, id: number, note: string): Promise<LongTermDetail> {
  const now = clock.now();
  await db.transaction(async (tx) => {
    const deal = await findLongTerm(tx, id, 'share');
    longTermPolicy.can(actor, 'apply', deal);
    const enterprise = await findEnterprise(tx, actor.enterpriseId!);
    if (!enterprise || enterprise.auditStatus !== 'approved') throw appError('enterprise_not_approved', '企业未通过交易中心审核，不能申请长协');
    if (deal.applyDeadline < shanghaiDate(now)) throw businessRule('该长协已截止申请');
    const [row] = await tx
      .insert(longTermApplications)
      .values({ longTermId: id, buyerEnterpriseId: actor.enterpriseId!, note, createdBy: actor.userId, createdAt: now })
      .onConflictDoNothing()
      .returning({ id: longTermApplications.id });
    if (!row) throw appError('conflict', '本企业已提交申请，请等待卖方处理');
    await publish(tx, 'longterm.applied', { id, applicationId: row.id });
  });
  return longTermDetail(db, clock, actor, id);
}

export async function withdrawApplication(db: Db, clock: Clock, actor: Actor, id: number): Promise<LongTermDetail> {
  const now = clock.now();
  await viewable(db, actor, id);
  const [mine] = await db
    .select({ id: longTermApplications.id })
    .from(longTermApplications)
    .where(and(eq(longTermApplications.longTermId, id), eq(longTermApplications.buyerEnterpriseId, actor.enterpriseId ?? -1), eq(longTermApplications.status, 'pending')))
    .limit(1);
  if (!mine) throw appError('state_changed', '没有待处理的申请可以撤回，请刷新后重试');
  await transition(db, LongTermApplicationStates, 'withdraw', { table: longTermApplications, where: eq(longTermApplications.id, mine.id), set: { decidedAt: now } });
  return longTermDetail(db, clock, actor, id);
}

/**
 * The seller accepts one pending application: that buyer becomes the deal's buyer and the others are declined, in
 * one transaction under the deal's row lock (two acceptances at once: the second finds it 待签署). The framework
 * contract follows `longterm.accepted` (flows/make-long-term-contract.ts).
 */
export async function acceptApplication(db: Db, clock: Clock, actor: Actor, id: number, applicationId: number): Promise<LongTermDetail> {
  const now = clock.now();
  await db.transaction(async (tx) => {
    const deal = await findLongTerm(tx, id, 'update');
    longTermPolicy.can(actor, 'actAsSeller', deal);
    const [application] = await tx
      .select()
      .from(longTermApplications)
      .where(and(eq(longTermApplications.id, applicationId), eq(longTermApplications.longTermId, id)))
      .limit(1);
    if (!application) throw notFound('申请不存在');
    await transition(tx, LongTermApplicationStates, 'accept', { table: longTermApplications, where: eq(longTermApplications.id, applicationId), set: { decidedAt: now } });
    await declinePending(tx, id, now, applicationId);
    await transition(tx, LongTermStates, 'accept', {
      table: longTermDeals,
      where: eq(longTermDeals.id, id),
      set: { buyerEnterpriseId: application.buyerEnterpriseId, acceptedAt: now, updatedAt: now },
    });
  });
  return longTermDetail(db, clock, actor, id);
}

/** The trading centre ends a deal in execution: pending call-offs are withdrawn, its contract 已终止 (by the flow). */
export async function terminateLongTerm(db: Db, clock: Clock, actor: Actor, id: number, reason: string): Promise<LongTermDetail> {
  longTermPolicy.can(actor, 'operate');
  const now = clock.now();
  const deal = await findLongTerm(db, id);
  if (deal.status === 'signing') throw businessRule('框架合同尚未生效，请在合同详情中作废该合同');
  await db.transaction(async (tx) => {
    const locked = await findLongTerm(tx, id, 'update');
    await transition(tx, LongTermStates, 'terminate', { table: longTermDeals, where: eq(longTermDeals.id, id), set: { terminateReason: reason, endedAt: now, updatedAt: now } });
    await withdrawPendingCallOffs(tx, id, now);
    // the framework contract ends with it; call-offs already confirmed keep their own contracts and orders
    if (locked.contractId !== null) await markContractTerminated(tx, locked.contractId, now, actor, reason);
  });
  return longTermDetail(db, clock, actor, id);
}

// ---------- framework lifecycle (flows/make-long-term-contract.ts) ----------

/** What the framework contract is made from: the deal and its months. */
export async function longTermForContract(db: Db | Tx, id: number) {
  const [deal] = await db.select().from(longTermDeals).where(eq(longTermDeals.id, id)).limit(1);
  if (!deal) return null;
  const months = await db.select().from(longTermMonths).where(eq(longTermMonths.longTermId, id)).orderBy(asc(longTermMonths.month));
  return { deal, months };
}

/** Deals accepted (待签署) whose framework contract is not attached yet: the sweep makes theirs. */
export async function longTermsWithoutContract(db: Db): Promise<number[]> {
  const rows = await db
    .select({ id: longTermDeals.id })
    .from(longTermDeals)
    .where(and(eq(longTermDeals.status, 'signing'), isNull(longTermDeals.contractId)))
    .limit(200);
  return rows.map((r) => r.id);
}

export async function attachFrameworkContract(db: Db | Tx, id: number, contractId: number) {
  await db.update(longTermDeals).set({ contractId }).where(and(eq(longTermDeals.id, id), isNull(longTermDeals.contractId)));
}

/** The framework contract took effect: the period's execution starts (执行中) and its begun months are priced. */
export async function startExecution(tx: Tx, id: number, now: Date): Promise<boolean> {
  const moved = await transition(tx, LongTermStates, 'execute', { table: longTermDeals, where: eq(longTermDeals.id, id), set: { executingAt: now, updatedAt: now }, idempotent: true });
  if (moved) await priceBegunMonths(tx, moved, now);
  return !!moved;
}

/** The framework contract was voided before taking effect: the deal ends with it. */
export async function terminateForVoidedContract(tx: Tx, id: number, now: Date, reason: string) {
  await transition(tx, LongTermStates, 'terminate', { table: longTermDeals, where: eq(longTermDeals.id, id), set: { terminateReason: reason, endedAt: now, updatedAt: now }, idempotent: true });
}

/** Deals whose last month is over (执行中 → 已到期), for the flow to end each with its contract. */
export async function endedLongTerms(db: Db, now: Date): Promise<LongTermDealRow[]> {
  return db.select().from(longTermDeals).where(and(eq(longTermDeals.status, 'executing'), lt(longTermDeals.periodEnd, shanghaiMonth(now))));
}

export async function expireLongTerm(tx: Tx, id: number, now: Date): Promise<boolean> {
  const moved = await transition(tx, LongTermStates, 'expire', { table: longTermDeals, where: eq(longTermDeals.id, id), set: { endedAt: now, updatedAt: now }, idempotent: true });
  if (moved) await withdrawPendingCallOffs(tx, id, now);
  return !!moved;
}

/** Deals in 待签署 whose framework contract is effective already (a crash between the two): the sweep starts them. */
export async function signingLongTerms(db: Db): Promise<{ id: number; contractId: number | null }[]> {
  return db.select({ id: longTermDeals.id, contractId: longTermDeals.contractId }).from(longTermDeals).where(eq(longTermDeals.status, 'signing'));
}

export async function longTermOfContract(db: Db | Tx, contractId: number) {
  const [row] = await db.select().from(longTermDeals).where(eq(longTermDeals.contractId, contractId)).limit(1);
  return row ?? null;
}

// ---------- call-offs ----------

async function releaseReserved(tx: Tx, callOff: LongTermCallOffRow) {
  await tx
    .update(longTermMonths)
    .set({ reservedKg: sql`${longTermMonths.reservedKg} - ${callOff.quantityKg}` })
    .where(and(eq(longTermMonths.longTermId, callOff.longTermId), eq(longTermMonths.month, callOff.month)));
}

async function withdrawPendingCallOffs(tx: Tx, id: number, now: Date) {
  const pending = await tx.select().from(longTermCallOffs).where(and(eq(longTermCallOffs.longTermId, id), eq(longTermCallOffs.status, 'pending')));
  for (const callOff of pending) {
    await transition(tx, CallOffStates, 'withdraw', { table: longTermCallOffs, where: eq(longTermCallOffs.id, callOff.id), set: { decidedAt: now, reason: '长协已结束' } });
    await releaseReserved(tx, callOff);
  }
}

/**
 * A call-off for the current month: issued by the seller, requested by the buyer. It holds its quantity of the
 * month's plan at once (one conditional UPDATE: concurrent call-offs never pass the plan), at the month's price.
 */
export async function createCallOff(db: Db, clock: Clock, actor: Actor, id: number, input: CallOffCreate): Promise<LongTermDetail> {
  const now = clock.now();
  const today = shanghaiDate(now);
  await db.transaction(async (tx) => {
    // a share lock: termination (an update lock) waits for the call-offs in flight and they for it
    const deal = await findLongTerm(tx, id, 'share');
    const side = longTermPolicy.can(actor, 'callOff', deal);
    if (deal.status !== 'executing') throw appError('state_changed', `长协状态为「${LONG_TERM_STATUS[deal.status as keyof typeof LONG_TERM_STATUS] ?? deal.status}」，不能发起月度调运`);
    if (input.month < deal.periodStart || input.month > deal.periodEnd) throw businessRule(`调运月份须在合同期 ${deal.periodStart} 至 ${deal.periodEnd} 内`);
    if (input.month !== shanghaiMonth(now)) throw businessRule('只能发起本月的调运：月度价格在每月第一日确定');
    if (input.deliveryDateEnd < today) throw businessRule('交收结束日期不能早于今天');
    await priceBegunMonths(tx, deal, now);
    const [month] = await tx.select().from(longTermMonths).where(and(eq(longTermMonths.longTermId, id), eq(longTermMonths.month, input.month))).limit(1);
    if (!month?.price) throw businessRule('本月价格尚未确定，请稍后重试');
    const [held] = await tx
      .update(longTermMonths)
      .set({ reservedKg: sql`${longTermMonths.reservedKg} + ${input.quantityKg}` })
      .where(and(eq(longTermMonths.id, month.id), sql`${longTermMonths.reservedKg} + ${input.quantityKg} <= ${longTermMonths.plannedKg}`))
      .returning({ id: longTermMonths.id });
    if (!held) {
      const [fresh] = await tx.select().from(longTermMonths).where(eq(longTermMonths.id, month.id));
      const left = Math.max(0, fresh!.plannedKg - fresh!.reservedKg);
      throw appError('call_off_exceeds_plan', `调运数量超出本月计划量：本月计划 ${tons(fresh!.plannedKg)} 吨，已调运（含待确认）${tons(fresh!.reservedKg)} 吨，最多还可调运 ${tons(left)} 吨`);
    }
    const [row] = await tx
      .insert(longTermCallOffs)
      .values({
        callOffNo: await nextTradeNumber(tx, 'DY', now),
        longTermId: id,
        month: input.month,
        quantityKg: input.quantityKg,
        priceFen: month.price.priceFen,
        amountFen: Number(amountFen(month.price.priceFen, input.quantityKg)),
        deliveryDateStart: input.deliveryDateStart,
        deliveryDateEnd: input.deliveryDateEnd,
        initiator: side,
        note: input.note,
        createdBy: actor.userId,
        createdAt: now,
      })
      .returning({ id: longTermCallOffs.id });
    await publish(tx, 'calloff.created', { id: row!.id, longTermId: id });
  });
  return longTermDetail(db, clock, actor, id);
}

function tons(kg: number): string {
  return (kg / 1000).toLocaleString('en-US', { minimumFractionDigits: 3, maximumFractionDigits: 3 });
}

async function callOffForActor(tx: Tx, actor: Actor, callOffId: number) {
  const [callOff] = await tx.select().from(longTermCallOffs).where(eq(longTermCallOffs.id, callOffId)).limit(1);
  if (!callOff) throw notFound('月度调运不存在');
  const deal = await findLongTerm(tx, callOff.longTermId, 'share');
  const side = longTermPolicy.can(actor, 'callOff', deal);
  return { callOff, deal, side };
}

/**
 * The other side confirms or declines a pending call-off. Confirming makes it a deal of kind long-term
 * (`deal.created`: its contract, order, trucks, settlement and invoices follow as for a spot deal) in the same
 * transaction; declining gives its quantity back to the month.
 */
export async function decideCallOff(db: Db, clock: Clock, actor: Actor, callOffId: number, input: { accept: boolean; reason: string }): Promise<LongTermDetail> {
  const now = clock.now();
  const longTermId = await db.transaction(async (tx) => {
    const { callOff, deal, side } = await callOffForActor(tx, actor, callOffId);
    if (side === callOff.initiator) throw appError('forbidden', '月度调运须由对方确认');
    if (!input.accept) {
      if (input.reason.length < 2) throw businessRule('请输入拒绝原因（至少 2 个字）');
      await transition(tx, CallOffStates, 'decline', { table: longTermCallOffs, where: eq(longTermCallOffs.id, callOffId), set: { decidedAt: now, decidedBy: actor.userId, reason: input.reason } });
      await releaseReserved(tx, callOff);
      return deal.id;
    }
    if (deal.status !== 'executing') throw appError('state_changed', '长协已不在执行中，不能确认调运');
    if (callOff.month !== shanghaiMonth(now)) throw businessRule('调运月份已过，不能确认，请撤回后重新发起');
    const moved = await transition(tx, CallOffStates, 'accept', { table: longTermCallOffs, where: eq(longTermCallOffs.id, callOffId), set: { decidedAt: now, decidedBy: actor.userId } });
    const made = await createDeal(tx, now, {
      tradeKind: 'long_term',
      tradeNo: deal.longTermNo,
      tradeType: TradeType.listingSale,
      sourceId: moved.id,
      publisherEnterpriseId: deal.sellerEnterpriseId,
      counterpartyEnterpriseId: deal.buyerEnterpriseId!,
      stockCode: deal.stockCode,
      productName: deal.productName,
      quantityKg: moved.quantityKg,
      priceFen: moved.priceFen,
      depositFen: 0,
    });
    await tx.update(longTermCallOffs).set({ dealId: made.id, dealNo: made.dealNo }).where(eq(longTermCallOffs.id, callOffId));
    return deal.id;
  });
  return longTermDetail(db, clock, actor, longTermId);
}

/** The initiator takes back a pending call-off; its quantity goes back to the month. */
export async function withdrawCallOff(db: Db, clock: Clock, actor: Actor, callOffId: number): Promise<LongTermDetail> {
  const now = clock.now();
  const longTermId = await db.transaction(async (tx) => {
    const { callOff, deal, side } = await callOffForActor(tx, actor, callOffId);
    if (side !== callOff.initiator) throw appError('forbidden', '只有发起方可以撤回月度调运');
    await transition(tx, CallOffStates, 'withdraw', { table: longTermCallOffs, where: eq(longTermCallOffs.id, callOffId), set: { decidedAt: now, decidedBy: actor.userId } });
    await releaseReserved(tx, callOff);
    return deal.id;
  });
  return longTermDetail(db, clock, actor, longTermId);
}

/** What a call-off's contract is made from (flows/make-contract.ts): the call-off, its deal's framework and month. */
export async function callOffForContract(db: Db | Tx, callOffId: number) {
  const [callOff] = await db.select().from(longTermCallOffs).where(eq(longTermCallOffs.id, callOffId)).limit(1);
  if (!callOff) return null;
  const [deal] = await db.select().from(longTermDeals).where(eq(longTermDeals.id, callOff.longTermId)).limit(1);
  const [month] = await db.select().from(longTermMonths).where(and(eq(longTermMonths.longTermId, callOff.longTermId), eq(longTermMonths.month, callOff.month))).limit(1);
  if (!deal || !month?.price) return null;
  return { callOff, deal, price: month.price };
}

// ---------- reading ----------

type MonthPhase = LongTermMonth['phase'];

interface Progress {
  months: LongTermMonth[];
  years: (Fulfilment & { year: string })[];
  overall: Fulfilment;
  callOffs: CallOff[];
}

function fulfilment(rows: { plannedKg: number; calledKg: number; deliveredKg: number; settledKg: number }[], warnPct: number, anyFlagged = false): Fulfilment {
  const sum = (key: 'plannedKg' | 'calledKg' | 'deliveredKg' | 'settledKg') => rows.reduce((s, r) => s + r[key], 0);
  const plannedKg = sum('plannedKg');
  const deliveredKg = sum('deliveredKg');
  const rate = fulfilmentRate(deliveredKg, plannedKg);
  return { plannedKg, calledKg: sum('calledKg'), deliveredKg, settledKg: sum('settledKg'), rate, flagged: anyFlagged || (rate !== null && rate < warnPct) };
}

/**
 * Planned vs called off vs delivered (signed tons of the call-offs' orders) vs settled, per month; the years and
 * the whole period over finished months only (a month in progress would read as a shortfall). A finished month
 * below the warning line is flagged, and so is the deal.
 */
async function progressOf(db: Db | Tx, deals: LongTermDealRow[], now: Date, actor: Actor | null, warnPct: number): Promise<Map<number, Progress>> {
  const ids = deals.map((d) => d.id);
  if (ids.length === 0) return new Map();
  const [monthRows, callOffRows] = await Promise.all([
    db.select().from(longTermMonths).where(inArray(longTermMonths.longTermId, ids)).orderBy(asc(longTermMonths.month)),
    db.select().from(longTermCallOffs).where(inArray(longTermCallOffs.longTermId, ids)).orderBy(desc(longTermCallOffs.id)),
  ]);
  const dealIds = callOffRows.map((c) => c.dealId).filter((d): d is number => d !== null);
  const [orderRows, contractRows] = await Promise.all([deliveryOfDeals(db, dealIds), contractsOfDeals(db, dealIds)]);
  const orderByDeal = new Map(orderRows.map((o) => [o.dealId, o]));
  const contractByDeal = new Map(contractRows.map((c) => [c.dealId, c]));
  const current = shanghaiMonth(now);
  const result = new Map<number, Progress>();
  for (const deal of deals) {
    const side = actor ? longTermSideOf(actor, deal) : null;
    const mine = callOffRows.filter((c) => c.longTermId === deal.id);
    const callOffs: CallOff[] = mine.map((c) => {
      const order = c.dealId !== null ? orderByDeal.get(c.dealId) : undefined;
      const contract = c.dealId !== null ? contractByDeal.get(c.dealId) : undefined;
      const actions: CallOff['actions'] = [];
      if (c.status === 'pending' && side) actions.push(...(side === c.initiator ? (['withdraw'] as const) : (['accept', 'decline'] as const)));
      return {
        id: c.id,
        callOffNo: c.callOffNo,
        month: c.month,
        quantityKg: c.quantityKg,
        priceFen: c.priceFen,
        amountFen: c.amountFen,
        deliveryDateStart: c.deliveryDateStart,
        deliveryDateEnd: c.deliveryDateEnd,
        initiator: c.initiator as 'seller' | 'buyer',
        status: c.status as CallOff['status'],
        statusText: CALL_OFF_STATUS[c.status as keyof typeof CALL_OFF_STATUS] ?? c.status,
        note: c.note,
        reason: c.reason,
        dealNo: c.dealNo,
        contractId: contract?.id ?? null,
        contractNo: contract?.contractNo ?? null,
        orderId: order?.id ?? null,
        orderNo: order?.orderNo ?? null,
        orderStatusText: order ? (ORDER_STATUS[order.status as keyof typeof ORDER_STATUS] ?? order.status) : null,
        deliveredKg: order?.signedKg ?? 0,
        createdAt: formatDateTime(c.createdAt),
        decidedAt: c.decidedAt ? formatDateTime(c.decidedAt) : null,
        actions,
      };
    });
    const running = ['executing', 'expired', 'terminated'].includes(deal.status);
    const months: LongTermMonth[] = monthRows
      .filter((m) => m.longTermId === deal.id)
      .map((m: LongTermMonthRow) => {
        const accepted = callOffs.filter((c) => c.month === m.month && c.status === 'accepted');
        const settledKg = accepted.reduce((s, c) => {
          const order = c.orderId !== null ? orderRows.find((o) => o.id === c.orderId) : undefined;
          return s + (order?.settledAt ? order.signedKg : 0);
        }, 0);
        const phase: MonthPhase = m.month < current ? 'past' : m.month === current ? 'current' : 'future';
        const row = { plannedKg: m.plannedKg, calledKg: accepted.reduce((s, c) => s + c.quantityKg, 0), deliveredKg: accepted.reduce((s, c) => s + c.deliveredKg, 0), settledKg };
        const rate = fulfilmentRate(row.deliveredKg, row.plannedKg);
        return {
          month: m.month,
          ...row,
          rate,
          flagged: running && phase === 'past' && rate !== null && rate < warnPct,
          price: m.price,
          phase,
          availableKg: Math.max(0, m.plannedKg - m.reservedKg),
        };
      });
    const finished = months.filter((m) => m.phase === 'past' && running);
    const years = [...new Set(months.map((m) => m.month.slice(0, 4)))].map((year) => {
      const inYear = finished.filter((m) => m.month.startsWith(year));
      return { year, ...fulfilment(inYear, warnPct, inYear.some((m) => m.flagged)) };
    });
    result.set(deal.id, { months, years, overall: fulfilment(finished, warnPct, finished.some((m) => m.flagged)), callOffs });
  }
  return result;
}

function pricingTextOf(pricing: LongTermPricing): string {
  if (pricing.mode === 'fixed') return `固定价格 ${formatPrice(pricing.basePriceFen)}`;
  return `基准价 ${formatPrice(pricing.basePriceFen)} + ${(pricing.coefficientE4 / 10_000).toFixed(4)} ×（指数均值 − ${formatPrice(pricing.referenceFen)}）`;
}

interface PresentContext {
  now: Date;
  names: Map<number, string>;
  progress: Progress;
  applications: { status: string; buyerEnterpriseId: number }[];
  contract: { id: number; contractNo: string } | null;
}

function actionsOf(actor: Actor, deal: LongTermDealRow, ctx: PresentContext): LongTermAction[] {
  const side = longTermSideOf(actor, deal);
  const actions: LongTermAction[] = [];
  const current = shanghaiMonth(ctx.now);
  if (side === 'seller') {
    if (deal.status === 'draft') actions.push('edit', 'publish', 'withdraw');
    if (deal.status === 'open') {
      actions.push('withdraw');
      if (ctx.applications.some((a) => a.status === 'pending')) actions.push('accept');
    }
  }
  if (side === 'seller' || side === 'buyer') {
    const month = ctx.progress.months.find((m) => m.month === current);
    if (deal.status === 'executing' && month && month.availableKg > 0) actions.push(side === 'seller' ? 'callOff' : 'requestCallOff');
  }
  if (!side && actor.enterpriseId !== null && deal.status === 'open' && deal.sellerEnterpriseId !== actor.enterpriseId) {
    const mine = ctx.applications.filter((a) => a.buyerEnterpriseId === actor.enterpriseId);
    if (mine.some((a) => a.status === 'pending')) actions.push('withdrawApplication');
    else if (deal.applyDeadline >= shanghaiDate(ctx.now)) actions.push('apply');
  }
  if (longTermPolicy.allows(actor, 'operate') && deal.status === 'executing') actions.push('terminate');
  return actions;
}

function presentSummary(actor: Actor, deal: LongTermDealRow, ctx: PresentContext): LongTermSummary {
  const side = longTermSideOf(actor, deal);
  const staff = longTermPolicy.allows(actor, 'seeAll');
  const current = ctx.progress.months.find((m) => m.month === shanghaiMonth(ctx.now));
  const mine = actor.enterpriseId !== null ? ctx.applications.filter((a) => a.buyerEnterpriseId === actor.enterpriseId) : [];
  const myLatest = mine[mine.length - 1];
  return {
    id: deal.id,
    dealNo: deal.longTermNo,
    status: deal.status as LongTermSummary['status'],
    statusText: LONG_TERM_STATUS[deal.status as keyof typeof LONG_TERM_STATUS] ?? deal.status,
    mySide: side,
    sellerName: ctx.names.get(deal.sellerEnterpriseId) ?? '',
    // the buyer is told to its sides and the trading centre only
    buyerName: deal.buyerEnterpriseId !== null && (side || staff) ? (ctx.names.get(deal.buyerEnterpriseId) ?? '') : null,
    targetName: deal.targetEnterpriseId !== null ? (ctx.names.get(deal.targetEnterpriseId) ?? '') : null,
    stockCode: deal.stockCode,
    productName: deal.productName,
    periodStart: deal.periodStart,
    periodEnd: deal.periodEnd,
    plannedKg: deal.plannedKg,
    pricingMode: deal.pricing.mode,
    pricingText: pricingTextOf(deal.pricing),
    basePriceFen: deal.pricing.basePriceFen,
    currentPriceFen: current?.price?.priceFen ?? null,
    applyDeadline: deal.applyDeadline,
    applicationCount: ctx.applications.length,
    myApplicationStatus: myLatest ? (LONG_TERM_APPLICATION_STATUS[myLatest.status as keyof typeof LONG_TERM_APPLICATION_STATUS] ?? myLatest.status) : null,
    contractId: side || staff ? (ctx.contract?.id ?? null) : null,
    contractNo: side || staff ? (ctx.contract?.contractNo ?? null) : null,
    fulfilment: ctx.progress.overall,
    createdAt: formatDateTime(deal.createdAt),
    actions: actionsOf(actor, deal, ctx),
  };
}

function listWhere(enterpriseId: number | null, query: Omit<LongTermQuery, 'pageNo' | 'pageSize'>, today: string): SQL | undefined {
  const keyword = query.keyword ? escapeLike(query.keyword) : null;
  const scope =
    query.scope === 'market'
      ? and(
          eq(longTermDeals.status, 'open'),
          sql`${longTermDeals.applyDeadline} >= ${today}`,
          enterpriseId === null ? undefined : sql`${longTermDeals.sellerEnterpriseId} <> ${enterpriseId}`,
          enterpriseId === null ? undefined : or(isNull(longTermDeals.targetEnterpriseId), eq(longTermDeals.targetEnterpriseId, enterpriseId)),
        )
      : enterpriseId === null
        ? undefined
        : or(
            eq(longTermDeals.sellerEnterpriseId, enterpriseId),
            eq(longTermDeals.buyerEnterpriseId, enterpriseId),
            sql`EXISTS (SELECT 1 FROM ${longTermApplications} WHERE ${longTermApplications.longTermId} = ${longTermDeals.id} AND ${longTermApplications.buyerEnterpriseId} = ${enterpriseId})`,
          );
  return and(
    scope,
    query.status ? eq(longTermDeals.status, query.status) : undefined,
    keyword ? or(ilike(longTermDeals.longTermNo, keyword), ilike(longTermDeals.productName, keyword)) : undefined,
  );
}

async function present(db: Db | Tx, actor: Actor, deals: LongTermDealRow[], now: Date) {
  const warnPct = await parameterNumber(db, 'long_term_fulfilment_warn_pct');
  const ids = deals.map((d) => d.id);
  const [progress, applications, names, contracts] = await Promise.all([
    progressOf(db, deals, now, actor, warnPct),
    ids.length ? db.select().from(longTermApplications).where(inArray(longTermApplications.longTermId, ids)).orderBy(asc(longTermApplications.id)) : [],
    enterpriseNames(db, deals.flatMap((d) => [d.sellerEnterpriseId, d.buyerEnterpriseId, d.targetEnterpriseId]).filter((x): x is number => x !== null)),
    contractNumbers(db, deals),
  ]);
  return { warnPct, progress, applications, names, contracts };
}

function contractNumbers(db: Db | Tx, deals: LongTermDealRow[]) {
  return contractsByIds(db, deals.map((d) => d.contractId).filter((x): x is number => x !== null));
}

async function summaries(db: Db | Tx, actor: Actor, deals: LongTermDealRow[], now: Date): Promise<LongTermSummary[]> {
  const p = await present(db, actor, deals, now);
  return deals.map((deal) =>
    presentSummary(actor, deal, {
      now,
      names: p.names,
      progress: p.progress.get(deal.id)!,
      applications: p.applications.filter((a) => a.longTermId === deal.id),
      contract: deal.contractId !== null ? (p.contracts.get(deal.contractId) ?? null) : null,
    }),
  );
}

/** 长协交易: an enterprise's own (as seller, buyer or applicant) or the market of open offers; the trading centre all. */
export async function listLongTerm(db: Db, clock: Clock, actor: Actor, query: LongTermQuery) {
  const enterpriseId = longTermPolicy.can(actor, 'list');
  const now = clock.now();
  const where = and(listWhere(enterpriseId, query, shanghaiDate(now)));
  if (query.flagged) {
    // the flag needs the delivered tons: computed over the matching deals, then paged
    const all = await db.select().from(longTermDeals).where(where).orderBy(desc(longTermDeals.id)).limit(1000);
    const flagged = (await summaries(db, actor, all, now)).filter((s) => s.fulfilment.flagged);
    const start = (query.pageNo - 1) * query.pageSize;
    return { records: flagged.slice(start, start + query.pageSize), total: flagged.length, current: query.pageNo, size: query.pageSize };
  }
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(longTermDeals).where(where);
  const rows = await db
    .select()
    .from(longTermDeals)
    .where(where)
    .orderBy(desc(longTermDeals.id))
    .limit(query.pageSize)
    .offset((query.pageNo - 1) * query.pageSize);
  return { records: await summaries(db, actor, rows, now), total, current: query.pageNo, size: query.pageSize };
}

export async function longTermForExport(db: Db, clock: Clock, actor: Actor, query: Omit<LongTermQuery, 'pageNo' | 'pageSize'>) {
  const enterpriseId = longTermPolicy.can(actor, 'list');
  const now = clock.now();
  const rows = await db.select().from(longTermDeals).where(listWhere(enterpriseId, query, shanghaiDate(now))).orderBy(desc(longTermDeals.id)).limit(5000);
  const all = await summaries(db, actor, rows, now);
  return query.flagged ? all.filter((s) => s.fulfilment.flagged) : all;
}

export async function longTermDetail(db: Db | Tx, clock: Clock, actor: Actor, id: number): Promise<LongTermDetail> {
  const now = clock.now();
  const deal = await viewable(db, actor, id);
  const p = await present(db, actor, [deal], now);
  const progress = p.progress.get(deal.id)!;
  const applications = p.applications.filter((a) => a.longTermId === deal.id);
  const side = longTermSideOf(actor, deal);
  const staff = longTermPolicy.allows(actor, 'seeAll');
  const summary = presentSummary(actor, deal, {
    now,
    names: p.names,
    progress,
    applications,
    contract: deal.contractId !== null ? (p.contracts.get(deal.contractId) ?? null) : null,
  });
  // the seller and the trading centre see every application; an applicant its own
  const visible = side === 'seller' || staff ? applications : applications.filter((a) => a.buyerEnterpriseId === actor.enterpriseId);
  const applicantNames = await enterpriseNames(db, visible.map((a) => a.buyerEnterpriseId));
  const seesCallOffs = side !== null || staff;
  const target = side === 'seller' && deal.targetEnterpriseId !== null ? await findEnterprise(db, deal.targetEnterpriseId) : null;
  return {
    ...summary,
    quality: deal.quality,
    priceType: deal.priceType,
    transport: deal.transport,
    deliveryProvince: deal.deliveryProvince,
    deliveryCity: deal.deliveryCity,
    deliveryDistrict: deal.deliveryDistrict,
    deliveryPlace: deal.deliveryPlace,
    pricing: deal.pricing,
    remark: deal.remark,
    targetCreditCode: target?.creditCode ?? null,
    terminateReason: deal.terminateReason,
    months: seesCallOffs ? progress.months : progress.months.map((m) => ({ ...m, calledKg: 0, deliveredKg: 0, settledKg: 0, rate: null, flagged: false, availableKg: m.plannedKg })),
    years: seesCallOffs ? progress.years : [],
    callOffs: seesCallOffs ? progress.callOffs : [],
    applications: visible.map((a) => ({
      id: a.id,
      buyerName: applicantNames.get(a.buyerEnterpriseId) ?? '',
      note: a.note,
      status: a.status as 'pending',
      statusText: LONG_TERM_APPLICATION_STATUS[a.status as keyof typeof LONG_TERM_APPLICATION_STATUS] ?? a.status,
      createdAt: formatDateTime(a.createdAt),
    })),
    warnPct: p.warnPct,
  };
}

/** The price `month` would get today under the given pricing: the offer form's preview. */
export async function pricePreview(db: Db, input: { mode: 'fixed' | 'index'; basePriceFen: number; coefficientE4: number; referenceFen: number; heatFactorE4?: number; qnet?: number; month: string }) {
  const pricing: LongTermPricing = { mode: input.mode, basePriceFen: input.basePriceFen, coefficientE4: input.coefficientE4, referenceFen: input.referenceFen, heatFactorE4: input.heatFactorE4 ?? null };
  return priceOfMonth(db, pricing, input.month, input.qnet);
}

/** Counts for the workbench: pending applications to my offers, call-offs waiting for my side, flagged deals. */
export async function longTermTodoCounts(db: Db, now: Date, enterpriseId: number | null) {
  const mine = enterpriseId === null ? undefined : or(eq(longTermDeals.sellerEnterpriseId, enterpriseId), eq(longTermDeals.buyerEnterpriseId, enterpriseId));
  const [applications] = await db
    .select({ n: count() })
    .from(longTermApplications)
    .innerJoin(longTermDeals, eq(longTermDeals.id, longTermApplications.longTermId))
    .where(and(eq(longTermApplications.status, 'pending'), eq(longTermDeals.status, 'open'), enterpriseId === null ? undefined : eq(longTermDeals.sellerEnterpriseId, enterpriseId)));
  const [callOffs] =
    enterpriseId === null
      ? [{ n: 0 }]
      : await db
          .select({ n: count() })
          .from(longTermCallOffs)
          .innerJoin(longTermDeals, eq(longTermDeals.id, longTermCallOffs.longTermId))
          .where(
            and(
              eq(longTermCallOffs.status, 'pending'),
              // waiting for my side: the other side initiated it
              or(
                and(eq(longTermDeals.sellerEnterpriseId, enterpriseId), eq(longTermCallOffs.initiator, 'buyer')),
                and(eq(longTermDeals.buyerEnterpriseId, enterpriseId), eq(longTermCallOffs.initiator, 'seller')),
              ),
            ),
          );
  const running = await db
    .select()
    .from(longTermDeals)
    .where(and(mine, inArray(longTermDeals.status, ['executing'])))
    .limit(1000);
  const warnPct = await parameterNumber(db, 'long_term_fulfilment_warn_pct');
  const progress = await progressOf(db, running, now, null, warnPct);
  const flagged = running.filter((d) => progress.get(d.id)?.overall.flagged).length;
  return { applications: Number(applications?.n ?? 0), callOffs: Number(callOffs?.n ?? 0), flagged };
}

export type { LongTermSide };
