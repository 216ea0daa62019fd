import { amountFen, auctionHangState, AuctionState, BID_LOG_ALGORITHM, bidderAlias, bidLogGenesis, bidLogTime, formatDateTime, maskName, type AuctionApply, type AuctionBidLog, type AuctionSnapshot, AuctionStates } from '@coalx/shared';
import { and, asc, count, desc, eq, gte, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { shanghaiDayStart } from '../../lib/shanghai-time';
import type { Db, Tx } from '../../db/client';
import { auctionBids, auctionEnrolments, auctions } from '../../db/schema/index';
import { businessRule, notFound } from '../../errors';
import type { Clock } from '../../lib/clock';
import { auditPublished, savePublished, tradeColumns, type Publishing } from '../../lib/publishing';
import type { Actor } from '../../lib/actor';
import { enterpriseIdByClientId, enterpriseNames } from '../enterprise/enterprise.service';
import { findEnabledProduct } from '../product/product.service';
import { auctionPolicy } from './auction.policy';
import { auctionStateAt } from './auction.state';

type AuctionRow = typeof auctions.$inferSelect;

export function presentAuction(a: AuctionRow & { stateNow?: number }, enterpriseName: string) {
  return {
    tradeId: a.tradeNo,
    tradeType: a.tradeType,
    stockCode: a.stockCode,
    productName: a.productName,
    category: a.category,
    enterpriseName,
    status: a.status,
    rejectReason: a.rejectReason,
    hangState: a.status === 'approved' ? (a.stateNow ?? a.hangState) : AuctionState.enrolling,
    result: a.result,
    startPrice: a.startPriceFen,
    price: a.bestPriceFen ?? a.startPriceFen,
    bestPrice: a.bestPriceFen,
    minStep: a.minStepFen,
    maxStep: a.maxStepFen,
    limitPrice: a.limitPriceFen,
    deposit: a.depositFen,
    quantity: a.quantityKg,
    quality: a.quality as Record<string, number | null>,
    enrolDeadline: formatDateTime(a.enrolDeadline),
    bidDateStart: formatDateTime(a.bidStart),
    bidDateEnd: formatDateTime(a.bidEnd),
    currentEnd: formatDateTime(a.currentEnd),
    extensionSeconds: a.extensionSeconds,
    bidCount: a.bidCount,
    enrolCount: a.enrolCount,
    priceType: a.priceType,
    transport: a.transport,
    deliveryProvince: a.deliveryProvince,
    deliveryCity: a.deliveryCity,
    deliveryDistrict: a.deliveryDistrict,
    deliveryPlace: a.deliveryPlace,
    deliveryDateStart: a.deliveryDateStart,
    deliveryDateEnd: a.deliveryDateEnd,
    auditTime: a.auditTime ? formatDateTime(a.auditTime) : null,
    remark: a.remark,
    createdAt: formatDateTime(a.createdAt),
  };
}
export type AuctionViewData = ReturnType<typeof presentAuction>;

/** The publishing workflow (draft, submit, audit) on this module's table. */
const publishing: Publishing<typeof auctions> = { table: auctions, states: AuctionStates, prefix: 'JJ', notFoundMessage: '竞价不存在', policy: auctionPolicy };

export async function saveAuction(db: Db, clock: Clock, actor: Actor, input: AuctionApply) {
  auctionPolicy.can(actor, 'publish');
  const now = clock.now();
  const enrolDeadline = new Date(input.enrolDeadline);
  const bidStart = new Date(input.bidStart);
  const bidEnd = new Date(input.bidEnd);
  if (input.submit && enrolDeadline.getTime() < now.getTime() - 60_000) throw businessRule('报名截止时间须晚于当前时间');
  const bidDay = new Date(bidEnd.getTime() + 8 * 3600 * 1000).toISOString().slice(0, 10);
  if (input.deliveryDateStart < bidDay) throw businessRule('交收开始日期不能早于竞价结束日期');
  const product = await findEnabledProduct(db, input.stockCode);
  const values = {
    ...tradeColumns(input, product),
    startPriceFen: input.startPrice,
    minStepFen: input.minStep,
    maxStepFen: input.maxStep,
    limitPriceFen: input.limitPrice,
    depositFen: input.deposit,
    enrolDeadline,
    bidStart,
    bidEnd,
    currentEnd: bidEnd,
    extensionSeconds: input.extensionSeconds,
  };
  return savePublished(db, publishing, actor, now, input, values);
}

export async function findAuction(db: Db | Tx, tradeNo: string) {
  const [auction] = await db.select().from(auctions).where(eq(auctions.tradeNo, tradeNo)).limit(1);
  if (!auction) throw notFound('竞价不存在');
  const names = await enterpriseNames(db, [auction.enterpriseId]);
  return { auction, enterpriseName: names.get(auction.enterpriseId) ?? '' };
}

/** Public once approved; before that only its enterprise and the trading centre. */
export async function auctionDetail(db: Db, clock: Clock, actor: Actor | null, tradeNo: string) {
  const { auction, enterpriseName } = await findAuction(db, tradeNo);
  if (auction.status !== 'approved' && !auctionPolicy.allows(actor, 'seePrivate', auction)) throw notFound('竞价不存在或尚未公开');
  return presentAuction({ ...auction, stateNow: auctionHangState(auction, clock.now()) }, enterpriseName);
}

export async function auditAuction(db: Db, clock: Clock, actor: Actor, tradeNo: string, decision: { approve: true } | { approve: false; reason: string }) {
  // approval's follow-up (the market state at once) listens to auction.approved
  return auditPublished(db, publishing, actor, clock.now(), tradeNo, decision);
}

async function pageOfAuctions(db: Db, now: Date, where: SQL | undefined, pageNo: number, pageSize: number, order: SQL[]) {
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(auctions).where(where);
  const rows = await db
    .select({ auction: auctions, stateNow: auctionStateAt(now) })
    .from(auctions)
    .where(where)
    .orderBy(...order)
    .limit(pageSize)
    .offset((pageNo - 1) * pageSize);
  const names = await enterpriseNames(db, rows.map((r) => r.auction.enterpriseId));
  return {
    records: rows.map((r) => presentAuction({ ...r.auction, stateNow: Number(r.stateNow) }, names.get(r.auction.enterpriseId) ?? '')),
    total,
    current: pageNo,
    size: pageSize,
  };
}

/** The public auction hall: approved auctions in every state (spec §4 auction table), live ones first. */
export async function marketAuctions(
  db: Db,
  clock: Clock,
  query: { pageNo: number; pageSize: number; tradeType?: number; enterpriseId?: string; tradeId?: string; productName?: string; hangState?: number },
) {
  const now = clock.now();
  const state = auctionStateAt(now);
  // the publisher filter names a client number; one that names no enterprise matches no auction
  const publisherId = query.enterpriseId ? await enterpriseIdByClientId(db, query.enterpriseId) : undefined;
  const where = and(
    eq(auctions.status, 'approved'),
    query.hangState !== undefined ? sql`${state} = ${query.hangState}` : undefined,
    query.tradeType !== undefined ? eq(auctions.tradeType, query.tradeType) : undefined,
    publisherId === undefined ? undefined : publisherId === null ? sql`false` : eq(auctions.enterpriseId, publisherId),
    query.tradeId ? eq(auctions.tradeNo, query.tradeId) : undefined,
    query.productName ? sql`${auctions.productName} ILIKE ${'%' + query.productName.replace(/[%_\\]/g, '\\$&') + '%'}` : undefined,
  );
  return pageOfAuctions(db, now, where, query.pageNo, query.pageSize, [
    // a paused auction stays with the live ones (the trading centre holds it for a moment)
    sql`CASE ${state} WHEN 2 THEN 0 WHEN 4 THEN 0 WHEN 0 THEN 1 WHEN 1 THEN 2 ELSE 3 END`,
    desc(auctions.bidStart),
  ]);
}

/** Approved auctions not yet decided whose bidding starts on the Shanghai day of `now` (the to-do 今日开始的竞价). */
export function startingToday(now: Date): SQL {
  return and(eq(auctions.status, 'approved'), isNull(auctions.result), gte(auctions.bidStart, shanghaiDayStart(now)), lt(auctions.bidStart, shanghaiDayStart(now, 1)))!;
}

export async function myAuctions(db: Db, clock: Clock, actor: Actor, query: { pageNo: number; pageSize: number; tradeType?: number; tradeId?: string; status?: string; hangState?: number; startsToday?: '1' }) {
  auctionPolicy.can(actor, 'publish');
  const now = clock.now();
  const where = and(
    eq(auctions.enterpriseId, actor.enterpriseId!),
    query.tradeType !== undefined ? eq(auctions.tradeType, query.tradeType) : undefined,
    query.tradeId ? eq(auctions.tradeNo, query.tradeId) : undefined,
    query.status ? eq(auctions.status, query.status) : undefined,
    query.hangState !== undefined ? and(eq(auctions.status, 'approved'), sql`${auctionStateAt(now)} = ${query.hangState}`) : undefined,
    query.startsToday ? startingToday(now) : undefined,
  );
  // results (ended) come latest-ended first; every other list newest-published first
  const order = query.hangState === AuctionState.ended ? [desc(auctions.currentEnd), desc(auctions.id)] : [desc(auctions.id)];
  return pageOfAuctions(db, now, where, query.pageNo, query.pageSize, order);
}

export async function auctionAuditQueue(db: Db, clock: Clock, actor: Actor, query: { pageNo: number; pageSize: number; status?: string }) {
  auctionPolicy.can(actor, 'audit');
  const where = query.status ? eq(auctions.status, query.status) : inArray(auctions.status, ['submitted', 'approved', 'rejected']);
  return pageOfAuctions(db, clock.now(), where, query.pageNo, query.pageSize, [desc(auctions.updatedAt)]);
}

// ---------- live state ----------

const HISTORY_SIZE = 20;

export interface SnapshotBase {
  snapshot: Omit<AuctionSnapshot, 'me'>;
  /** enterpriseId → bidderNo of enrolled enterprises, to personalise `me` per viewer. */
  bidders: Map<number, number>;
  /** What the clock-derived fields (hangState, inExtension) are computed from, so a cached snapshot stays right. */
  timing: { hangState: number; enrolDeadline: Date; bidStart: Date; currentEnd: Date; bidEnd: Date };
}

/** An accepted bid as its event carries it (lib/events.ts 'auction.bid_accepted'). */
export interface AcceptedBid {
  seq: number;
  price: number;
  bidder: string;
  at: number;
  currentEnd: number;
  inExtension: boolean;
}

/** The live state of an auction as every screen shows it; built once per event and personalised per socket. */
export async function buildSnapshot(db: Db | Tx, clock: Clock, tradeNo: string): Promise<SnapshotBase> {
  const { auction: a } = await findAuction(db, tradeNo);
  if (a.status !== 'approved') throw notFound('竞价不存在或尚未公开');
  const enrolments = await db.select({ enterpriseId: auctionEnrolments.enterpriseId, bidderNo: auctionEnrolments.bidderNo }).from(auctionEnrolments).where(eq(auctionEnrolments.auctionId, a.id));
  const bids = await db.select().from(auctionBids).where(eq(auctionBids.auctionId, a.id)).orderBy(desc(auctionBids.seq)).limit(HISTORY_SIZE);
  // each bidder's best bid; accepted bids only improve, so a bidder's best is its latest
  const bestPerBidder = await db
    .selectDistinctOn([auctionBids.bidderNo], { bidderNo: auctionBids.bidderNo, price: auctionBids.priceFen, at: auctionBids.createdAt, seq: auctionBids.seq })
    .from(auctionBids)
    .where(eq(auctionBids.auctionId, a.id))
    .orderBy(asc(auctionBids.bidderNo), desc(auctionBids.seq));
  const ranking = bestPerBidder
    .sort((x, y) => y.seq - x.seq) // the later accepted bid is always the better one
    .map((b) => ({ bidder: bidderAlias(b.bidderNo), price: b.price, at: b.at.getTime() }));
  const now = clock.now();
  return {
    snapshot: {
      tradeId: a.tradeNo,
      tradeType: a.tradeType,
      hangState: a.status === 'approved' ? auctionHangState(a, now) : AuctionState.enrolling,
      result: a.result,
      startPrice: a.startPriceFen,
      bestPrice: a.bestPriceFen,
      minStep: a.minStepFen,
      maxStep: a.maxStepFen,
      limitPrice: a.limitPriceFen,
      bidStart: a.bidStart.getTime(),
      bidEnd: a.bidEnd.getTime(),
      currentEnd: a.currentEnd.getTime(),
      inExtension: now >= a.bidEnd && a.bidCount > 0,
      extensionSeconds: a.extensionSeconds,
      bidCount: a.bidCount,
      enrolCount: a.enrolCount,
      ranking,
      bids: bids.map((b) => ({ seq: b.seq, bidder: bidderAlias(b.bidderNo), price: b.priceFen, inExtension: b.inExtension === 1, time: formatDateTime(b.createdAt), at: b.createdAt.getTime() })),
      serverTime: now.getTime(),
      operatorReason: a.hangState === AuctionState.paused || a.hangState === AuctionState.cancelled ? a.operatorReason : null,
      pausedRemainingMs: a.hangState === AuctionState.paused ? a.pausedRemainingMs : null,
    },
    bidders: new Map(enrolments.map((e) => [e.enterpriseId, e.bidderNo])),
    timing: { hangState: a.hangState, enrolDeadline: a.enrolDeadline, bidStart: a.bidStart, currentEnd: a.currentEnd, bidEnd: a.bidEnd },
  };
}

/**
 * Applies the next accepted bid to a cached snapshot in memory, exactly as buildSnapshot would read it back: the
 * caller has checked that `bid.seq` is the next one (bidCount + 1).
 */
export function applyBid(base: SnapshotBase, bid: AcceptedBid) {
  const s = base.snapshot;
  s.bestPrice = bid.price;
  s.bidCount = bid.seq;
  s.currentEnd = bid.currentEnd;
  // the bidder's new bid is its best and the best of all (accepted bids only improve)
  s.ranking = [{ bidder: bid.bidder, price: bid.price, at: bid.at }, ...s.ranking.filter((r) => r.bidder !== bid.bidder)];
  s.bids = [{ seq: bid.seq, bidder: bid.bidder, price: bid.price, inExtension: bid.inExtension, time: formatDateTime(bid.at), at: bid.at }, ...s.bids].slice(0, HISTORY_SIZE);
  base.timing = { ...base.timing, hangState: AuctionState.bidding, currentEnd: new Date(bid.currentEnd) };
}

/** The clock-derived fields as of `now`, for a snapshot about to be sent (a cached one may be minutes old). */
export function refreshSnapshot(base: SnapshotBase, now: Date): Omit<AuctionSnapshot, 'me'> {
  const s = base.snapshot;
  s.hangState = auctionHangState(base.timing, now);
  s.inExtension = now >= base.timing.bidEnd && s.bidCount > 0;
  s.serverTime = now.getTime();
  return s;
}

/** The viewer's own part of the snapshot: its alias when its enterprise is enrolled. */
export function meOf(base: SnapshotBase, enterpriseId: number | null | undefined): AuctionSnapshot['me'] {
  const bidderNo = enterpriseId ? base.bidders.get(enterpriseId) : undefined;
  return bidderNo ? { bidder: bidderAlias(bidderNo), enrolled: true } : null;
}

export function personalise(base: SnapshotBase, enterpriseId: number | null | undefined): AuctionSnapshot {
  return { ...base.snapshot, me: meOf(base, enterpriseId) };
}

/** Bid history, newest first; the trading centre also sees who is behind each alias. */
export async function bidHistory(db: Db, actor: Actor | null, query: { tradeId: string; pageNo: number; pageSize: number }) {
  const { auction } = await findAuction(db, query.tradeId);
  if (auction.status !== 'approved' && !auctionPolicy.allows(actor, 'seeAllBidders')) throw notFound('竞价不存在或尚未公开');
  const where = eq(auctionBids.auctionId, auction.id);
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(auctionBids).where(where);
  const rows = await db
    .select()
    .from(auctionBids)
    .where(where)
    .orderBy(desc(auctionBids.seq))
    .limit(query.pageSize)
    .offset((query.pageNo - 1) * query.pageSize);
  const staff = auctionPolicy.allows(actor, 'seeAllBidders');
  const names = staff ? await enterpriseNames(db, rows.map((bid) => bid.enterpriseId)) : new Map<number, string>();
  return {
    records: rows.map((bid) => ({
      seq: bid.seq,
      bidder: bidderAlias(bid.bidderNo),
      enterpriseName: staff ? (names.get(bid.enterpriseId) ?? '') : null,
      price: bid.priceFen,
      inExtension: bid.inExtension === 1,
      time: formatDateTime(bid.createdAt),
      at: bid.createdAt.getTime(),
    })),
    total,
    current: query.pageNo,
    size: query.pageSize,
  };
}

/** The result notice (biddingResults): price, quantity, masked winner, bids and bidders. */
export async function auctionResult(db: Db, clock: Clock, tradeNo: string) {
  const { auction, enterpriseName } = await findAuction(db, tradeNo);
  if (auction.status !== 'approved') throw notFound('竞价不存在或尚未公开');
  const ended = auction.hangState === AuctionState.ended && auction.result !== null;
  const winnerName = auction.bestEnterpriseId && ended ? (await enterpriseNames(db, [auction.bestEnterpriseId])).get(auction.bestEnterpriseId) : undefined;
  const [{ bidders } = { bidders: 0 }] = await db.select({ bidders: sql<number>`COUNT(DISTINCT ${auctionBids.enterpriseId})::int` }).from(auctionBids).where(eq(auctionBids.auctionId, auction.id));
  return {
    auction: presentAuction({ ...auction, stateNow: auctionHangState(auction, clock.now()) }, enterpriseName),
    dealPrice: ended && auction.result === 'deal' ? auction.bestPriceFen : null,
    winner: winnerName !== undefined && auction.result === 'deal' ? maskName(winnerName) : null,
    bidCount: auction.bidCount,
    bidderCount: Number(bidders),
    amount: ended && auction.result === 'deal' && auction.bestPriceFen !== null ? Number(amountFen(auction.bestPriceFen, auction.quantityKg)) : null,
  };
}

/**
 * The public bid log (公开出价记录) of an ended auction: every accepted bid under its alias with its price, server
 * time and hash, the final hash the contract prints, and the announced result, for anyone to recompute. Never an
 * enterprise: aliases only. Before the end the log is not published (the live room shows the latest bids).
 */
export async function auctionBidLog(db: Db, tradeNo: string): Promise<AuctionBidLog> {
  const { auction } = await findAuction(db, tradeNo);
  if (auction.status !== 'approved') throw notFound('竞价不存在或尚未公开');
  if (auction.hangState !== AuctionState.ended || auction.result === null) throw businessRule('竞价尚未结束，出价记录将在竞价结束后公布');
  const rows = await db
    .select({ id: auctionBids.id, seq: auctionBids.seq, bidderNo: auctionBids.bidderNo, price: auctionBids.priceFen, at: auctionBids.createdAt, hash: auctionBids.hash })
    .from(auctionBids)
    .where(eq(auctionBids.auctionId, auction.id))
    .orderBy(asc(auctionBids.seq));
  const genesis = bidLogGenesis(auction.tradeNo);
  const winning = auction.result === 'deal' ? rows.find((r) => r.id === auction.bestBidId) : undefined;
  return {
    tradeId: auction.tradeNo,
    tradeType: auction.tradeType as AuctionBidLog['tradeType'],
    productName: auction.productName,
    genesis,
    deal: winning ? { bidder: bidderAlias(winning.bidderNo), price: winning.price } : null,
    entries: rows.map((r) => ({ seq: r.seq, bidder: bidderAlias(r.bidderNo), price: r.price, at: bidLogTime(r.at), hash: r.hash })),
    finalHash: auction.bidLogHash ?? genesis,
    algorithm: BID_LOG_ALGORITHM,
  };
}

/** My enterprise's enrolments (竞价报名记录). */
export async function myEnrolments(db: Db, clock: Clock, actor: Actor, query: { pageNo: number; pageSize: number; tradeId?: string; startsToday?: '1' }) {
  auctionPolicy.can(actor, 'publish');
  const where = and(
    eq(auctionEnrolments.enterpriseId, actor.enterpriseId!),
    query.tradeId ? eq(auctions.tradeNo, query.tradeId) : undefined,
    query.startsToday ? and(eq(auctionEnrolments.status, 'enrolled'), startingToday(clock.now())) : undefined,
  );
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(auctionEnrolments).innerJoin(auctions, eq(auctions.id, auctionEnrolments.auctionId)).where(where);
  const now = clock.now();
  const rows = await db
    .select({ e: auctionEnrolments, a: auctions })
    .from(auctionEnrolments)
    .innerJoin(auctions, eq(auctions.id, auctionEnrolments.auctionId))
    .where(where)
    .orderBy(desc(auctionEnrolments.id))
    .limit(query.pageSize)
    .offset((query.pageNo - 1) * query.pageSize);
  return {
    records: rows.map(({ e, a }) => ({
      id: e.id,
      tradeId: a.tradeNo,
      tradeType: a.tradeType,
      productName: a.productName,
      hangState: auctionHangState(a, now),
      bidder: bidderAlias(e.bidderNo),
      deposit: a.depositFen,
      status: e.status,
      createdAt: formatDateTime(e.createdAt),
    })),
    total,
    current: query.pageNo,
    size: query.pageSize,
  };
}
