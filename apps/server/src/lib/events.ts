import { randomUUID } from 'node:crypto';
import { MARKET_STATE_MACHINES, STATE_MACHINES, type EventOf } from '@coalx/shared';
import { sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../db/client';

/**
 * Domain events: a service says what happened (`listing.approved`, `deal.created`), and side effects (live pushes,
 * cache invalidation, scheduler follow-ups, later the contract chain) listen. Published inside a transaction, an
 * event is held until the transaction commits, so a rolled-back change is never announced.
 */

/** The events of every status move (packages/shared/src/states.ts). */
type StatusEventName = EventOf<(typeof STATE_MACHINES)[keyof typeof STATE_MACHINES]>;

/**
 * The events of every market state move (packages/shared/src/trade/market-states.ts): listing.opened,
 * listing.ended, listing.reopened, auction.enrolment_closed, auction.bidding_started, auction.ended.
 */
type MarketEventName = EventOf<(typeof MARKET_STATE_MACHINES)[keyof typeof MARKET_STATE_MACHINES]>;

/** What a status move announces: the row's id and the state it entered. */
export interface StatusMoved {
  id: number;
  to: string;
}

/** What a market state move announces: also the trade number (live screens and caches are keyed by it). */
export interface MarketMoved extends StatusMoved {
  tradeNo: string;
}

export type DomainEvents = { [K in StatusEventName]: StatusMoved } & { [K in MarketEventName]: MarketMoved } & {
  /** A trader enrolled in an auction (its deposit frozen). */
  'auction.enrolled': { tradeNo: string; enrolmentId: number };
  /** Everything a live screen needs to apply the bid without reading it back (plugins/realtime.ts). */
  'auction.bid_accepted': { tradeNo: string; seq: number; price: number; bidder: string; at: number; currentEnd: number; inExtension: boolean };
  /** The award ended the auction (the market table's `end` move), with its result. */
  'auction.ended': { result: 'deal' | 'failed' };
  /** The trading centre paused bidding: the reason and the bidding time left, frozen until resumed. */
  'auction.paused': { reason: string; remainingMs: number };
  /** Bidding resumed with the time left at the pause: the new deadline. */
  'auction.resumed': { currentEnd: number };
  /** The trading centre cancelled the auction: no deal, every deposit released. */
  'auction.cancelled': { reason: string };
  /** A listing's remaining quantity changed (subscribed, declined). */
  'listing.quantity_changed': { id: number };
  /** Every deal of both flows, made by deal.service. */
  'deal.created': { dealId: number; dealNo: string; tradeKind: 'listing' | 'auction' | 'long_term'; tradeNo: string };
  /** A deal's contract, or a long-term deal's framework contract, was generated. */
  'contract.created': { id: number; dealId: number | null; longTermId: number | null; contractNo: string };
  'content.saved': { id: number };
  'content.banners_changed': Record<string, never>;
  'market_index.published': { year: number; term: number };
  'home.recommendations_changed': Record<string, never>;
  /** A day's 交易日报 was made and archived (by the schedule, or on demand by the operator when madeBy is set). */
  'statistics.daily_report_made': { id: number; reportDate: string; madeBy: number | null };
  /** A buyer applied to a long-term offer. */
  'longterm.applied': { id: number; applicationId: number };
  /** A month's call-off was issued (seller) or requested (buyer), waiting for the other side. */
  'calloff.created': { id: number; longTermId: number };
  /** A role was made, edited or deleted: every process reloads the grants it enforces (plugins/grants.ts). */
  'role.grants_changed': { roleId: number };
  /**
   * Rows born waiting for someone (no status move announces a birth): each is a notice to whoever must act next
   * (queries/notices). A subscription (摘牌) waits for the publisher's answer; a registration, a change request, a
   * 入金 or 出金, a driver and a paper contract for the trading centre's review; a truck, a lab report, a statement
   * and an invoice for the other party; an order for the buyer's payment.
   */
  'subscription.created': { id: number };
  'enterprise.registered': { id: number };
  'enterprise.change_requested': { id: number };
  'funds.deposit_in_applied': { id: number };
  'funds.withdrawal_applied': { id: number };
  'driver.registered': { id: number };
  'contractupload.submitted': { id: number };
  'order.created': { id: number };
  'dispatch.created': { id: number };
  'dispatch.dispute_answered': { id: number };
  'qualityreport.submitted': { id: number };
  'statement.issued': { id: number };
  'invoice.registered': { id: number };
  /** The trading centre suspended an enterprise's trading (暂停交易): its members are told, every process forgets its copy. */
  'enterprise.trading_suspended': { id: number; enterpriseId: number };
  /** A funds reconciliation (资金对账) found a difference: a to-do for the trading centre. */
  'funds.reconciliation_differs': { id: number; day: string };
  /** Messages were made for these users (every process pushes the new unread count to their open sockets). */
  'message.created': { userIds: number[]; messageIds: number[] };
  /** A user read messages (their other tabs update the count). */
  'message.read': { userId: number };
};
export type EventName = keyof DomainEvents;

/**
 * Events some process other than the publisher's must hear (live auction screens are served by every process):
 * they travel through PostgreSQL NOTIFY, sent inside the transaction, so PostgreSQL itself delivers them on commit,
 * to every process including this one.
 */
export const CROSS_PROCESS_EVENTS: ReadonlySet<EventName> = new Set<EventName>([
  'auction.enrolled',
  'auction.bid_accepted',
  // the auction's market moves: live screens and every process's bid sequencer follow them
  'auction.enrolment_closed',
  'auction.bidding_started',
  'auction.ended',
  'auction.paused',
  'auction.resumed',
  'auction.cancelled',
  'role.grants_changed',
  // every process's trading-rights copy (modules/enterprise/trading-rights.service.ts) follows the suspensions
  'enterprise.trading_suspended',
  'enterprise.trading_resumed',
  'enterprise.trading_suspension_ended',
  'message.created',
  'message.read',
]);
export const EVENTS_CHANNEL = 'coalx_events';

type Listener<K extends EventName> = (payload: DomainEvents[K]) => unknown;
type Queued = { name: EventName; payload: unknown };

/**
 * Keeps chosen events durably, in the transaction that publishes them (the notifications' outbox, issue 28): a
 * committed change always has its event row, a rolled-back one never.
 */
export interface EventRecorder {
  records(name: EventName): boolean;
  record(db: Db | Tx, name: EventName, payload: unknown): Promise<void>;
}

/** The listeners of one database's events (one per app; tests run several apps, each on its own database). */
export class EventBus {
  private listeners = new Map<EventName, Set<Listener<never>>>();
  /** set by the app that keeps a durable record of some events (plugins/notifications.ts) */
  recorder: EventRecorder | null = null;
  onError: (err: unknown, name: EventName) => void = (err, name) => console.error(`event listener of ${name} failed`, err);

  /** Listens to one event; returns the function that stops listening. */
  on<K extends EventName>(name: K, listener: Listener<K>): () => void {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    set.add(listener as Listener<never>);
    return () => set.delete(listener as Listener<never>);
  }

  /** Runs every listener of the event; one failing listener is logged and does not stop the others. */
  async deliver(name: EventName, payload: unknown) {
    for (const listener of this.listeners.get(name) ?? []) {
      try {
        await (listener as Listener<EventName>)(payload as never);
      } catch (err) {
        this.onError(err, name);
      }
    }
  }

  listenerCount(name: EventName) {
    return this.listeners.get(name)?.size ?? 0;
  }
}

const busOfDb = new WeakMap<Db, EventBus>();
const queueOfTx = new WeakMap<Tx, Queued[]>();
/** The bus of each transaction's database (a transaction handle does not know its database). */
const busOfTx = new WeakMap<Tx, EventBus>();

export function eventBusOf(db: Db): EventBus {
  let bus = busOfDb.get(db);
  if (!bus) busOfDb.set(db, (bus = new EventBus()));
  return bus;
}

const deliversAfterCommit = new WeakSet<Db>();
/** Databases one process has to itself (PGlite: the data folder is locked), and their transactions. */
const singleProcess = new WeakSet<Db | Tx>();

/** Whether cross-process events of this database travel through NOTIFY (false: one process, delivered in it). */
export function notifiesAcrossProcesses(db: Db | Tx): boolean {
  return !singleProcess.has(db);
}

/**
 * Makes every `db.transaction` of this database hold the events published inside it and deliver them after it
 * commits (a rolled-back transaction's events are dropped). Called once when the database is opened. On a database
 * no other process can open, cross-process events are delivered the same way: a NOTIFY would only come back here.
 */
export function deliverEventsAfterCommit(db: Db, options: { singleProcess?: boolean } = {}): Db {
  if (deliversAfterCommit.has(db)) return db;
  deliversAfterCommit.add(db);
  if (options.singleProcess) singleProcess.add(db);
  const transaction = db.transaction.bind(db);
  db.transaction = (async (work, config) => {
    const queue: Queued[] = [];
    const result = await transaction(async (tx) => {
      if (options.singleProcess) singleProcess.add(tx);
      busOfTx.set(tx, eventBusOf(db));
      holdEvents(tx, queue);
      return work(tx);
    }, config);
    const bus = eventBusOf(db);
    for (const { name, payload } of queue) await bus.deliver(name, payload);
    return result;
  }) as Db['transaction'];
  return db;
}

/** Events of `tx` go to `queue`; a nested transaction (savepoint) adds its own to it only if it is released. */
function holdEvents(tx: Tx, queue: Queued[]) {
  queueOfTx.set(tx, queue);
  const savepoints = tx as unknown as { transaction: Db['transaction'] };
  const nested = savepoints.transaction.bind(tx);
  savepoints.transaction = (async (work, config) => {
    const inner: Queued[] = [];
    const result = await nested(async (innerTx) => {
      if (singleProcess.has(tx)) singleProcess.add(innerTx);
      const bus = busOfTx.get(tx);
      if (bus) busOfTx.set(innerTx, bus);
      holdEvents(innerTx, inner);
      return work(innerTx);
    }, config);
    queue.push(...inner);
    return result;
  }) as Db['transaction'];
}

/**
 * Announces an event. Inside a transaction it waits for the commit; with the plain `db` (the change is already
 * committed) it is delivered now. Cross-process events are sent with pg_notify in the same transaction instead.
 */
export async function publish<K extends EventName>(db: Db | Tx, name: K, payload: DomainEvents[K]): Promise<void> {
  const inTransaction = db instanceof PgTransaction;
  const recorder = (inTransaction ? busOfTx.get(db as Tx) : busOfDb.get(db as Db))?.recorder;
  if (recorder?.records(name)) await recorder.record(db, name, payload);
  if (CROSS_PROCESS_EVENTS.has(name) && notifiesAcrossProcesses(db)) {
    await db.execute(sql`SELECT pg_notify(${EVENTS_CHANNEL}, ${JSON.stringify({ name, payload })})`);
    return;
  }
  if (inTransaction) {
    const queue = queueOfTx.get(db as Tx);
    // every transaction of a database opened by db/client.ts has a queue: anything else is a programming error
    if (!queue) throw new Error(`事件 ${name} 发布于未登记的事务中`);
    queue.push({ name, payload });
    return;
  }
  await eventBusOf(db as Db).deliver(name, payload);
}

/** A random mark per database handle (per app), carried by the notifications it has already delivered to itself. */
const originOfDb = new WeakMap<Db, string>();
function originOf(db: Db): string {
  let origin = originOfDb.get(db);
  if (!origin) originOfDb.set(db, (origin = randomUUID()));
  return origin;
}

/**
 * For a hot path that writes its own pg_notify in its statement: the notification texts, marked with this app's
 * origin so its own echo is skipped, because the app delivers them to itself at once with `deliverHere` after the
 * commit instead of waiting for the round trip through the server (other processes still hear them by NOTIFY).
 */
export function notificationsDeliveredHere<K extends EventName>(db: Db, name: K, payloads: DomainEvents[K][]): string[] {
  if (!notifiesAcrossProcesses(db)) return [];
  const origin = originOf(db);
  return payloads.map((payload) => JSON.stringify({ name, payload, origin }));
}

/** Delivers committed events to this app's listeners now, in order (see notificationsDeliveredHere). */
export async function deliverHere<K extends EventName>(db: Db, name: K, payloads: DomainEvents[K][]): Promise<void> {
  const bus = eventBusOf(db);
  for (const payload of payloads) await bus.deliver(name, payload);
}

/** Feeds the cross-process events this database's NOTIFY channel carries to the local listeners. */
export async function listenAcrossProcesses(database: { db: Db; listen(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>> }, onBadPayload: (payload: string, err: unknown) => void) {
  const bus = eventBusOf(database.db);
  return database.listen(EVENTS_CHANNEL, (text) => {
    try {
      const { name, payload, origin } = JSON.parse(text) as Queued & { origin?: string };
      if (!CROSS_PROCESS_EVENTS.has(name)) throw new Error(`unknown event ${String(name)}`);
      // this app sent it and has delivered it to itself already
      if (origin !== undefined && origin === originOfDb.get(database.db)) return;
      void bus.deliver(name, payload);
    } catch (err) {
      onBadPayload(text, err);
    }
  });
}
