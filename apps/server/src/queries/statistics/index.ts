import { DEAL_KINDS, PRICE_TYPES, type DealFigures, type StatisticsAnswer, type StatisticsQuery, type StatisticsSummary } from '@coalx/shared';
import { sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { daysOf, periodLabel, periodOf, rangeInstants } from './period';

/**
 * 运营统计's read model (issue 29 item 1): the market's figures over any Asia/Shanghai date range, read across
 * deals, listings, auctions, long-term deals, contracts, orders, trucks, statements, lab reports, the funds journal
 * and the audit trail. The statistics page, its Excel export and the daily report all take their figures from here,
 * so they cannot differ.
 *
 * Where each figure comes from:
 *  - deals: deal rows by created_at; province and price type from the deal's listing, auction or long-term deal,
 *    joined by its trade number (a call-off's deal carries the long-term deal's number, flows/decide-call-off.ts);
 *  - auctions held / 流拍: auctions ended in the range by result; the premium over the start price of those sold
 *    (a purchase auction's award below its start price counts as its premium: PREMIUM);
 *  - contracts signed: effective_at (both signatures) in the range, on time when by sign_deadline (the deadline
 *    the contract was made with, from 合同签署期限 contract_sign_working_days); overdue: the deadline fell in the
 *    range without both signatures by then;
 *  - orders delivered: delivered_at in the range, in the window when on or before the terms' delivery end date;
 *  - trucks signed: dispatch signed_at in the range (buyer, automatic or ruled);
 *  - disputes: trucks by disputed_at / ruled_at; lab reports disputed by answered_at (a lab report dispute has no
 *    ruling of its own: it is settled in the statement); statements by the audit rows of 结算单异议 and
 *    裁定结算异议 (a statement keeps no dispute time of its own);
 *  - funds: the journal, 入金 credits, 出金 paid (debit of the frozen withdrawal), trade deposits frozen and released.
 */
export async function statisticsFor(db: Db | Tx, query: StatisticsQuery): Promise<StatisticsAnswer> {
  const { start, end } = rangeInstants(query.from, query.to);
  // one after another: inside the daily report's transaction they share one connection
  const dealRows = await dealGroups(db, start, end);
  const active = await rows<{ n: number }>(db, sql`
      SELECT count(DISTINCT e)::int AS n FROM (
        SELECT seller_enterprise_id AS e FROM deal WHERE created_at >= ${at(start)} AND created_at < ${at(end)}
        UNION ALL SELECT buyer_enterprise_id FROM deal WHERE created_at >= ${at(start)} AND created_at < ${at(end)}) parties`);
  const auctionRow = await rows<{ held: number; failed: number; pct: string | null; fen: string | null }>(db, sql`
      SELECT count(*)::int AS held,
        count(*) FILTER (WHERE result = 'failed')::int AS failed,
        avg(${PREMIUM}::numeric * 100 / start_price_fen) FILTER (WHERE result = 'deal' AND best_price_fen IS NOT NULL)::text AS pct,
        avg(${PREMIUM}) FILTER (WHERE result = 'deal' AND best_price_fen IS NOT NULL)::text AS fen
      FROM auction WHERE ended_at >= ${at(start)} AND ended_at < ${at(end)} AND result IS NOT NULL`);
  const contractRow = await rows<{ signed: number; on_time: number; overdue: number }>(db, sql`
      SELECT count(*) FILTER (WHERE effective_at >= ${at(start)} AND effective_at < ${at(end)})::int AS signed,
        count(*) FILTER (WHERE effective_at >= ${at(start)} AND effective_at < ${at(end)} AND effective_at <= sign_deadline)::int AS on_time,
        count(*) FILTER (WHERE sign_deadline >= ${at(start)} AND sign_deadline < ${at(end)} AND (effective_at IS NULL OR effective_at > sign_deadline))::int AS overdue
      FROM contract WHERE (effective_at >= ${at(start)} AND effective_at < ${at(end)}) OR (sign_deadline >= ${at(start)} AND sign_deadline < ${at(end)})`);
  const orderRow = await rows<{ delivered: number; in_window: number }>(db, sql`
      SELECT count(*)::int AS delivered,
        count(*) FILTER (WHERE ${localDay(sql`delivered_at`)} <= terms->>'deliveryDateEnd')::int AS in_window
      FROM trade_order WHERE delivered_at >= ${at(start)} AND delivered_at < ${at(end)}`);
  const truckRow = await rows<{ signed: number; kg: string }>(db, sql`
      SELECT count(*)::int AS signed, COALESCE(sum(signed_kg), 0)::text AS kg
      FROM dispatch WHERE signed_at >= ${at(start)} AND signed_at < ${at(end)} AND status = 'signed'`);
  const disputeRows = await disputeFigures(db, start, end);
  const fundsRow = await rows<{ frozen: string; released: string; fin: string; fout: string }>(db, sql`
      SELECT COALESCE(sum(amount) FILTER (WHERE ref_type = 'trade_deposit' AND kind = 'freeze'), 0)::text AS frozen,
        COALESCE(sum(amount) FILTER (WHERE ref_type = 'trade_deposit' AND kind = 'release'), 0)::text AS released,
        COALESCE(sum(amount) FILTER (WHERE ref_type = 'deposit_in' AND kind = 'credit'), 0)::text AS fin,
        COALESCE(sum(amount) FILTER (WHERE ref_type = 'withdrawal' AND kind = 'debit_frozen'), 0)::text AS fout
      FROM fund_journal WHERE created_at >= ${at(start)} AND created_at < ${at(end)}`);

  const total = figuresOf('total', '合计', dealRows);
  const auctions = auctionRow[0]!;
  const contractsRow = contractRow[0]!;
  const summary: StatisticsSummary = {
    dealCount: total.dealCount,
    quantityKg: total.quantityKg,
    amountFen: total.amountFen,
    avgPriceFen: total.avgPriceFen,
    activeEnterprises: active[0]?.n ?? 0,
    auctionsHeld: auctions.held,
    auctionsFailed: auctions.failed,
    auctionPremiumPct: auctions.pct === null ? null : Math.round(Number(auctions.pct) * 100) / 100,
    auctionPremiumFen: auctions.fen === null ? null : Math.round(Number(auctions.fen)),
    contractsSigned: contractsRow.signed,
    contractsSignedOnTime: contractsRow.on_time,
    contractsOverdue: contractsRow.overdue,
    ordersDelivered: orderRow[0]!.delivered,
    ordersDeliveredInWindow: orderRow[0]!.in_window,
    trucksSigned: truckRow[0]!.signed,
    trucksSignedKg: Number(truckRow[0]!.kg),
    disputesOpened: disputeRows.reduce((s, d) => s + d.opened, 0),
    disputesRuled: disputeRows.reduce((s, d) => s + d.ruled, 0),
    depositsFrozenFen: Number(fundsRow[0]!.frozen),
    depositsReleasedFen: Number(fundsRow[0]!.released),
    fundsInFen: Number(fundsRow[0]!.fin),
    fundsOutFen: Number(fundsRow[0]!.fout),
  };

  const periods = [...new Set(daysOf(query.from, query.to).map((d) => periodOf(d, query.granularity)))];
  const trend = periods.map((p) =>
    figuresOf(p, periodLabel(p, query.granularity), dealRows.filter((r) => periodOf(r.day, query.granularity) === p)),
  );
  return {
    from: query.from,
    to: query.to,
    granularity: query.granularity,
    summary,
    trend,
    byKind: Object.entries(DEAL_KINDS).map(([kind, label]) => figuresOf(kind, label, dealRows.filter((r) => r.kind === kind))),
    byProduct: groupBy(dealRows, (r) => r.product, (k) => k),
    byProvince: groupBy(dealRows, (r) => r.province, (k) => k || '未知'),
    byPriceType: groupBy(dealRows, (r) => r.priceType, (k) => (PRICE_TYPES as Record<string, string>)[k] ?? (k || '未知')),
    disputes: disputeRows,
  };
}

/**
 * What competition added to an auction's price: a sale's (竞价销售) award above its start price, a purchase's
 * (竞价采购, bids go down) award below it.
 */
const PREMIUM = sql.raw('(CASE WHEN trade_type = 3 THEN start_price_fen - best_price_fen ELSE best_price_fen - start_price_fen END)');

/** One group of deal rows of the query: a local day, kind, product, province and price type. */
export interface DealGroupRow {
  day: string;
  kind: string;
  product: string;
  province: string;
  priceType: string;
  count: number;
  kg: number;
  fen: number;
}

export async function dealGroups(db: Db | Tx, start: Date, end: Date): Promise<DealGroupRow[]> {
  const list = await rows<{ day: string; kind: string; product: string; province: string; price_type: string; n: number; kg: string; fen: string }>(
    db,
    sql`
      SELECT ${localDay(sql`d.created_at`)} AS day, d.trade_kind AS kind, d.product_name AS product,
        COALESCE(l.delivery_province, a.delivery_province, t.delivery_province, '') AS province,
        COALESCE(l.price_type, a.price_type, t.price_type, '') AS price_type,
        count(*)::int AS n, sum(d.quantity_kg)::text AS kg, sum(d.amount_fen)::text AS fen
      FROM deal d
        LEFT JOIN listing l ON d.trade_kind = 'listing' AND l.trade_no = d.trade_no
        LEFT JOIN auction a ON d.trade_kind = 'auction' AND a.trade_no = d.trade_no
        LEFT JOIN long_term_deal t ON d.trade_kind = 'long_term' AND t.long_term_no = d.trade_no
      WHERE d.created_at >= ${at(start)} AND d.created_at < ${at(end)}
      GROUP BY 1, 2, 3, 4, 5`,
  );
  return list.map((r) => ({
    day: r.day,
    kind: r.kind,
    product: r.product,
    province: r.province,
    priceType: r.price_type,
    count: Number(r.n),
    kg: Number(r.kg),
    fen: Number(r.fen),
  }));
}

/** Sums of deal groups; the average price is the amount over the tons, in fen per ton, rounded half up. */
export function figuresOf(key: string, label: string, groups: DealGroupRow[]): DealFigures {
  const dealCount = groups.reduce((s, g) => s + g.count, 0);
  const quantityKg = groups.reduce((s, g) => s + g.kg, 0);
  const amountFen = groups.reduce((s, g) => s + g.fen, 0);
  return { key, label, dealCount, quantityKg, amountFen, avgPriceFen: quantityKg > 0 ? Math.round((amountFen * 1000) / quantityKg) : 0 };
}

/** Groups by a key, largest amount first. */
function groupBy(groups: DealGroupRow[], keyOf: (g: DealGroupRow) => string, labelOf: (key: string) => string): DealFigures[] {
  const keys = [...new Set(groups.map(keyOf))];
  return keys.map((k) => figuresOf(k, labelOf(k), groups.filter((g) => keyOf(g) === k))).sort((a, b) => b.amountFen - a.amountFen || a.key.localeCompare(b.key));
}

async function disputeFigures(db: Db | Tx, start: Date, end: Date) {
  const trucks = await rows<{ opened: number; ruled: number }>(db, sql`
      SELECT count(*) FILTER (WHERE disputed_at >= ${at(start)} AND disputed_at < ${at(end)})::int AS opened,
        count(*) FILTER (WHERE ruled_at >= ${at(start)} AND ruled_at < ${at(end)})::int AS ruled
      FROM dispatch WHERE (disputed_at >= ${at(start)} AND disputed_at < ${at(end)}) OR (ruled_at >= ${at(start)} AND ruled_at < ${at(end)})`);
  const labs = await rows<{ opened: number }>(db, sql`
      SELECT count(*)::int AS opened FROM quality_report WHERE status = 'disputed' AND answered_at >= ${at(start)} AND answered_at < ${at(end)}`);
  const statements = await rows<{ opened: number; ruled: number }>(db, sql`
      SELECT count(*) FILTER (WHERE action = '结算单异议')::int AS opened, count(*) FILTER (WHERE action = '裁定结算异议')::int AS ruled
      FROM sys_audit_log WHERE result = 'success' AND at >= ${at(start)} AND at < ${at(end)} AND action IN ('结算单异议', '裁定结算异议')`);
  return [
    { key: 'statement', label: '结算单异议', opened: statements[0]!.opened, ruled: statements[0]!.ruled },
    { key: 'truck', label: '签收异议', opened: trucks[0]!.opened, ruled: trucks[0]!.ruled },
    { key: 'quality', label: '化验单异议', opened: labs[0]!.opened, ruled: 0 },
  ];
}

/** The Asia/Shanghai YYYY-MM-DD of a timestamptz column (UTC+8 all year; no time zone database needed). */
export function localDay(column: SQL): SQL {
  return sql`to_char((${column} AT TIME ZONE 'UTC') + interval '8 hours', 'YYYY-MM-DD')`;
}

async function rows<T>(db: Db | Tx, query: SQL): Promise<T[]> {
  const result = await db.execute(query);
  // PGlite and node-postgres both answer with { rows }
  return (result as unknown as { rows: T[] }).rows;
}

/** An instant as a SQL timestamptz (an ISO string: both drivers read it the same). */
function at(instant: Date): SQL {
  return sql`${instant.toISOString()}::timestamptz`;
}
