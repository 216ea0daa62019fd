import { formatDateTime, HangState, listingHangState, type ListingApply, ListingStates } from '@coalx/shared';
import { and, count, desc, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { listingSubscriptions, listings } from '../../db/schema/index';
import { businessRule, notFound } from '../../errors';
import { dealIdsBySubscription, dealsOfEnterprise, findDeal, tradeResult } from '../deal/deal.service';
import { enterpriseNames, findEnterprise } from '../enterprise/enterprise.service';
import type { Clock } from '../../lib/clock';
import { auditPublished, savePublished, tradeColumns, type Publishing } from '../../lib/publishing';
import { shanghaiDate } from '../../lib/shanghai-time';
import type { Actor } from '../../lib/actor';
import { findEnabledProduct } from '../product/product.service';
import { listingPolicy } from './listing.policy';
import { hangStateAt } from './listing.state';
import { sqlLiteral } from '../../lib/sql-literal';

type ListingRow = typeof listings.$inferSelect;

/** A listing as the API shows it (spec §3 trade fields): money in fen, quantities in kg, times in Shanghai. */
export function presentListing(l: ListingRow & { hangStateNow?: number }, enterpriseName: string) {
  return {
    tradeId: l.tradeNo,
    tradeType: l.tradeType,
    stockCode: l.stockCode,
    productName: l.productName,
    category: l.category,
    enterpriseName,
    status: l.status,
    rejectReason: l.rejectReason,
    hangState: l.status === 'approved' ? (l.hangStateNow ?? l.hangState) : HangState.notStarted,
    price: l.priceFen,
    quantity: l.quantityKg,
    subscribedQuantity: l.subscribedKg,
    remainingQuantity: l.quantityKg - l.subscribedKg,
    minSubscribe: l.minSubscribeKg,
    maxSubscribe: l.maxSubscribeKg,
    depositMode: l.depositMode,
    depositValue: l.depositValueFen,
    priceType: l.priceType,
    transport: l.transport,
    quality: l.quality as Record<string, number | null>,
    deliveryProvince: l.deliveryProvince,
    deliveryCity: l.deliveryCity,
    deliveryDistrict: l.deliveryDistrict,
    deliveryPlace: l.deliveryPlace,
    deliveryDateStart: l.deliveryDateStart,
    deliveryDateEnd: l.deliveryDateEnd,
    listedDateStart: formatDateTime(l.listedDateStart),
    listedDateEnd: formatDateTime(l.listedDateEnd),
    auditTime: l.auditTime ? formatDateTime(l.auditTime) : null,
    autoConfirm: l.autoConfirm,
    remark: l.remark,
    createdAt: formatDateTime(l.createdAt),
  };
}
export type ListingView = ReturnType<typeof presentListing>;

/** The publishing workflow (draft, submit, audit) on this module's table. */
const publishing: Publishing<typeof listings> = { table: listings, states: ListingStates, prefix: 'GP', notFoundMessage: '挂牌不存在', policy: listingPolicy };

/** Creates (or edits a draft / rejected listing) and optionally submits it for audit. */
export async function saveListing(db: Db, clock: Clock, actor: Actor, input: ListingApply) {
  listingPolicy.can(actor, 'publish');
  const now = clock.now();
  const start = new Date(input.listedDateStart);
  const end = new Date(input.listedDateEnd);
  if (input.submit && start.getTime() < now.getTime() - 60_000) throw businessRule('挂牌开始时间须晚于当前时间');
  if (input.deliveryDateStart < shanghaiDate(start)) throw businessRule('交收开始日期不能早于挂牌开始日期');
  const product = await findEnabledProduct(db, input.stockCode);
  const values = {
    ...tradeColumns(input, product),
    priceFen: input.price,
    minSubscribeKg: input.minSubscribe,
    maxSubscribeKg: input.maxSubscribe,
    depositMode: input.depositMode,
    depositValueFen: input.depositValue,
    listedDateStart: start,
    listedDateEnd: end,
    autoConfirm: input.autoConfirm,
  };
  return savePublished(db, publishing, actor, now, input, values);
}

async function findListing(db: Db, tradeNo: string) {
  const [listing] = await db.select().from(listings).where(eq(listings.tradeNo, tradeNo)).limit(1);
  if (!listing) throw notFound('挂牌不存在');
  const names = await enterpriseNames(db, [listing.enterpriseId]);
  return { listing, enterpriseName: names.get(listing.enterpriseId) ?? '' };
}

/** Public once approved and open or ended; before that only its enterprise and the trading centre see it. */
export async function listingDetail(db: Db, clock: Clock, actor: Actor | null, tradeNo: string) {
  const { listing, enterpriseName } = await findListing(db, tradeNo);
  const view = presentListing({ ...listing, hangStateNow: hangStateOfRow(listing, clock.now()) }, enterpriseName);
  const isPublic = listing.status === 'approved' && view.hangState !== HangState.notStarted;
  if (!isPublic && !listingPolicy.allows(actor, 'seePrivate', listing)) throw notFound('挂牌不存在或尚未公开');
  return view;
}

function hangStateOfRow(l: ListingRow, now: Date) {
  return l.status === 'approved' ? listingHangState(l, now) : HangState.notStarted;
}

/** The enterprise that published a listing (the approval checks its trading rights). */
export async function listingPublisherId(db: Db, tradeNo: string): Promise<number> {
  const [row] = await db.select({ enterpriseId: listings.enterpriseId }).from(listings).where(eq(listings.tradeNo, tradeNo)).limit(1);
  if (!row) throw notFound('挂牌不存在');
  return row.enterpriseId;
}

export async function auditListing(db: Db, clock: Clock, actor: Actor, tradeNo: string, decision: { approve: true } | { approve: false; reason: string }) {
  // approval's follow-up (the market state at once) listens to listing.approved
  return auditPublished(db, publishing, actor, clock.now(), tradeNo, decision);
}

type Page<T> = { records: T[]; total: number; current: number; size: number };

async function pageOfListings(db: Db, now: Date, where: SQL | undefined, pageNo: number, pageSize: number, order: SQL[]): Promise<Page<ListingView>> {
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(listings).where(where);
  const rows = await db
    .select({ listing: listings, hangStateNow: hangStateAt(now) })
    .from(listings)
    .where(where)
    .orderBy(...order)
    .limit(pageSize)
    .offset((pageNo - 1) * pageSize);
  const names = await enterpriseNames(db, rows.map((r) => r.listing.enterpriseId));
  return {
    records: rows.map((r) =>
      presentListing(
        { ...r.listing, hangStateNow: r.listing.status === 'approved' ? Number(r.hangStateNow) : HangState.notStarted },
        names.get(r.listing.enterpriseId) ?? '',
      ),
    ),
    total,
    current: pageNo,
    size: pageSize,
  };
}

/** The public market: approved listings open or ended (state 0 is not shown, spec §4). */
export async function marketListings(
  db: Db,
  clock: Clock,
  query: { pageNo: number; pageSize: number; tradeType?: number; tradeId?: string; productName?: string; hangState?: number },
) {
  const now = clock.now();
  const state = hangStateAt(now);
  const where = and(
    eq(listings.status, 'approved'),
    query.hangState !== undefined ? sql`${state} = ${query.hangState}` : sql`${state} IN (${sqlLiteral(HangState.open)}, ${sqlLiteral(HangState.ended)})`,
    query.tradeType !== undefined ? eq(listings.tradeType, query.tradeType) : undefined,
    query.tradeId ? eq(listings.tradeNo, query.tradeId) : undefined,
    query.productName ? sql`${listings.productName} ILIKE ${'%' + query.productName.replace(/[%_\\]/g, '\\$&') + '%'}` : undefined,
  );
  return pageOfListings(db, now, where, query.pageNo, query.pageSize, [asc(state), desc(listings.listedDateStart), desc(listings.id)]);
}

export async function myListings(
  db: Db,
  clock: Clock,
  actor: Actor,
  query: { pageNo: number; pageSize: number; tradeType?: number; tradeId?: string; status?: string; hangState?: number },
) {
  listingPolicy.can(actor, 'publish');
  const now = clock.now();
  const where = and(
    eq(listings.enterpriseId, actor.enterpriseId!),
    query.tradeType !== undefined ? eq(listings.tradeType, query.tradeType) : undefined,
    query.tradeId ? eq(listings.tradeNo, query.tradeId) : undefined,
    query.status ? eq(listings.status, query.status) : undefined,
    query.hangState !== undefined ? and(eq(listings.status, 'approved'), sql`${hangStateAt(now)} = ${query.hangState}`) : undefined,
  );
  return pageOfListings(db, now, where, query.pageNo, query.pageSize, [desc(listings.id)]);
}

export async function auditQueue(db: Db, clock: Clock, actor: Actor, query: { pageNo: number; pageSize: number; status?: string }) {
  listingPolicy.can(actor, 'audit');
  const where = query.status ? eq(listings.status, query.status) : inArray(listings.status, ['submitted', 'approved', 'rejected']);
  return pageOfListings(db, clock.now(), where, query.pageNo, query.pageSize, [desc(listings.updatedAt)]);
}

// ---------- subscriptions and deals ----------

function presentSubscription(r: { sub: typeof listingSubscriptions.$inferSelect; tradeNo: string; tradeType: number; productName: string; subscriberName: string; publisherName: string; dealId: number | null }) {
  return {
    id: r.sub.id,
    dealId: r.dealId,
    tradeId: r.tradeNo,
    tradeType: r.tradeType,
    productName: r.productName,
    publisherName: r.publisherName,
    subscriberName: r.subscriberName,
    quantity: r.sub.quantityKg,
    price: r.sub.priceFen,
    amount: r.sub.amountFen,
    deposit: r.sub.depositFen,
    status: r.sub.status,
    declineReason: r.sub.declineReason,
    createdAt: formatDateTime(r.sub.createdAt),
    decidedAt: r.sub.decidedAt ? formatDateTime(r.sub.decidedAt) : null,
  };
}

async function pageOfSubscriptions(db: Db, where: SQL | undefined, pageNo: number, pageSize: number) {
  const [{ total } = { total: 0 }] = await db
    .select({ total: count() })
    .from(listingSubscriptions)
    .innerJoin(listings, eq(listings.id, listingSubscriptions.listingId))
    .where(where);
  const rows = await db
    .select({
      sub: listingSubscriptions,
      tradeNo: listings.tradeNo,
      tradeType: listings.tradeType,
      productName: listings.productName,
      publisherId: listings.enterpriseId,
    })
    .from(listingSubscriptions)
    .innerJoin(listings, eq(listings.id, listingSubscriptions.listingId))
    .where(where)
    .orderBy(desc(listingSubscriptions.id))
    .limit(pageSize)
    .offset((pageNo - 1) * pageSize);
  // names and deals come from their own modules: two more queries for the whole page
  const names = await enterpriseNames(db, rows.flatMap((r) => [r.publisherId, r.sub.enterpriseId]));
  const dealIds = await dealIdsBySubscription(db, rows.map((r) => r.sub.id));
  const records = rows.map((r) =>
    presentSubscription({
      ...r,
      publisherName: names.get(r.publisherId) ?? '',
      subscriberName: names.get(r.sub.enterpriseId) ?? '',
      dealId: dealIds.get(r.sub.id) ?? null,
    }),
  );
  return { records, total, current: pageNo, size: pageSize };
}

type SubscriptionQuery = { pageNo: number; pageSize: number; tradeId?: string; status?: string };
const subscriptionFilters = (q: SubscriptionQuery) => [
  q.tradeId ? eq(listings.tradeNo, q.tradeId) : undefined,
  q.status ? eq(listingSubscriptions.status, q.status) : undefined,
];

/** listedRecord/listQuery: a listing's subscriptions; its publisher sees all of them, anyone else only their own. */
export async function subscriptionsOfListing(db: Db, actor: Actor, query: SubscriptionQuery & { tradeId: string }) {
  const { listing } = await findListing(db, query.tradeId);
  const mine = listingPolicy.allows(actor, 'seePrivate', listing);
  return pageOfSubscriptions(
    db,
    and(eq(listingSubscriptions.listingId, listing.id), mine ? undefined : eq(listingSubscriptions.enterpriseId, actor.enterpriseId ?? -1), ...subscriptionFilters(query)),
    query.pageNo,
    query.pageSize,
  );
}

/** Subscriptions made to my enterprise's listings (the confirm page). */
export async function subscriptionsToMyListings(db: Db, actor: Actor, query: SubscriptionQuery) {
  listingPolicy.can(actor, 'publish');
  return pageOfSubscriptions(db, and(eq(listings.enterpriseId, actor.enterpriseId!), ...subscriptionFilters(query)), query.pageNo, query.pageSize);
}

/** Subscriptions my enterprise made. */
export async function mySubscriptions(db: Db, actor: Actor, query: SubscriptionQuery) {
  listingPolicy.can(actor, 'publish');
  return pageOfSubscriptions(db, and(eq(listingSubscriptions.enterpriseId, actor.enterpriseId!), ...subscriptionFilters(query)), query.pageNo, query.pageSize);
}

/** My enterprise's listing deals, on either side. */
export async function myDeals(db: Db, actor: Actor, query: { pageNo: number; pageSize: number; tradeId?: string }) {
  listingPolicy.can(actor, 'publish');
  return dealsOfEnterprise(db, 'listing', actor.enterpriseId!, query);
}

/** The public result notice of a listing: its deals, counterparties partly masked. */
export async function listingResult(db: Db, clock: Clock, tradeNo: string, query: { pageNo: number; pageSize: number }) {
  const { listing, enterpriseName } = await findListing(db, tradeNo);
  if (listing.status !== 'approved' || hangStateOfRow(listing, clock.now()) === HangState.notStarted) throw notFound('挂牌不存在或尚未公开');
  const result = await tradeResult(db, 'listing', tradeNo, query);
  return {
    listing: presentListing({ ...listing, hangStateNow: hangStateOfRow(listing, clock.now()) }, enterpriseName),
    dealQuantity: result.quantityKg,
    dealAmount: result.amountFen,
    deals: result.page,
  };
}

/** The counterparty's contact, once a deal binds the two enterprises. */
export async function oppositeCompanyInfo(db: Db, actor: Actor, dealId: number) {
  const deal = await findDeal(db, dealId);
  if (!deal) throw notFound('成交记录不存在');
  const me = actor.enterpriseId;
  listingPolicy.can(actor, 'seeCounterparty', deal);
  const otherId = me === deal.sellerEnterpriseId ? deal.buyerEnterpriseId : deal.sellerEnterpriseId;
  const other = await findEnterprise(db, otherId);
  return {
    organName: other!.organName,
    contactName: other!.contactName,
    contactMobile: other!.contactMobile,
    address: other!.address,
    role: me === deal.sellerEnterpriseId ? '买方' : '卖方',
  };
}
