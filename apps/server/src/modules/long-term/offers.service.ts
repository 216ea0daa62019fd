import {
  LONG_TERM_STATUS,
  LongTermApplicationStates,
  LongTermStates,
  type LongTermDetail,
  type LongTermOffer,
} from '@coalx/shared';
import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { longTermApplications, longTermDeals, longTermMonths } from '../../db/schema/index';
import { appError, businessRule, notFound } from '../../errors';
import type { Actor } from '../../lib/actor';
import type { Clock } from '../../lib/clock';
import { publish } from '../../lib/events';
import { shanghaiDate } from '../../lib/shanghai-time';
import { nextTradeNumber } from '../../lib/trade-number';
import { transition } from '../../lib/transition';
import { enterpriseByCreditCode, findEnterprise } from '../enterprise/enterprise.service';
import { findEnabledProduct } from '../product/product.service';
import { findLongTerm, shanghaiMonth, viewableLongTerm } from './long-term-deal';
import { longTermDetail } from './long-term-query.service';
import { longTermPolicy } from './long-term.policy';

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
  await viewableLongTerm(db, actor, id);
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
