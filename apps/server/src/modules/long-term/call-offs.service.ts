import { CallOffStates, LONG_TERM_STATUS, amountFen, type CallOffCreate, type LongTermDetail } from '@coalx/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { longTermCallOffs, longTermDeals, longTermMonths, type LongTermCallOffRow, type LongTermDealRow } from '../../db/schema/index';
import { appError, businessRule, notFound } from '../../errors';
import type { Actor } from '../../lib/actor';
import type { Clock } from '../../lib/clock';
import { publish } from '../../lib/events';
import { shanghaiDate } from '../../lib/shanghai-time';
import { nextTradeNumber } from '../../lib/trade-number';
import { transition } from '../../lib/transition';
import { findLongTerm, shanghaiMonth } from './long-term-deal';
import { longTermDetail } from './long-term-query.service';
import { longTermPolicy } from './long-term.policy';
import { priceBegunMonths } from './pricing.service';

async function releaseReserved(tx: Tx, callOff: LongTermCallOffRow) {
  await tx
    .update(longTermMonths)
    .set({ reservedKg: sql`${longTermMonths.reservedKg} - ${callOff.quantityKg}` })
    .where(and(eq(longTermMonths.longTermId, callOff.longTermId), eq(longTermMonths.month, callOff.month)));
}

/** The deal ended: its pending call-offs are withdrawn and their quantities go back to their months. */
export async function withdrawPendingCallOffs(tx: Tx, id: number, now: Date) {
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

async function callOffWithDeal(tx: Tx, callOffId: number) {
  const [callOff] = await tx.select().from(longTermCallOffs).where(eq(longTermCallOffs.id, callOffId)).limit(1);
  if (!callOff) throw notFound('月度调运不存在');
  const deal = await findLongTerm(tx, callOff.longTermId, 'share');
  return { callOff, deal };
}

/** A pending call-off the actor's side may confirm or decline (flows/decide-call-off.ts), with its deal share-locked. */
export async function callOffToDecide(tx: Tx, actor: Actor, callOffId: number) {
  const { callOff, deal } = await callOffWithDeal(tx, callOffId);
  longTermPolicy.can(actor, 'decideCallOff', { deal, callOff });
  return { callOff, deal };
}

/** Declining gives the call-off's quantity back to its month. */
export async function declineCallOff(tx: Tx, actor: Actor, callOff: LongTermCallOffRow, reason: string, now: Date) {
  if (reason.length < 2) throw businessRule('请输入拒绝原因（至少 2 个字）');
  await transition(tx, CallOffStates, 'decline', { table: longTermCallOffs, where: eq(longTermCallOffs.id, callOff.id), set: { decidedAt: now, decidedBy: actor.userId, reason } });
  await releaseReserved(tx, callOff);
}

/** Confirming: only while the deal is in execution and within the call-off's month; the flow makes it a deal. */
export async function acceptCallOff(tx: Tx, actor: Actor, deal: LongTermDealRow, callOff: LongTermCallOffRow, now: Date): Promise<LongTermCallOffRow> {
  if (deal.status !== 'executing') throw appError('state_changed', '长协已不在执行中，不能确认调运');
  if (callOff.month !== shanghaiMonth(now)) throw businessRule('调运月份已过，不能确认，请撤回后重新发起');
  return transition(tx, CallOffStates, 'accept', { table: longTermCallOffs, where: eq(longTermCallOffs.id, callOff.id), set: { decidedAt: now, decidedBy: actor.userId } });
}

/** The confirmed call-off names the deal made of it. */
export async function attachCallOffDeal(tx: Tx, callOffId: number, deal: { id: number; dealNo: string }) {
  await tx.update(longTermCallOffs).set({ dealId: deal.id, dealNo: deal.dealNo }).where(eq(longTermCallOffs.id, callOffId));
}

/** The initiator takes back a pending call-off; its quantity goes back to the month. */
export async function withdrawCallOff(db: Db, clock: Clock, actor: Actor, callOffId: number): Promise<LongTermDetail> {
  const now = clock.now();
  const longTermId = await db.transaction(async (tx) => {
    const { callOff, deal } = await callOffWithDeal(tx, callOffId);
    longTermPolicy.can(actor, 'withdrawCallOff', { deal, callOff });
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
