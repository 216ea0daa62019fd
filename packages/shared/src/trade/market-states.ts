import type { StateMachine } from '../state-machine';
import { AuctionState, HangState, type AuctionStateCode, type HangStateCode } from './types';

/**
 * Market states (hangState) of approved listings and auctions as transition tables, like every status: the moves,
 * the event each publishes, and the rule that gives the state at a moment, written once as data so the TypeScript
 * (`marketStateAt`) and the SQL the server builds from it (`apps/server/src/lib/transition.ts`) are the same rule.
 * Unlike the publishing status, the state is stored and sent as a number (`HangState`, `AuctionState`).
 */

/** A condition that settles the state whatever the time: a field at least another (sold out), or a stored state. */
export type SettledWhen<S extends string, F extends string> = { field: F; atLeast: F } | { stored: S };

/**
 * The state at `now`, read top-down: the settled conditions first (the first that holds gives its state); then the first time field `now` is still before
 * gives its state; past them all, `after`.
 */
export interface TimeRule<S extends string = string, F extends string = string> {
  settled: readonly { when: SettledWhen<S, F>; state: S }[];
  before: readonly { field: F; state: S }[];
  after: S;
}

export interface MarketStateMachine<S extends string = string, M extends string = string, E extends string = string, F extends string = string>
  extends StateMachine<S, M, E> {
  /** The row field the state is stored in. */
  column: 'hangState';
  /** The number each state is stored and sent as. */
  codes: Readonly<Record<S, number>>;
  timeRule: TimeRule<S, F>;
}

/** Declares a market table; the `const` type parameters keep state, move, event and field names as literal types. */
export function defineMarketStateMachine<const S extends string, const M extends string, const E extends string, const F extends string>(machine: {
  label: string;
  states: Record<S, string>;
  codes: Record<NoInfer<S>, number>;
  moves: Record<M, { from: readonly NoInfer<S>[]; to: NoInfer<S>; event: E }>;
  timeRule: { settled: readonly { when: SettledWhen<NoInfer<S>, F>; state: NoInfer<S> }[]; before: readonly { field: F; state: NoInfer<S> }[]; after: NoInfer<S> };
}): MarketStateMachine<S, M, E, F> {
  return { ...machine, column: 'hangState' };
}

/**
 * An approved listing: not started, open inside its window, ended after it or once sold out. A declined
 * subscription gives quantity back, and a listing it had sold out reopens while its window lasts.
 */
export const ListingMarketStates = defineMarketStateMachine({
  label: '挂牌状态',
  states: { notStarted: '未开始', open: '挂牌中', ended: '已结束' },
  codes: HangState,
  moves: {
    open: { from: ['notStarted'], to: 'open', event: 'listing.opened' },
    end: { from: ['notStarted', 'open'], to: 'ended', event: 'listing.ended' },
    reopen: { from: ['ended'], to: 'open', event: 'listing.reopened' },
  },
  timeRule: {
    settled: [{ when: { field: 'subscribedKg', atLeast: 'quantityKg' }, state: 'ended' }],
    before: [
      { field: 'listedDateStart', state: 'notStarted' },
      { field: 'listedDateEnd', state: 'open' },
    ],
    after: 'ended',
  },
});

/**
 * An approved auction: enrolment, waiting for bidding, bidding until the deadline in force (`currentEnd`, which
 * bids extend), ended. `ended` is final once stored: the award stores it with the result. The trading centre may
 * pause bidding (the time left is kept and given back on resume) and cancel an auction not yet ended (deposits
 * released, no deal); `paused` and `cancelled` are stored states the clock never moves.
 */
export const AuctionMarketStates = defineMarketStateMachine({
  label: '竞价状态',
  states: { enrolling: '报名中', waiting: '待竞价', bidding: '竞价中', ended: '已结束', paused: '暂停', cancelled: '已撤销' },
  codes: AuctionState,
  moves: {
    closeEnrolment: { from: ['enrolling'], to: 'waiting', event: 'auction.enrolment_closed' },
    startBidding: { from: ['enrolling', 'waiting'], to: 'bidding', event: 'auction.bidding_started' },
    end: { from: ['enrolling', 'waiting', 'bidding'], to: 'ended', event: 'auction.ended' },
    pause: { from: ['bidding'], to: 'paused', event: 'auction.paused' },
    resume: { from: ['paused'], to: 'bidding', event: 'auction.resumed' },
    cancel: { from: ['enrolling', 'waiting', 'bidding', 'paused'], to: 'cancelled', event: 'auction.cancelled' },
  },
  timeRule: {
    settled: [
      { when: { stored: 'ended' }, state: 'ended' },
      { when: { stored: 'paused' }, state: 'paused' },
      { when: { stored: 'cancelled' }, state: 'cancelled' },
    ],
    before: [
      { field: 'enrolDeadline', state: 'enrolling' },
      { field: 'bidStart', state: 'waiting' },
      { field: 'currentEnd', state: 'bidding' },
    ],
    after: 'ended',
  },
});

/** Every market table (their events are declared with the status events, apps/server/src/lib/events.ts). */
export const MARKET_STATE_MACHINES = { listing: ListingMarketStates, auction: AuctionMarketStates } as const;

type FieldsOf<T> = T extends MarketStateMachine<string, string, string, infer F> ? F : never;
type StatesOf<T> = T extends MarketStateMachine<infer S, string, string, string> ? S : never;
/** The fields a table's time rule reads from a row (the stored state too, when the rule reads it). */
export type TimedRow<T extends MarketStateMachine> = { [K in FieldsOf<T>]: number | Date } & { hangState?: number };

/** The state (by name) of a row at `now`, by the table's time rule. */
export function marketStateAt<T extends MarketStateMachine>(machine: T, row: TimedRow<T>, now: Date): StatesOf<T> {
  const { settled, before, after } = machine.timeRule;
  const value = (field: string) => (row as Record<string, number | Date>)[field]!;
  for (const { when, state } of settled) {
    const holds = 'stored' in when ? row.hangState === machine.codes[when.stored] : Number(value(when.field)) >= Number(value(when.atLeast));
    if (holds) return state as StatesOf<T>;
  }
  for (const { field, state } of before) if (now < (value(field) as Date)) return state as StatesOf<T>;
  return after as StatesOf<T>;
}

/** The state's number (what the row stores). */
export function marketCode<T extends MarketStateMachine>(machine: T, state: StatesOf<T>): number {
  return (machine.codes as Record<string, number>)[state]!;
}

/** The state's name from its number; undefined for a number the table does not know. */
export function marketStateOf<T extends MarketStateMachine>(machine: T, code: number): StatesOf<T> | undefined {
  return Object.entries(machine.codes).find(([, c]) => c === code)?.[0] as StatesOf<T> | undefined;
}

/** The move that takes `from` to `to`, if the table has one. */
export function moveBetween<S extends string, M extends string>(machine: StateMachine<S, M>, from: string, to: string): M | undefined {
  return (Object.entries(machine.moves) as [M, { from: readonly string[]; to: string }][]).find(([, m]) => m.to === to && m.from.includes(from))?.[0];
}

/** The market state of an approved listing at `now`: before, inside or after its window (sold out ends it). */
export function listingHangState(
  listing: { subscribedKg: number; quantityKg: number; listedDateStart: Date; listedDateEnd: Date },
  now: Date,
): HangStateCode {
  return marketCode(ListingMarketStates, marketStateAt(ListingMarketStates, listing, now)) as HangStateCode;
}

/** The market state of an approved auction at `now`, from its stored state and its times. */
export function auctionHangState(a: { hangState: number; enrolDeadline: Date; bidStart: Date; currentEnd: Date }, now: Date): AuctionStateCode {
  return marketCode(AuctionMarketStates, marketStateAt(AuctionMarketStates, a, now)) as AuctionStateCode;
}
