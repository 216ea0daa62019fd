import { formatDateTime, TradingSuspensionStates } from '@coalx/shared';
import { and, desc, eq, inArray, isNotNull, lte } from 'drizzle-orm';
import { queryPrepared, type Db, type Tx } from '../../db/client';
import { enterprises, enterpriseSuspensions } from '../../db/schema/index';
import { appError, businessRule, notFound } from '../../errors';
import type { Clock } from '../../lib/clock';
import { eventBusOf, publish } from '../../lib/events';
import { transition } from '../../lib/transition';

/**
 * Trading rights (暂停交易): the trading centre suspends an enterprise's trading for a period or until lifted. While a
 * suspension is in force the enterprise starts nothing new (listings, auctions, 摘牌, enrolments, bids); what is
 * under way (contracts, payments, deliveries, settlement, invoices) goes on. A suspension is in force while its row
 * is active and its end time, if any, is still ahead: the scheduler marks a passed one ended, but the check never
 * waits for it.
 */

export type Suspension = typeof enterpriseSuspensions.$inferSelect;
/** What the trading check needs of the suspension in force: its reason and end (null: until lifted). */
interface InForce {
  id: number;
  reason: string;
  endsAt: Date | null;
}

const REASON_MAX = 200;

function cleanReason(reason: string, what: string): string {
  const text = reason.trim();
  if (!text) throw businessRule(`请填写${what}`);
  if (Array.from(text).length > REASON_MAX) throw businessRule(`${what}不能超过 ${REASON_MAX} 个字`);
  return text;
}

/** "2026-12-05 18:00": the end as operators pick it (to the minute). */
export function suspensionEndText(endsAt: Date | null): string {
  return endsAt ? formatDateTime(endsAt).slice(0, 16) : '恢复交易';
}

/** The refusal a suspended enterprise reads: "贵企业已被暂停交易：<原因>（至 2026-12-05 18:00）". */
export function suspendedMessage(s: { reason: string; endsAt: Date | null }): string {
  return `贵企业已被暂停交易：${s.reason}（${s.endsAt ? `至 ${suspensionEndText(s.endsAt)}` : '至交易中心恢复交易'}）`;
}

// ---------- the check on every trading path ----------

/**
 * Per process and database, a copy of the active suspensions, so the bid path pays no query until the next
 * suspension event. A suspension, a lift or an end drops the copy on every process (the events cross processes);
 * this process drops it at once as well, before it answers, so its own next request never sees an old copy.
 */
const copies = new WeakMap<Db | Tx, Promise<Map<number, InForce[]>>>();
const listening = new WeakSet<Db | Tx>();

const ACTIVE_SUSPENSIONS = {
  name: 'coalx_active_suspensions',
  // few rows at any time: the suspensions not yet lifted or marked ended; a passed end is filtered by the caller's clock
  text: `SELECT id, enterprise_id, reason, ends_at FROM enterprise_suspension WHERE status = 'active'`,
};

async function loadActive(db: Db): Promise<Map<number, InForce[]>> {
  const rows = await queryPrepared<{ id: string | number; enterprise_id: string | number; reason: string; ends_at: string | Date | null }>(db, ACTIVE_SUSPENSIONS, []);
  const byEnterprise = new Map<number, InForce[]>();
  for (const row of rows) {
    const held = { id: Number(row.id), reason: row.reason, endsAt: row.ends_at === null ? null : new Date(row.ends_at) };
    byEnterprise.set(Number(row.enterprise_id), [...(byEnterprise.get(Number(row.enterprise_id)) ?? []), held]);
  }
  return byEnterprise;
}

/**
 * The active suspensions of every enterprise, read in one query per process and shared by every caller, so every
 * check waits on the same promise: callers resume in the order they asked, and the groups of 摘牌 and bids they
 * queue into keep their arrival order (a per-enterprise read would let a later request overtake an earlier one).
 */
function activeSuspensions(db: Db): Promise<Map<number, InForce[]>> {
  let copy = copies.get(db);
  if (!copy) {
    copy = loadActive(db);
    copies.set(db, copy);
    const loading = copy;
    loading.catch(() => {
      if (copies.get(db) === loading) copies.delete(db);
    });
  }
  if (!listening.has(db)) {
    listening.add(db);
    const bus = eventBusOf(db);
    const drop = () => copies.delete(db);
    bus.on('enterprise.trading_suspended', drop);
    bus.on('enterprise.trading_resumed', drop);
    bus.on('enterprise.trading_suspension_ended', drop);
  }
  return copy;
}

async function suspensionInForce(db: Db, enterpriseId: number, now: Date): Promise<InForce | null> {
  const active = (await activeSuspensions(db)).get(enterpriseId) ?? [];
  // the one that lasts longest: until lifted, else the latest end still ahead
  const inForce = active.filter((s) => !s.endsAt || s.endsAt > now);
  return inForce.find((s) => !s.endsAt) ?? inForce.sort((a, b) => b.endsAt!.getTime() - a.endsAt!.getTime())[0] ?? null;
}

/**
 * Refuses (422, with the reason and the end) when the enterprise's trading is suspended. Every path that starts a
 * trade calls it first: publishing a listing or an auction, 摘牌, enrolling and bidding.
 */
export async function requireTradingAllowed(db: Db, clock: Clock, enterpriseId: number | null): Promise<void> {
  if (enterpriseId === null) return;
  const held = await suspensionInForce(db, enterpriseId, clock.now());
  if (held) throw appError('trading_suspended', suspendedMessage(held));
}

/**
 * The trading centre's approval puts a submitted listing or auction on the market: refused while its publisher is
 * suspended (it was submitted before the suspension), so a suspension stops every new trade, whoever acts.
 */
export async function requirePublisherTradingAllowed(db: Db, clock: Clock, publisherId: number): Promise<void> {
  const held = await suspensionInForce(db, publisherId, clock.now());
  if (held) throw appError('trading_suspended', `发布企业已被暂停交易，不能审核通过：${held.reason}（${held.endsAt ? `至 ${suspensionEndText(held.endsAt)}` : '至交易中心恢复交易'}）`);
}

/** Trading states of many enterprises at once (企业名录): the suspension in force of each, when there is one. */
export async function suspensionsInForce(db: Db, enterpriseIds: number[], now: Date): Promise<Map<number, Suspension>> {
  const found = new Map<number, Suspension>();
  if (!enterpriseIds.length) return found;
  const rows = await db
    .select()
    .from(enterpriseSuspensions)
    .where(and(inArray(enterpriseSuspensions.enterpriseId, enterpriseIds), eq(enterpriseSuspensions.status, 'active')));
  for (const row of rows) if (!row.endsAt || row.endsAt > now) found.set(row.enterpriseId, row);
  return found;
}

export async function suspensionHistory(db: Db, enterpriseId: number): Promise<Suspension[]> {
  return db.select().from(enterpriseSuspensions).where(eq(enterpriseSuspensions.enterpriseId, enterpriseId)).orderBy(desc(enterpriseSuspensions.createdAt), desc(enterpriseSuspensions.id));
}

// ---------- the operator's actions ----------

export interface SuspendInput {
  enterpriseId: number;
  reason: string;
  /** ISO date-time; absent: until lifted */
  endsAt?: string | null;
}

export async function suspendTrading(db: Db, clock: Clock, operatorId: number, input: SuspendInput): Promise<Suspension> {
  const reason = cleanReason(input.reason, '暂停交易原因');
  const now = clock.now();
  const endsAt = input.endsAt ? new Date(input.endsAt) : null;
  if (endsAt && Number.isNaN(endsAt.getTime())) throw businessRule('暂停截止时间格式不正确');
  if (endsAt && endsAt.getTime() <= now.getTime()) throw businessRule('暂停截止时间须晚于当前时间');
  const made = await db.transaction(async (tx) => {
    // the enterprise's row lock: two operators suspending at once make one suspension
    const [enterprise] = await tx.select().from(enterprises).where(eq(enterprises.id, input.enterpriseId)).for('update').limit(1);
    if (!enterprise || enterprise.auditStatus === 'platform') throw notFound('企业不存在');
    if (enterprise.auditStatus !== 'approved') throw businessRule('该企业尚未通过审核，无需暂停交易');
    const active = await tx
      .select()
      .from(enterpriseSuspensions)
      .where(and(eq(enterpriseSuspensions.enterpriseId, enterprise.id), eq(enterpriseSuspensions.status, 'active')));
    const inForce = active.find((s) => !s.endsAt || s.endsAt > now);
    if (inForce) throw appError('conflict', `该企业已处于暂停交易中（${inForce.endsAt ? `至 ${suspensionEndText(inForce.endsAt)}` : '至恢复交易'}），请先恢复交易`);
    // a passed period still marked active ends now, so one enterprise has at most one active row
    for (const old of active) await endSuspension(tx, old.id, now);
    const [row] = await tx
      .insert(enterpriseSuspensions)
      .values({ enterpriseId: enterprise.id, reason, startsAt: now, endsAt, status: 'active', createdBy: operatorId, createdAt: now, updatedAt: now })
      .returning();
    await publish(tx, 'enterprise.trading_suspended', { id: row!.id, enterpriseId: enterprise.id });
    return row!;
  });
  copies.delete(db);
  return made;
}

export async function liftSuspension(db: Db, clock: Clock, operatorId: number, input: { enterpriseId: number; reason: string }): Promise<Suspension> {
  const reason = cleanReason(input.reason, '恢复交易原因');
  const now = clock.now();
  const lifted = await db.transaction(async (tx) => {
    const active = await tx
      .select()
      .from(enterpriseSuspensions)
      .where(and(eq(enterpriseSuspensions.enterpriseId, input.enterpriseId), eq(enterpriseSuspensions.status, 'active')));
    const inForce = active.find((s) => !s.endsAt || s.endsAt > now);
    if (!inForce) throw businessRule('该企业当前未被暂停交易');
    return transition(tx, TradingSuspensionStates, 'lift', {
      table: enterpriseSuspensions,
      where: eq(enterpriseSuspensions.id, inForce.id),
      set: { liftedAt: now, liftedBy: operatorId, liftReason: reason, updatedAt: now },
      notFoundMessage: '暂停记录不存在',
    });
  });
  copies.delete(db);
  return lifted;
}

function endSuspension(tx: Tx, id: number, now: Date) {
  return transition(tx, TradingSuspensionStates, 'end', {
    table: enterpriseSuspensions,
    where: eq(enterpriseSuspensions.id, id),
    set: { updatedAt: now },
    idempotent: true,
  });
}

/** The scheduler's round: every active suspension whose end time has passed is marked ended (once, on any process). */
export async function endPassedSuspensions(db: Db, now: Date): Promise<number> {
  const passed = await db
    .select({ id: enterpriseSuspensions.id })
    .from(enterpriseSuspensions)
    .where(and(eq(enterpriseSuspensions.status, 'active'), isNotNull(enterpriseSuspensions.endsAt), lte(enterpriseSuspensions.endsAt, now)));
  let ended = 0;
  for (const { id } of passed) {
    const row = await db.transaction((tx) => endSuspension(tx, id, now));
    if (row) ended++;
  }
  if (ended) copies.delete(db);
  return ended;
}
