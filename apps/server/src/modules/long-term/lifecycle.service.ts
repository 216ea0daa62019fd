import { LongTermStates } from '@coalx/shared';
import { and, asc, eq, isNull, lt } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { longTermDeals, longTermMonths, type LongTermDealRow } from '../../db/schema/index';
import { businessRule } from '../../errors';
import { transition } from '../../lib/transition';
import { withdrawPendingCallOffs } from './call-offs.service';
import { findLongTerm, shanghaiMonth } from './long-term-deal';
import { priceBegunMonths } from './pricing.service';

// The deal's moves that follow its framework contract (flows/make-long-term-contract.ts, start-long-term.ts,
// end-voided-long-term.ts, expire-long-terms.ts, terminate-long-term.ts); the contract's own moves are the flows'.

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

/** The trading centre ends deals in execution; one still 待签署 ends by voiding its framework contract instead. */
export async function checkTerminable(db: Db | Tx, id: number) {
  const deal = await findLongTerm(db, id);
  if (deal.status === 'signing') throw businessRule('框架合同尚未生效，请在合同详情中作废该合同');
}

/** Ends a deal in execution under its row lock, withdrawing its pending call-offs; returns the deal as it was. */
export async function terminateExecution(tx: Tx, id: number, now: Date, reason: string): Promise<LongTermDealRow> {
  const locked = await findLongTerm(tx, id, 'update');
  await transition(tx, LongTermStates, 'terminate', { table: longTermDeals, where: eq(longTermDeals.id, id), set: { terminateReason: reason, endedAt: now, updatedAt: now } });
  await withdrawPendingCallOffs(tx, id, now);
  return locked;
}
