/**
 * `npm run seed:scale`: a busy year of a market beside the demo, written with set-based SQL (INSERT … SELECT over
 * generate_series, deterministic pseudo-random values from hashes of row numbers and the seed), so a year of
 * 2,000 enterprises, 50,000 trades, a million bids and 450,000 trucks takes minutes, not hours.
 *
 * Everything is decided first in temporary staging tables (who trades with whom, when, in what state), then written
 * in foreign-key order with ids taken from each table's sequence beforehand, in one transaction: a failure leaves
 * nothing behind. The rows are what the platform's own flows would have left: statuses of the transition tables,
 * deposits and escrow in the funds journal (each account's balances are the replay of its journal, and the funds
 * reconciliation balances), public bid logs and the audit trail hash-chained as the platform chains them.
 *
 * One demo enterprise is busy: buyer01's 华东电力燃料有限公司 buys in many deals, receives many trucks and invoices
 * and has 50,000 journal rows, so a benchmark signs in as buyer01 and reads big lists.
 */
import { CONTRACT_KIND_KEYS, contractKindOf, fenToCapitals, type ContractKind } from '@coalx/shared';
import { defaultQualityAdjustments } from '@coalx/shared';
import type { Db, Tx } from '../db/client';
import { DEMO_PASSWORDS } from '../demo/index';
import { TEXT_TOKENS, token, tokenizedContractText } from './scale-contract-text';
import {
  advanceTradeSequence, chineseDate, fenText, hashOf, isoInstant, lit, numbered, pick, reserveIds, rows, run, scalar,
  shanghaiDate, shanghaiDateTime, shanghaiDay, shanghaiDayStart, spread, textArray, tonsText,
} from './scale-sql';
import { AREA_PROVINCES, BANKS, CITIES, DEPOT_WORDS, GIVEN_NAMES, NAME_FIRST, NAME_SECOND, STREETS, SUFFIX_BY_TYPE, SURNAMES } from './scale-words';

/** The figures of a year; each is multiplied by `scale`. */
export interface ScaleOptions {
  /** Multiplies every figure (0.01 for a test, 1 for the full year). */
  scale?: number;
  /** Same seed, same data (times are relative to `now`). */
  seed?: number;
  /** The end of the year (default: the current time). */
  now?: Date;
  /** How many days back the year reaches. */
  days?: number;
  enterprises?: number;
  /** Listings and auctions together. */
  trades?: number;
  bids?: number;
  /** Deals, each with its contract and (once signed) its order. */
  deals?: number;
  /** Delivery dispatches (派车单), each with its weigh tickets. */
  trucks?: number;
  invoices?: number;
  auditRows?: number;
  /** Fund journal rows the year adds to the busy enterprise. */
  busyJournalRows?: number;
}

export const DEFAULT_SCALE_FIGURES = {
  enterprises: 2_000,
  trades: 50_000,
  bids: 1_000_000,
  deals: 47_000,
  trucks: 450_000,
  invoices: 85_000,
  auditRows: 1_000_000,
  busyJournalRows: 50_000,
} as const;

export type ScaleFigures = { -readonly [K in keyof typeof DEFAULT_SCALE_FIGURES]: number } & { seed: number; days: number; scale: number; now: string };

/** The busy enterprise is buyer01's (a demo power plant): a benchmark signs in as it. */
export const BUSY_USERNAME = 'buyer01';
export const BUSY_PASSWORD = DEMO_PASSWORDS.trader;
/** Generated enterprises' people sign in as qy00001 (enterprise admin) and jy00001 (trader), with this password. */
export const GENERATED_PASSWORD = DEMO_PASSWORDS.trader;
export const OPERATOR_ACCOUNT = { username: 'operator', password: DEMO_PASSWORDS.operator } as const;

/** sys_meta key marking a database that holds a generated year (a second run is refused). */
export const SCALE_MARKER = 'scale_year';

export interface BusyEnterprise {
  enterpriseId: number;
  organName: string;
  userId: number;
  username: string;
  password: string;
}

export interface ScaleStep {
  step: string;
  /** the platform table written, or '(staging)' for a temporary table */
  table: string;
  rows: number;
  ms: number;
}

export interface ScaleSummary {
  figures: ScaleFigures;
  busy: BusyEnterprise;
  operator: { username: string; password: string };
  /** Rows written per table and the time each step took, in order. */
  steps: ScaleStep[];
  totalMs: number;
}

/** The figures a run will use: defaults, overridden, times `scale`, at least enough for one of each kind. */
export function resolveFigures(options: ScaleOptions = {}): ScaleFigures {
  const scale = options.scale ?? 1;
  if (!(scale > 0)) throw new Error(`scale 须大于 0: ${scale}`);
  const figure = (key: keyof typeof DEFAULT_SCALE_FIGURES, min: number) => {
    const value = options[key] ?? DEFAULT_SCALE_FIGURES[key];
    if (!Number.isFinite(value) || value < 0) throw new Error(`${key} 须为非负数: ${value}`);
    return Math.max(min, Math.round(value * scale));
  };
  const days = options.days ?? 365;
  if (!Number.isInteger(days) || days < 30) throw new Error(`days 须为不小于 30 的整数: ${days}`);
  return {
    enterprises: figure('enterprises', 10),
    trades: figure('trades', 20),
    bids: figure('bids', 1),
    deals: figure('deals', 1),
    trucks: figure('trucks', 1),
    invoices: figure('invoices', 1),
    auditRows: figure('auditRows', 1),
    busyJournalRows: figure('busyJournalRows', 0),
    seed: options.seed ?? 1,
    days,
    scale,
    now: (options.now ?? new Date()).toISOString(),
  };
}

/** buyer01's enterprise, as the benchmark signs in to it. */
export async function busyEnterprise(db: Db | Tx): Promise<BusyEnterprise> {
  const [row] = await rows<{ user_id: number; enterprise_id: number; organ_name: string }>(
    db,
    `SELECT u.id AS user_id, u.enterprise_id, e.organ_name FROM sys_user u JOIN enterprise e ON e.id = u.enterprise_id WHERE u.username = ${lit(BUSY_USERNAME)}`,
  );
  if (!row) throw new Error(`找不到演示账号 ${BUSY_USERNAME}: 请先载入演示数据 (npm start 首次启动；seed:scale 在空库上会自动载入)`);
  return { enterpriseId: Number(row.enterprise_id), organName: row.organ_name, userId: Number(row.user_id), username: BUSY_USERNAME, password: BUSY_PASSWORD };
}

/** The figures of the year the database already holds, or null. */
export async function generatedYear(db: Db | Tx): Promise<Record<string, unknown> | null> {
  const [row] = await rows<{ value: string }>(db, `SELECT value FROM sys_meta WHERE key = ${lit(SCALE_MARKER)}`);
  return row ? (JSON.parse(row.value) as Record<string, unknown>) : null;
}

/** What the busy enterprise does: per mille of the sale deals it buys in, per cent of purchase trades it publishes and of auctions it enrols in. */
const BUSY = { buyPerMille: 130, publishPct: 15, enrolPct: 15 };
/** A third of the trades are auctions; of the auctions that end, this share ends in a deal. */
const AUCTION_SHARE = 0.35;
const AUCTION_DEAL_SHARE = 0.85;
/** Drivers each generated enterprise (and the busy one) keeps for its trucks. */
const DRIVERS_PER_ENTERPRISE = 6;

type Log = (line: string) => void;

/**
 * Writes a year of a busy market into `db` (migrated, with system and demo data loaded), in one transaction.
 * Refuses a database that already holds one. `log` gets one line per step.
 */
export async function seedScale(db: Db, options: ScaleOptions = {}, log: Log = () => {}): Promise<ScaleSummary> {
  const figures = resolveFigures(options);
  const previous = await generatedYear(db);
  if (previous) throw new Error(`数据库中已有生成的一年数据 (生成于 ${String(previous.madeAt ?? '?')})，不再重复生成: 请换一个空库或新的 DATA_DIR`);
  const busy = await busyEnterprise(db);
  const started = performance.now();
  const steps: ScaleStep[] = [];
  await db.transaction(async (tx) => {
    await new YearWriter(tx, figures, busy, steps, log).write();
  });
  // the tables grew by orders of magnitude: fresh statistics for the planner
  const analyzeStart = performance.now();
  await run(db, 'ANALYZE');
  const ms = Math.round(performance.now() - analyzeStart);
  steps.push({ step: 'analyze', table: '(all)', rows: 0, ms });
  log(`${'ANALYZE'.padEnd(30)} ${''.padEnd(24)} ${''.padStart(10)}   ${String(ms).padStart(7)} ms`);
  return { figures, busy, operator: { ...OPERATOR_ACCOUNT }, steps, totalMs: Math.round(performance.now() - started) };
}

interface Context {
  operatorId: number;
  traderRoleId: number;
  adminRoleId: number;
  passwordHash: string;
  busyAccountId: number;
  nProducts: number;
  nArea: number;
  nSellers: number;
  nBuyers: number;
  templates: Map<string, number>;
}

const KIND_OF_TYPE = ['listing_sale', 'listing_purchase', 'auction_sale', 'auction_purchase'] as const;

class YearWriter {
  private readonly NOW: string;
  private readonly YEAR0: string;
  private ctx!: Context;

  constructor(
    private readonly tx: Tx,
    private readonly f: ScaleFigures,
    private readonly busy: BusyEnterprise,
    private readonly steps: ScaleStep[],
    private readonly log: Log,
  ) {
    this.NOW = `'${f.now}'::timestamptz`;
    this.YEAR0 = `('${f.now}'::timestamptz - interval '${f.days} day')`;
  }

  /** A deterministic pseudo-random number in [0, 2^31) of a row. */
  private h(expr: string, salt: number) {
    return hashOf(this.f.seed, expr, salt);
  }

  private async step(step: string, table: string, text: string): Promise<number> {
    const start = performance.now();
    const n = await run(this.tx, text);
    const ms = Math.round(performance.now() - start);
    this.steps.push({ step, table, rows: n, ms });
    this.log(`${step.padEnd(30)} ${table.padEnd(24)} ${String(n).padStart(10)} 行 ${String(ms).padStart(7)} ms`);
    return n;
  }

  /** A staging statement (temporary tables): timed like the others. */
  private stage(step: string, text: string): Promise<number> {
    return this.step(step, '(staging)', text);
  }

  async write() {
    await this.context();
    await this.planEnterprises();
    await this.planTrades();
    await this.planAuctions();
    await this.planSubscriptions();
    await this.planDeals();
    await this.writeEnterprises();
    await this.writeTrades();
    await this.writeDeals();
    for (const prefix of ['GP', 'JJ', 'CJ', 'DD']) {
      await run(this.tx, advanceTradeSequence(prefix, prefix === 'GP' || prefix === 'JJ' ? 's_trade' : 's_deal', prefix === 'GP' || prefix === 'JJ' ? 'trade_no' : prefix === 'CJ' ? 'deal_no' : 'order_no'));
    }
    await run(this.tx, `INSERT INTO sys_meta (key, value) VALUES (${lit(SCALE_MARKER)}, ${lit(JSON.stringify({ ...this.f, busyEnterpriseId: this.busy.enterpriseId, madeAt: new Date().toISOString() }))})`);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // context: what the demo and the system data hold

  private async context() {
    const tx = this.tx;
    const [operator] = await rows<{ id: number }>(tx, `SELECT id FROM sys_user WHERE username = 'operator'`);
    const roleOf = (code: string) => scalar(tx, `SELECT id AS v FROM sys_role WHERE code = ${lit(code)}`);
    const [hash] = await rows<{ password_hash: string }>(tx, `SELECT password_hash FROM sys_user WHERE id = ${this.busy.userId}`);
    const [account] = await rows<{ id: number }>(tx, `SELECT id FROM fund_account WHERE enterprise_id = ${this.busy.enterpriseId}`);
    if (!operator || !account) throw new Error('演示数据不完整: 缺少 operator 账号或 buyer01 的资金账户');
    // the demo's catalogue, priced near the demo's prices, with each product's default quality price adjustments
    const products = await rows<{ stock_code: string; stock_name: string; category: string; quality: Record<string, number | null> | null }>(
      tx,
      `SELECT stock_code, stock_name, category, quality FROM product WHERE enabled ORDER BY sort, id LIMIT 8`,
    );
    if (!products.length) throw new Error('产品目录为空: 请先载入演示数据');
    const basePrice: Record<string, number> = { DLM5500: 85_000, DLM5000: 78_000, DLM4500: 69_000, WYM6000: 112_000, JM1: 165_000 };
    await run(tx, `CREATE TEMP TABLE s_product (pno int PRIMARY KEY, stock_code text, stock_name text, category text, quality jsonb, base_price bigint, adjustments jsonb) ON COMMIT DROP`);
    await run(
      tx,
      `INSERT INTO s_product VALUES ${products
        .map((p, i) => `(${i + 1}, ${lit(p.stock_code)}, ${lit(p.stock_name)}, ${lit(p.category)}, ${lit(JSON.stringify(p.quality ?? {}))}::jsonb, ${basePrice[p.stock_code] ?? 80_000}, ${lit(JSON.stringify(defaultQualityAdjustments(p.quality ?? {})))}::jsonb)`)
        .join(',')}`,
    );
    await run(
      tx,
      `CREATE TEMP TABLE s_area ON COMMIT DROP AS
       SELECT (row_number() OVER (ORDER BY d.code) - 1)::int AS rn, d.code, p.name AS province, c.name AS city, d.name AS district
       FROM sys_area d JOIN sys_area c ON c.code = d.parent_code JOIN sys_area p ON p.code = c.parent_code
       WHERE d.level = 3 AND left(d.code, 2) IN (${AREA_PROVINCES.map(lit).join(',')})`,
    );
    let nArea = await scalar(tx, `SELECT count(*) AS v FROM s_area`);
    if (!nArea) {
      // the area table is loaded at start-up; without it everybody sits in one district
      await run(tx, `INSERT INTO s_area VALUES (0, '140602', '山西省', '朔州市', '朔城区')`);
      nArea = 1;
    }
    const templates = new Map(
      (await rows<{ kind: string; id: number }>(tx, `SELECT DISTINCT ON (kind) kind, id FROM contract_template ORDER BY kind, version DESC`)).map((t) => [t.kind, Number(t.id)]),
    );
    for (const kind of KIND_OF_TYPE) if (!templates.has(kind)) throw new Error(`缺少合同模板 ${kind}: 请先初始化系统数据`);
    const nSellers = Math.floor(this.f.enterprises / 2);
    this.ctx = {
      operatorId: Number(operator.id),
      traderRoleId: await roleOf('trader'),
      adminRoleId: await roleOf('enterprise_admin'),
      passwordHash: hash!.password_hash,
      busyAccountId: Number(account.id),
      nProducts: products.length,
      nArea,
      nSellers,
      nBuyers: this.f.enterprises - nSellers,
      templates,
    };
  }

  // ---------------------------------------------------------------------------------------------------------------
  // plans (temporary tables)

  /** Enterprises: even rows sell (mines, half the traders), odd rows buy (plants, the other traders, logistics). */
  private async planEnterprises() {
    const { tx, f } = this;
    const h = (e: string, s: number) => this.h(e, s);
    const e0 = await reserveIds(tx, 'enterprise', f.enterprises);
    const u0 = await reserveIds(tx, 'sys_user', f.enterprises * 2);
    const a0 = await reserveIds(tx, 'fund_account', f.enterprises);
    const alphabet = `'0123456789ABCDEFGHJKLMNPQRTUWXY'`;
    const weights = 'ARRAY[1,3,9,27,19,26,16,17,20,29,25,13,8,24,10,30,28]';
    const combos = CITIES.length * NAME_FIRST.length * NAME_SECOND.length;
    // the name: a city and two characters, unique by construction (each row its own combination)
    await this.stage(
      'plan: enterprises',
      `CREATE TEMP TABLE s_ent ON COMMIT DROP AS
       SELECT q.*, c17 || substr(${alphabet}, ((31 - (SELECT sum((strpos(${alphabet}, substr(c17, i, 1)) - 1) * (${weights})[i]) FROM generate_series(1, 17) i) % 31) % 31)::int + 1, 1) AS credit_code
       FROM (
         SELECT g AS idx, ${e0} + g - 1 AS id, ${u0} + 2 * (g - 1) AS admin_id, ${u0} + 2 * (g - 1) + 1 AS trader_id, ${a0} + g - 1 AS account_id,
           CASE WHEN g % 2 = 0 THEN 'S' ELSE 'B' END AS pool, (g - 1) / 2 AS pool_rank,
           CASE WHEN g % 2 = 0 THEN CASE WHEN ${h('g', 1)} % 10 < 6 THEN 'mine' ELSE 'trader' END
                ELSE CASE WHEN ${h('g', 1)} % 10 < 6 THEN 'power_plant' WHEN ${h('g', 1)} % 10 < 9 THEN 'trader' ELSE 'other' END END AS type,
           (${textArray(CITIES)})[1 + (g - 1) % ${CITIES.length}] || (${textArray(NAME_FIRST)})[1 + ((g - 1) / ${CITIES.length}) % ${NAME_FIRST.length}]
             || (${textArray(NAME_SECOND)})[1 + ((g - 1) / ${CITIES.length * NAME_FIRST.length}) % ${NAME_SECOND.length}]
             || CASE WHEN g > ${combos} THEN ((g - 1) / ${combos} + 1)::text ELSE '' END AS name_stem,
           a.code AS area_code, a.province, a.city, a.district,
           ${pick(SURNAMES, h('g', 3))} || ${pick(GIVEN_NAMES, h('g', 4))} AS legal_person,
           ${pick(SURNAMES, h('g', 5))} || ${pick(GIVEN_NAMES, h('g', 6))} AS contact_name,
           ${pick(SURNAMES, h('g', 7))} || ${pick(GIVEN_NAMES, h('g', 8))} AS trader_name,
           '13' || lpad((${h('g', 9)} % 1000000000)::text, 9, '0') AS mobile,
           '15' || lpad((${h('g', 10)} % 1000000000)::text, 9, '0') AS trader_mobile,
           ${pick(BANKS, h('g', 11))} AS bank_name,
           '62' || lpad((${h('g', 12)} % 1000000000)::text, 9, '0') || lpad(g::text, 8, '0') AS bank_account_no,
           ${pick(STREETS, h('g', 13))} || ' ' || (1 + ${h('g', 14)} % 300) || ' 号' AS street,
           '91' || left(a.code || '000000', 6) || 'MA' || lpad((g % 10000000)::text, 7, '0') AS c17,
           ${this.YEAR0} - interval '40 day' + (${h('g', 15)} % (30 * 86400)) * interval '1 second' AS created_at
         FROM generate_series(1, ${f.enterprises}) g
         JOIN s_area a ON a.rn = ${h('g', 2)} % ${this.ctx.nArea}
       ) q`,
    );
    await run(tx, `CREATE UNIQUE INDEX ON s_ent (pool, pool_rank)`);
    await run(tx, `ANALYZE s_ent`);
  }

  /** Listings and auctions over the year (and a few days ahead), in every state of their tables. */
  private async planTrades() {
    const { tx, f, ctx } = this;
    const h = (e: string, s: number) => this.h(e, s);
    const auctions = Math.max(1, Math.round(f.trades * AUCTION_SHARE));
    const listings = f.trades - auctions;
    const NOW = this.NOW;
    const l0 = await reserveIds(tx, 'listing', listings);
    const au0 = await reserveIds(tx, 'auction', auctions);
    // opening between 09:00 and 17:00 Shanghai of a day of the year
    const t0 = `((date_trunc('day', ${this.YEAR0} AT TIME ZONE 'Asia/Shanghai') + make_interval(days => b.day_no) + interval '9 hour' + make_interval(secs => b.sec_in_day)) AT TIME ZONE 'Asia/Shanghai')`;
    await this.stage(
      'plan: trades',
      `CREATE TEMP TABLE s_trade ON COMMIT DROP AS
       WITH b AS (
         SELECT g AS idx, g > ${listings} AS is_auction, ${h('g', 21)} % 100 AS type_roll,
           ${h('g', 22)} % ${f.days + 3} AS day_no, ${h('g', 23)} % 28800 AS sec_in_day,
           1 + (CASE WHEN ${h('g', 24)} % 100 < 40 THEN 0 WHEN ${h('g', 24)} % 100 < 65 THEN 1 WHEN ${h('g', 24)} % 100 < 80 THEN 2 WHEN ${h('g', 24)} % 100 < 90 THEN 3 ELSE 4 END) % ${ctx.nProducts} AS pno,
           ${h('g', 25)} AS hp, ${h('g', 26)} % 100 AS status_roll, ${h('g', 27)} % 100 < ${BUSY.publishPct} AS busy_publishes,
           ${h('g', 28)} % ${ctx.nSellers} AS seller_rank, ${h('g', 29)} % ${ctx.nBuyers} AS buyer_rank,
           ${pick(NAME_FIRST, h('g', 30))} || ${pick(NAME_SECOND, h('g', 31))} AS depot_stem, ${h('g', 32)} % 100 AS transport_roll
         FROM generate_series(1, ${f.trades}) g
       ), t AS (
         SELECT b.*, CASE WHEN is_auction THEN CASE WHEN type_roll < 70 THEN 2 ELSE 3 END ELSE CASE WHEN type_roll < 75 THEN 0 ELSE 1 END END AS trade_type,
           CASE WHEN is_auction THEN type_roll < 70 ELSE type_roll < 75 END AS sale,
           ${t0} AS start_at
         FROM b
       ), w AS (
         SELECT t.*,
           CASE WHEN is_auction THEN start_at + interval '30 minute' END AS bid_start,
           CASE WHEN is_auction THEN start_at + interval '150 minute' ELSE start_at + (1 + hp % 6) * interval '1 day' END AS end_at,
           LEAST(start_at - interval '3 day', ${NOW} - interval '2 hour') AS created_at,
           LEAST(start_at - interval '2 day', ${NOW} - interval '1 hour') AS audit_at,
           CASE WHEN start_at > ${NOW} + interval '1 day' AND status_roll < 25 THEN 'submitted'
                WHEN start_at > ${NOW} + interval '1 day' AND status_roll < 35 THEN 'draft'
                WHEN status_roll >= 98 THEN 'rejected' ELSE 'approved' END AS status
         FROM t
       )
       SELECT w.*, p.stock_code, p.stock_name, p.category, p.quality,
         CASE WHEN is_auction THEN ${au0} ELSE ${l0} END - 1 + row_number() OVER (PARTITION BY w.is_auction ORDER BY w.created_at, w.idx) AS row_id,
         CASE WHEN w.status <> 'approved' THEN 0
              WHEN is_auction THEN CASE WHEN ${NOW} < start_at THEN 0 WHEN ${NOW} < bid_start THEN 1 WHEN ${NOW} < end_at THEN 2 ELSE 3 END
              ELSE CASE WHEN ${NOW} < start_at THEN 0 WHEN ${NOW} < end_at THEN 1 ELSE 2 END END AS hang,
         CASE WHEN is_auction THEN ${numbered('JJ', shanghaiDay('w.created_at'), 'w.created_at, w.idx', 'w.is_auction')}
              ELSE ${numbered('GP', shanghaiDay('w.created_at'), 'w.created_at, w.idx', 'w.is_auction')} END AS trade_no,
         CASE WHEN sale THEN s.id WHEN busy_publishes THEN ${this.busy.enterpriseId} ELSE bb.id END AS publisher_id,
         CASE WHEN sale THEN s.trader_id WHEN busy_publishes THEN ${this.busy.userId} ELSE bb.trader_id END AS publisher_user,
         CASE WHEN sale THEN s.province WHEN busy_publishes THEN '上海市' ELSE bb.province END AS province,
         CASE WHEN sale THEN s.city WHEN busy_publishes THEN '市辖区' ELSE bb.city END AS city,
         CASE WHEN sale THEN s.district WHEN busy_publishes THEN '浦东新区' ELSE bb.district END AS district,
         CASE WHEN sale THEN w.depot_stem || ${pick(DEPOT_WORDS.slice(0, 4), 'w.hp')} ELSE w.depot_stem || ${pick(DEPOT_WORDS.slice(4), 'w.hp')} END AS place,
         CASE WHEN NOT sale THEN 'delivered' WHEN w.hp % 5 = 0 THEN 'pithead' ELSE 'factory_tax' END AS price_type,
         CASE WHEN transport_roll < 80 THEN 'road' ELSE 'rail' END AS transport,
         -- whole yuan around the product's price, dearer in winter
         round(p.base_price * (1 + 0.06 * cos(2 * pi() * (w.day_no - ${f.days} + 15) / 365.0)) * (0.97 + (w.hp % 600) / 10000.0) / 100)::bigint * 100 AS price,
         (5 + w.hp % 4 * 5) * 1000000::bigint AS auction_deposit
       FROM w
       JOIN s_product p ON p.pno = w.pno
       JOIN s_ent s ON s.pool = 'S' AND s.pool_rank = w.seller_rank
       JOIN s_ent bb ON bb.pool = 'B' AND bb.pool_rank = w.buyer_rank`,
    );
    await run(tx, `CREATE UNIQUE INDEX ON s_trade (idx)`);
    await run(tx, `ANALYZE s_trade`);
  }

  /**
   * Auctions: which end in a deal, how many enrol and bid (bids spread unevenly over the auctions that had bidding),
   * who wins, and the public bid log's hashes.
   */
  private async planAuctions() {
    const { tx, f, ctx } = this;
    const h = (e: string, s: number) => this.h(e, s);
    const ended = await scalar(tx, `SELECT count(*) AS v FROM s_trade WHERE is_auction AND status = 'approved' AND hang = 3`);
    const dealt = Math.min(f.deals, Math.round(ended * AUCTION_DEAL_SHARE));
    const pool = (sale: string) => `CASE WHEN ${sale} THEN ${ctx.nBuyers} ELSE ${ctx.nSellers} END`;
    await this.stage(
      'plan: auctions',
      `CREATE TEMP TABLE s_auction ON COMMIT DROP AS
       WITH a AS (
         SELECT t.idx, t.trade_no, t.trade_type, t.sale, t.hang, t.price AS start_price, t.start_at AS enrol_deadline, t.bid_start, t.end_at AS bid_end,
           t.audit_at, t.publisher_id, t.auction_deposit,
           (t.hang = 3 AND row_number() OVER (PARTITION BY t.hang = 3 ORDER BY ${h('t.idx', 41)}, t.idx) <= ${dealt}) AS dealt
         FROM s_trade t WHERE t.is_auction AND t.status = 'approved'
       ), n AS (
         SELECT a.*, COALESCE(sp.n, 0) AS nb,
           LEAST(${pool('a.sale')}, CASE WHEN a.hang = 0 OR (a.hang = 3 AND NOT a.dealt) THEN ${h('a.idx', 44)} % 3 ELSE 2 + ${h('a.idx', 44)} % 5 END) AS ne
         FROM a LEFT JOIN (${spread(`SELECT idx, 1 + ${h('idx', 43)} % 4 AS w FROM a WHERE dealt OR hang = 2`, f.bids, 1)}) sp ON sp.idx = a.idx
       )
       SELECT n.*, CASE WHEN n.nb > 0 THEN ((n.nb - 1) % n.ne) + 1 ELSE 0 END AS w_no,
         (n.dealt AND n.sale AND ${h('n.idx', 45)} % 1000 < ${BUSY.buyPerMille}) AS busy_wins,
         (n.sale AND n.ne >= 2 AND ${h('n.idx', 46)} % 100 < ${BUSY.enrolPct}) AS busy_enrols,
         ${h('n.idx', 47)} % ${pool('n.sale')} AS rank0,
         -- one or two yuan a step; a purchase auction's price never reaches zero
         CASE WHEN n.trade_type = 2 THEN 1 ELSE -1 END * GREATEST(1, LEAST(100 * (1 + ${h('n.idx', 48)} % 2), n.start_price / (2 * GREATEST(n.nb, 1)))) AS step
       FROM n`,
    );
    await run(tx, `CREATE UNIQUE INDEX ON s_auction (idx)`);
    // bidders: sale auctions draw from the buying pool (and the busy enterprise), purchase auctions from the selling
    // one; offsets from the winner's place keep an auction's bidders distinct
    const enrolments = await scalar(tx, `SELECT COALESCE(sum(ne), 0) AS v FROM s_auction`);
    const en0 = await reserveIds(tx, 'auction_enrolment', enrolments);
    await this.stage(
      'plan: enrolments',
      `CREATE TEMP TABLE s_enrol ON COMMIT DROP AS
       SELECT ${en0} - 1 + row_number() OVER (ORDER BY e.auction_idx, e.bidder_no) AS id, e.*
       FROM (
         SELECT a.idx AS auction_idx, j AS bidder_no, a.trade_no, a.auction_deposit AS deposit,
           CASE WHEN (a.busy_wins AND j = a.w_no) OR (a.busy_enrols AND NOT a.busy_wins AND j = CASE WHEN a.w_no > 0 THEN a.w_no % a.ne + 1 ELSE 1 END)
                THEN ${this.busy.enterpriseId} ELSE p.id END AS enterprise_id,
           CASE WHEN (a.busy_wins AND j = a.w_no) OR (a.busy_enrols AND NOT a.busy_wins AND j = CASE WHEN a.w_no > 0 THEN a.w_no % a.ne + 1 ELSE 1 END)
                THEN ${this.busy.userId} ELSE p.trader_id END AS user_id,
           date_trunc('milliseconds', a.audit_at + (LEAST(a.enrol_deadline, ${this.NOW}) - a.audit_at) * j / (a.ne + 1)) AS at,
           CASE WHEN a.dealt AND j = a.w_no THEN 'won' WHEN a.hang = 3 THEN 'released' ELSE 'enrolled' END AS status,
           a.bid_end AS ended_at
         FROM s_auction a
         CROSS JOIN LATERAL generate_series(1, a.ne) j
         JOIN s_ent p ON p.pool = CASE WHEN a.sale THEN 'B' ELSE 'S' END
           AND p.pool_rank = (a.rank0 + (j - GREATEST(a.w_no, 1) + a.ne) % a.ne) % ${pool('a.sale')}
       ) e`,
    );
    await run(tx, `CREATE UNIQUE INDEX ON s_enrol (auction_idx, bidder_no)`);
    await run(tx, `ANALYZE s_enrol`);
    // accepted bids: bidders take turns, each bid one or two steps better; spread over the bidding window (until now
    // for auctions still bidding); times to the millisecond, as the bid log hashes them
    const b0 = await reserveIds(tx, 'auction_bid', await scalar(tx, `SELECT COALESCE(sum(nb), 0) AS v FROM s_auction`));
    await this.stage(
      'plan: bids',
      `CREATE TEMP TABLE s_bid ON COMMIT DROP AS
       SELECT ${b0} - 1 + row_number() OVER (ORDER BY x.auction_idx, x.seq) AS id, x.*,
         '|' || x.trade_no || '|' || x.seq || '|' || '竞买人' || x.bidder_no || '|' || x.price || '|' || ${isoInstant('x.at')} AS rest
       FROM (
         SELECT a.idx AS auction_idx, s AS seq, a.trade_no, ((s - 1) % a.ne) + 1 AS bidder_no, a.start_price + (s - 1) * a.step AS price,
           date_trunc('milliseconds', a.bid_start + (LEAST(a.bid_end, ${this.NOW}) - a.bid_start) * s / (a.nb + 1)) AS at
         FROM s_auction a CROSS JOIN LATERAL generate_series(1, a.nb) s
       ) x`,
    );
    await run(tx, `CREATE UNIQUE INDEX ON s_bid (auction_idx, seq)`);
    await run(tx, `ANALYZE s_bid`);
    // the public bid log: each auction's chain, all auctions at once, one bid of each per round
    await run(tx, `SET LOCAL enable_hashjoin = off`);
    await run(tx, `SET LOCAL enable_mergejoin = off`);
    await this.stage(
      'plan: bid log hashes',
      `CREATE TEMP TABLE s_bid_hash ON COMMIT DROP AS
       WITH RECURSIVE chain AS (
         SELECT b.auction_idx, b.seq, encode(sha256(convert_to(encode(sha256(convert_to(b.trade_no, 'UTF8')), 'hex') || b.rest, 'UTF8')), 'hex') AS hash
         FROM s_bid b WHERE b.seq = 1
         UNION ALL
         SELECT b.auction_idx, b.seq, encode(sha256(convert_to(c.hash || b.rest, 'UTF8')), 'hex')
         FROM chain c JOIN s_bid b ON b.auction_idx = c.auction_idx AND b.seq = c.seq + 1
       )
       SELECT * FROM chain`,
    );
    await run(tx, `RESET enable_hashjoin`);
    await run(tx, `RESET enable_mergejoin`);
    await run(tx, `CREATE UNIQUE INDEX ON s_bid_hash (auction_idx, seq)`);
  }

  /** Subscriptions (摘牌) of listings that opened: the deals spread over them, a few waiting or declined. */
  private async planSubscriptions() {
    const { tx, f, ctx } = this;
    const h = (e: string, s: number) => this.h(e, s);
    const auctionDeals = await scalar(tx, `SELECT count(*) AS v FROM s_auction WHERE dealt`);
    const open = await scalar(tx, `SELECT count(*) AS v FROM s_trade WHERE NOT is_auction AND status = 'approved' AND hang IN (1, 2)`);
    const listingDeals = open ? Math.max(0, f.deals - auctionDeals) : 0;
    await this.stage(
      'plan: subscriptions',
      `CREATE TEMP TABLE s_sub0 ON COMMIT DROP AS
       WITH l AS (SELECT * FROM s_trade WHERE NOT is_auction AND status = 'approved' AND hang IN (1, 2)),
       slots AS (
         SELECT l.idx, l.sale, l.start_at, l.end_at, l.trade_no, l.hang, l.price, n.n AS nconf,
           (l.hang = 1 AND ${h('l.idx', 52)} % 3 = 0)::int AS npend, (l.hang = 2 AND ${h('l.idx', 53)} % 20 = 0)::int AS ndecl
         FROM l JOIN (${spread(`SELECT idx, 1 + ${h('idx', 51)} % 4 AS w FROM l`, listingDeals, 0)}) n ON n.idx = l.idx
       )
       SELECT s.idx AS listing_idx, k, s.trade_no, s.price, s.sale,
         CASE WHEN k <= s.nconf THEN 'confirmed' WHEN k <= s.nconf + s.npend THEN 'pending' ELSE 'declined' END AS status,
         date_trunc('milliseconds', s.start_at + (LEAST(s.end_at, ${this.NOW}) - s.start_at) * k / (s.nconf + s.npend + s.ndecl + 1)) AS at,
         ${h('s.idx * 1000 + k', 54)} AS hs
       FROM slots s CROSS JOIN LATERAL generate_series(1, s.nconf + s.npend + s.ndecl) k`,
    );
    const count = await scalar(tx, `SELECT count(*) AS v FROM s_sub0`);
    const s0 = await reserveIds(tx, 'listing_subscription', count);
    await this.stage(
      'plan: subscribers',
      `CREATE TEMP TABLE s_sub ON COMMIT DROP AS
       SELECT ${s0} - 1 + row_number() OVER (ORDER BY s.at, s.listing_idx, s.k) AS id, s.*,
         CASE WHEN s.sale AND s.hs % 1000 < ${BUSY.buyPerMille} THEN ${this.busy.enterpriseId} ELSE p.id END AS enterprise_id,
         CASE WHEN s.sale AND s.hs % 1000 < ${BUSY.buyPerMille} THEN ${this.busy.userId} ELSE p.trader_id END AS user_id,
         CASE WHEN s.status = 'pending' THEN NULL ELSE s.at + LEAST(interval '30 minute', (${this.NOW} - s.at) / 2) END AS decided_at
       FROM s_sub0 s
       JOIN s_ent p ON p.pool = CASE WHEN s.sale THEN 'B' ELSE 'S' END AND p.pool_rank = (s.hs / 1000) % CASE WHEN s.sale THEN ${ctx.nBuyers} ELSE ${ctx.nSellers} END`,
    );
    await run(tx, `DROP TABLE s_sub0`);
    await run(tx, `CREATE UNIQUE INDEX ON s_sub (id)`);
  }

  /**
   * The deals in time order, each with where its life has got to (by its age): contract being signed, order
   * waiting for payment, trucks running, settled, completed, or voided / terminated; how many trucks it took
   * (the year's trucks spread over the orders that shipped) and so its quantity.
   */
  private async planDeals() {
    const { tx, f } = this;
    const h = (e: string, s: number) => this.h(e, s);
    const NOW = this.NOW;
    await this.stage(
      'plan: deals',
      `CREATE TEMP TABLE s_deal0 ON COMMIT DROP AS
       SELECT row_number() OVER (ORDER BY x.deal_at, x.kind, x.src) AS dn, x.*
       FROM (
         SELECT 'listing' AS kind, s.id AS src, s.listing_idx AS trade_idx, s.decided_at AS deal_at,
           CASE WHEN t.sale THEN t.publisher_id ELSE s.enterprise_id END AS seller_id,
           CASE WHEN t.sale THEN s.enterprise_id ELSE t.publisher_id END AS buyer_id,
           CASE WHEN t.sale THEN t.publisher_user ELSE s.user_id END AS seller_user,
           CASE WHEN t.sale THEN s.user_id ELSE t.publisher_user END AS buyer_user,
           t.price
         FROM s_sub s JOIN s_trade t ON t.idx = s.listing_idx WHERE s.status = 'confirmed'
         UNION ALL
         SELECT 'auction', a.idx, a.idx, a.bid_end,
           CASE WHEN a.sale THEN a.publisher_id ELSE e.enterprise_id END,
           CASE WHEN a.sale THEN e.enterprise_id ELSE a.publisher_id END,
           CASE WHEN a.sale THEN t.publisher_user ELSE e.user_id END,
           CASE WHEN a.sale THEN e.user_id ELSE t.publisher_user END,
           a.start_price + (a.nb - 1) * a.step
         FROM s_auction a JOIN s_enrol e ON e.auction_idx = a.idx AND e.bidder_no = a.w_no JOIN s_trade t ON t.idx = a.idx WHERE a.dealt
       ) x`,
    );
    const deals = await scalar(tx, `SELECT count(*) AS v FROM s_deal0`);
    const d0 = await reserveIds(tx, 'deal', deals);
    const c0 = await reserveIds(tx, 'contract', deals);
    const age = `extract(epoch FROM ${NOW} - d.deal_at) / 86400.0`;
    await this.stage(
      'plan: deal lives',
      `CREATE TEMP TABLE s_deal1 ON COMMIT DROP AS
       SELECT d.*, ${d0} + d.dn - 1 AS deal_id, ${c0} + d.dn - 1 AS contract_id,
         CASE WHEN ${age} < 0.15 THEN 'signing'
              WHEN d.roll < 8 AND ${age} >= 2 THEN 'voided'
              WHEN d.roll < 20 AND ${age} >= 4 THEN 'terminated'
              WHEN ${age} < 1 THEN 'unpaid'
              WHEN ${age} < 3 THEN 'awaiting_shipment'
              WHEN ${age} < 20 THEN 'shipping'
              WHEN ${age} < 28 THEN 'awaiting_settlement'
              WHEN ${age} < 40 THEN 'settled'
              ELSE 'completed' END AS stage
       FROM (SELECT d.*, ${h('d.dn', 61)} % 1000 AS roll, ${h('d.dn', 62)} AS hd FROM s_deal0 d) d`,
    );
    await run(tx, `DROP TABLE s_deal0`);
    const orders = await scalar(tx, `SELECT count(*) AS v FROM s_deal1 WHERE stage NOT IN ('signing', 'voided')`);
    const o0 = await reserveIds(tx, 'trade_order', orders);
    const shipped = `d.stage IN ('shipping', 'awaiting_settlement', 'settled', 'completed')`;
    await this.stage(
      'plan: deal quantities',
      `CREATE TEMP TABLE s_deal ON COMMIT DROP AS
       SELECT d.*, 'HT' || substr(d.deal_no, 3) AS contract_no FROM (
       SELECT d.*, d.trucks_plan * d.per_truck AS quantity_kg, d.price * d.trucks_plan * d.per_truck / 1000 AS amount_fen,
         t.trade_no, t.trade_type, t.stock_code, t.stock_name, t.quality, t.pno, t.price_type, t.transport, t.province, t.city, t.district, t.place, t.end_at AS trade_end,
         ${numbered('CJ', shanghaiDay('d.deal_at'), 'd.deal_at, d.dn')} AS deal_no,
         CASE WHEN d.order_rank IS NULL THEN NULL ELSE ${numbered('DD', shanghaiDay("d.deal_at + interval '2 hour'"), 'd.deal_at, d.dn', 'd.order_rank IS NULL')} END AS order_no,
         CASE WHEN d.order_rank IS NULL THEN NULL ELSE ${o0} + d.order_rank - 1 END AS order_id,
         CASE WHEN t.price_type = 'delivered' THEN 'seller' ELSE 'buyer' END AS transport_side
       FROM (
         SELECT d.*, 32000 + (d.hd % 7) * 1000 AS per_truck,
           CASE WHEN ${shipped} THEN n.n + CASE WHEN d.stage = 'shipping' THEN 1 + d.hd % 4 ELSE 0 END ELSE 3 + d.hd % 10 END AS trucks_plan,
           COALESCE(n.n, 0) AS trucks,
           CASE WHEN d.stage IN ('signing', 'voided') THEN NULL ELSE sum(CASE WHEN d.stage IN ('signing', 'voided') THEN 0 ELSE 1 END) OVER (ORDER BY d.dn) END AS order_rank
         FROM s_deal1 d
         LEFT JOIN (${spread(`SELECT dn AS idx, 1 + ${h('dn', 63)} % 4 AS w FROM s_deal1 d WHERE ${shipped}`, f.trucks, 1)}) n ON n.idx = d.dn
       ) d
       JOIN s_trade t ON t.idx = d.trade_idx) d`,
    );
    await run(tx, `DROP TABLE s_deal1`);
    await run(tx, `CREATE UNIQUE INDEX ON s_deal (dn)`);
    await run(tx, `CREATE INDEX ON s_deal (kind, src)`);
    await run(tx, `ANALYZE s_deal`);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // writes

  private async writeEnterprises() {
    const { ctx } = this;
    await this.step(
      'enterprises',
      'enterprise',
      `INSERT INTO enterprise (id, client_id, organ_name, credit_code, enterprise_type, legal_person, address, area_code, area_name, address_detail,
         contact_name, contact_mobile, contact_email, bank_name, bank_branch, bank_account_no, audit_status, audited_at, submitted_at, created_at, updated_at)
       SELECT id, 'C' || (200000 + idx), name_stem || CASE type ${Object.entries(SUFFIX_BY_TYPE).map(([k, v]) => `WHEN '${k}' THEN '${v}'`).join(' ')} END,
         credit_code, type, legal_person, province || city || district || street, area_code, province || '/' || city || '/' || district, street,
         contact_name, mobile, 'qy' || lpad(idx::text, 5, '0') || '@coal.example', bank_name, city || '分行', bank_account_no,
         'approved', created_at + interval '1 day', created_at, created_at, created_at + interval '1 day'
       FROM s_ent ORDER BY idx`,
    );
    await this.step(
      'enterprises: people',
      'sys_user',
      `INSERT INTO sys_user (id, username, realname, mobile, password_hash, role_id, enterprise_id, is_first_login, created_at, updated_at)
       SELECT admin_id, 'qy' || lpad(idx::text, 5, '0'), contact_name, mobile, ${lit(ctx.passwordHash)}, ${ctx.adminRoleId}, id, false, created_at + interval '1 day', created_at + interval '1 day' FROM s_ent
       UNION ALL
       SELECT trader_id, 'jy' || lpad(idx::text, 5, '0'), trader_name, trader_mobile, ${lit(ctx.passwordHash)}, ${ctx.traderRoleId}, id, false, created_at + interval '1 day', created_at + interval '1 day' FROM s_ent
       ORDER BY 1`,
    );
  }

  private async writeTrades() {
    const { ctx } = this;
    const op = ctx.operatorId;
    const h = (e: string, s: number) => this.h(e, s);
    // a listing's quantity: what was subscribed, and (unless sold out) some left; an unopened one a plan of its own
    await this.step(
      'listings',
      'listing',
      `INSERT INTO listing (id, trade_no, trade_type, enterprise_id, created_by, stock_code, product_name, category, quality, quantity_kg, subscribed_kg, price_fen,
         min_subscribe_kg, max_subscribe_kg, deposit_mode, deposit_value_fen, price_type, transport, delivery_province, delivery_city, delivery_district, delivery_place,
         delivery_date_start, delivery_date_end, listed_date_start, listed_date_end, auto_confirm, remark, status, reject_reason, audit_time, audited_by, hang_state, ended_at, created_at, updated_at)
       SELECT t.row_id, t.trade_no, t.trade_type, t.publisher_id, t.publisher_user, t.stock_code, t.stock_name, t.category, t.quality,
         q.quantity, q.subscribed, t.price, LEAST(30000, q.quantity), q.quantity, 'per_ton', 2000, t.price_type, t.transport, t.province, t.city, t.district, t.place,
         (t.end_at AT TIME ZONE 'Asia/Shanghai')::date + 1, (t.end_at AT TIME ZONE 'Asia/Shanghai')::date + 30, t.start_at, t.end_at, t.hp % 4 = 0, '',
         t.status, CASE WHEN t.status = 'rejected' THEN '质量指标与检验报告不一致，请核实后重新提交' END,
         CASE WHEN t.status IN ('approved', 'rejected') THEN t.audit_at END, CASE WHEN t.status IN ('approved', 'rejected') THEN ${op} END,
         t.hang, CASE WHEN t.hang = 2 THEN t.end_at END, t.created_at, COALESCE(t.audit_at, t.created_at)
       FROM s_trade t
       JOIN LATERAL (
         SELECT COALESCE(sum(COALESCE(d.quantity_kg, (3 + s.hs % 8) * 35000)) FILTER (WHERE s.status <> 'declined'), 0) AS subscribed FROM s_sub s
         LEFT JOIN s_deal d ON d.kind = 'listing' AND d.src = s.id WHERE s.listing_idx = t.idx
       ) sub ON true
       CROSS JOIN LATERAL (SELECT sub.subscribed + CASE WHEN t.hang = 2 AND t.hp % 3 = 0 AND sub.subscribed > 0 THEN 0 ELSE (2 + t.hp % 10) * 35000 END AS quantity, sub.subscribed) q
       WHERE NOT t.is_auction
       ORDER BY t.created_at, t.idx`,
    );
    await this.step(
      'auctions',
      'auction',
      `INSERT INTO auction (id, trade_no, trade_type, enterprise_id, created_by, stock_code, product_name, category, quality, quantity_kg, start_price_fen, min_step_fen, max_step_fen,
         limit_price_fen, deposit_fen, enrol_deadline, bid_start, bid_end, extension_seconds, current_end, price_type, transport, delivery_province, delivery_city,
         delivery_district, delivery_place, delivery_date_start, delivery_date_end, remark, status, reject_reason, audit_time, audited_by, hang_state, best_price_fen,
         best_bid_id, best_enterprise_id, bid_count, bid_log_hash, enrol_count, result, ended_at, created_at, updated_at)
       SELECT t.row_id, t.trade_no, t.trade_type, t.publisher_id, t.publisher_user, t.stock_code, t.stock_name, t.category, t.quality,
         COALESCE(d.quantity_kg, (3 + t.hp % 10) * 35000), t.price, 100, 1000, NULL, t.auction_deposit,
         t.start_at, t.bid_start, t.end_at, 120, t.end_at, t.price_type, t.transport, t.province, t.city, t.district, t.place,
         (t.end_at AT TIME ZONE 'Asia/Shanghai')::date + 1, (t.end_at AT TIME ZONE 'Asia/Shanghai')::date + 30, '',
         t.status, CASE WHEN t.status = 'rejected' THEN '起拍价明显偏离市场价格，请调整后重新提交' END,
         CASE WHEN t.status IN ('approved', 'rejected') THEN t.audit_at END, CASE WHEN t.status IN ('approved', 'rejected') THEN ${op} END,
         t.hang, lb.price, lb.id, le.enterprise_id, COALESCE(a.nb, 0), lh.hash, COALESCE(a.ne, 0),
         CASE WHEN t.hang = 3 THEN CASE WHEN a.dealt THEN 'deal' ELSE 'failed' END END, CASE WHEN t.hang = 3 THEN t.end_at END,
         t.created_at, COALESCE(t.audit_at, t.created_at)
       FROM s_trade t
       LEFT JOIN s_auction a ON a.idx = t.idx
       LEFT JOIN s_bid lb ON lb.auction_idx = t.idx AND lb.seq = a.nb
       LEFT JOIN s_bid_hash lh ON lh.auction_idx = t.idx AND lh.seq = a.nb
       LEFT JOIN s_enrol le ON le.auction_idx = t.idx AND le.bidder_no = lb.bidder_no
       LEFT JOIN s_deal d ON d.kind = 'auction' AND d.src = t.idx
       WHERE t.is_auction
       ORDER BY t.created_at, t.idx`,
    );
    void h;
  }

  private async writeDeals() {
    await this.step(
      'listings: subscriptions',
      'listing_subscription',
      `INSERT INTO listing_subscription (id, listing_id, enterprise_id, user_id, quantity_kg, price_fen, amount_fen, deposit_fen, deposit_id, status, decline_reason, decided_at, request_id, created_at, updated_at)
       SELECT s.id, l.row_id, s.enterprise_id, s.user_id, q.kg, s.price, s.price * q.kg / 1000, 2 * q.kg, NULL, s.status,
         CASE WHEN s.status = 'declined' THEN '交收时间不匹配' END, s.decided_at, 'scale-sub-' || s.id, s.at, COALESCE(s.decided_at, s.at)
       FROM s_sub s JOIN s_trade l ON l.idx = s.listing_idx
       LEFT JOIN s_deal d ON d.kind = 'listing' AND d.src = s.id
       CROSS JOIN LATERAL (SELECT COALESCE(d.quantity_kg, (3 + s.hs % 8) * 35000) AS kg) q
       ORDER BY s.id`,
    );
    await this.step(
      'auctions: enrolments',
      'auction_enrolment',
      `INSERT INTO auction_enrolment (id, auction_id, enterprise_id, user_id, bidder_no, deposit_id, status, request_id, created_at)
       SELECT e.id, a.row_id, e.enterprise_id, e.user_id, e.bidder_no, NULL, e.status, 'scale-enrol-' || e.id, e.at
       FROM s_enrol e JOIN s_trade a ON a.idx = e.auction_idx ORDER BY e.id`,
    );
    await this.step(
      'auctions: bids',
      'auction_bid',
      `INSERT INTO auction_bid (id, auction_id, enterprise_id, user_id, bidder_no, seq, price_fen, in_extension, created_at, hash)
       SELECT b.id, a.row_id, e.enterprise_id, e.user_id, b.bidder_no, b.seq, b.price, 0, b.at, bh.hash
       FROM s_bid b JOIN s_trade a ON a.idx = b.auction_idx
       JOIN s_enrol e ON e.auction_idx = b.auction_idx AND e.bidder_no = b.bidder_no
       JOIN s_bid_hash bh ON bh.auction_idx = b.auction_idx AND bh.seq = b.seq
       ORDER BY b.id`,
    );
    await this.step(
      'deals',
      'deal',
      `INSERT INTO deal (id, deal_no, trade_kind, trade_no, trade_type, source_id, seller_enterprise_id, buyer_enterprise_id, stock_code, product_name, quantity_kg, price_fen, amount_fen, deposit_fen, created_at)
       SELECT d.deal_id, d.deal_no, d.kind, d.trade_no, d.trade_type, CASE WHEN d.kind = 'listing' THEN d.src ELSE b.id END,
         d.seller_id, d.buyer_id, d.stock_code, d.stock_name, d.quantity_kg, d.price, d.amount_fen,
         CASE WHEN d.kind = 'listing' THEN 2 * d.quantity_kg ELSE t.auction_deposit END, d.deal_at
       FROM s_deal d JOIN s_trade t ON t.idx = d.trade_idx
       LEFT JOIN s_auction a ON d.kind = 'auction' AND a.idx = d.src
       LEFT JOIN s_bid b ON d.kind = 'auction' AND b.auction_idx = d.src AND b.seq = a.nb
       ORDER BY d.dn`,
    );
    await this.writeContracts();
    await this.writeOrders();
  }

  /** The deal's times as the flows would have left them. */
  private times() {
    return {
      signDeadline: `(${shanghaiDayStart('d.deal_at', 2)} - interval '1 millisecond')`,
      sellerSigned: `d.deal_at + interval '1 hour'`,
      buyerSigned: `d.deal_at + interval '2 hour'`,
      effective: `d.deal_at + interval '2 hour'`,
      paid: `d.deal_at + interval '12 hour'`,
      shipped: `d.deal_at + interval '3 day'`,
      delivered: `d.deal_at + interval '20 day'`,
      settled: `d.deal_at + interval '28 day'`,
      completed: `d.deal_at + interval '40 day'`,
      terminated: `d.deal_at + interval '3 day'`,
    };
  }

  private async writeContracts() {
    const { tx, ctx } = this;
    const t = this.times();
    // the text of each template variant with tokens; each contract's own values replace them below
    const products = await rows<{ pno: number; stock_code: string; stock_name: string; quality: Record<string, number | null> }>(tx, `SELECT pno, stock_code, stock_name, quality FROM s_product`);
    const bodies = new Map((await rows<{ id: number; body: string }>(tx, `SELECT id, body FROM contract_template`)).map((r) => [Number(r.id), r.body]));
    const variants: string[] = [];
    for (const [tradeType, kind] of KIND_OF_TYPE.entries()) {
      const body = bodies.get(ctx.templates.get(kind)!)!;
      for (const p of products) {
        for (const priceType of tradeType % 2 === 0 ? ['factory_tax', 'pithead'] : ['delivered']) {
          for (const transport of ['road', 'rail']) {
            const text = tokenizedContractText(body, { kind: kind as ContractKind, stockCode: p.stock_code, productName: p.stock_name, quality: p.quality, priceType, transport }, tradeType);
            variants.push(`(${tradeType}, ${p.pno}, ${lit(priceType)}, ${lit(transport)}, ${lit(text)})`);
          }
        }
      }
    }
    await run(tx, `CREATE TEMP TABLE s_text (trade_type int, pno int, price_type text, transport text, body text) ON COMMIT DROP`);
    await run(tx, `INSERT INTO s_text VALUES ${variants.join(',')}`);
    // amounts in Chinese capitals, from the platform's own function
    const amounts = await rows<{ fen: string }>(tx, `SELECT DISTINCT v::text AS fen FROM s_deal d, LATERAL (VALUES (d.amount_fen), (CASE WHEN d.kind = 'listing' THEN 2 * d.quantity_kg END)) x(v) WHERE v IS NOT NULL UNION SELECT DISTINCT auction_deposit::text FROM s_trade`);
    await run(tx, `CREATE TEMP TABLE s_capital (fen bigint PRIMARY KEY, text text) ON COMMIT DROP`);
    for (let i = 0; i < amounts.length; i += 5000) {
      const part = amounts.slice(i, i + 5000).map((a) => ({ fen: a.fen, text: fenToCapitals(BigInt(a.fen)) }));
      await run(tx, `INSERT INTO s_capital SELECT fen, text FROM json_to_recordset(${lit(JSON.stringify(part))}::json) AS x(fen bigint, text text)`);
    }
    const party = (e: string) =>
      `jsonb_build_object('name', ${e}.organ_name, 'phone', ${e}.contact_mobile, 'address', ${e}.address, 'bankName', ${e}.bank_name || ' ' || ${e}.bank_branch, 'creditCode', ${e}.credit_code, 'bankAccount', ${e}.bank_account_no, 'legalRepresentative', ${e}.legal_person)`;
    const values: Record<(typeof TEXT_TOKENS)[number], string> = {
      contractNo: 'd.contract_no',
      dealNo: 'd.deal_no',
      tradeNo: 'd.trade_no',
      dealDate: chineseDate('d.deal_at'),
      signDeadline: shanghaiDateTime(t.signDeadline),
      bidLogHash: `COALESCE(bh.hash, '—')`,
      deliveryPlace: 'x.place',
      deliveryDates: `${chineseDate('x.delivery_start::timestamp AT TIME ZONE \'Asia/Shanghai\'')} || '至' || ${chineseDate('x.delivery_end::timestamp AT TIME ZONE \'Asia/Shanghai\'')}`,
      sellerName: 'se.organ_name',
      sellerCreditCode: 'se.credit_code',
      sellerLegal: 'se.legal_person',
      sellerAddress: 'se.address',
      sellerPhone: 'se.contact_mobile',
      sellerBank: `se.bank_name || ' ' || se.bank_branch`,
      sellerAccount: 'se.bank_account_no',
      buyerName: 'be.organ_name',
      buyerCreditCode: 'be.credit_code',
      buyerLegal: 'be.legal_person',
      buyerAddress: 'be.address',
      buyerPhone: 'be.contact_mobile',
      buyerBank: `be.bank_name || ' ' || be.bank_branch`,
      buyerAccount: 'be.bank_account_no',
      quantity: tonsText('d.quantity_kg'),
      price: fenText('d.price'),
      amount: fenText('d.amount_fen'),
      amountCapitals: 'ca.text',
      deposit: fenText('x.deposit'),
      depositCapitals: 'cd.text',
    };
    let text = 'tx.body';
    for (const name of TEXT_TOKENS) text = `replace(${text}, ${lit(token(name))}, ${values[name]})`;
    const status = `CASE d.stage WHEN 'signing' THEN CASE WHEN d.hd % 3 = 1 AND ${t.sellerSigned} <= ${this.NOW} THEN 'seller_signed' WHEN d.hd % 3 = 2 AND ${t.buyerSigned} <= ${this.NOW} THEN 'buyer_signed' ELSE 'pending' END
      WHEN 'voided' THEN 'voided' WHEN 'settled' THEN 'completed' WHEN 'completed' THEN 'completed' ELSE 'performing' END`;
    await this.stage(
      'plan: contracts',
      `CREATE TEMP TABLE s_contract ON COMMIT DROP AS
       SELECT d.dn, ${status} AS status,
         jsonb_build_object('remark', '', 'testingBasis', 'third_party', 'deliveryPlace', x.place, 'prepaymentPct', 100,
           'weighingBasis', CASE WHEN d.price_type = 'delivered' THEN 'buyer' ELSE 'seller' END, 'transitLossPct', 0.2,
           'deliveryDateEnd', x.delivery_end, 'deliveryDateStart', x.delivery_start,
           'transportArranger', CASE WHEN d.price_type = 'delivered' THEN 'seller' ELSE 'buyer' END, 'paymentWorkingDays', 3,
           'qualityAdjustments', p.adjustments, 'quantityTolerancePct', 5) AS terms,
         x.deposit, bh.hash AS bid_log_hash, ${party('se')} AS seller, ${party('be')} AS buyer,
         (${text})::jsonb AS text
       FROM s_deal d
       JOIN s_product p ON p.pno = d.pno
       JOIN enterprise se ON se.id = d.seller_id
       JOIN enterprise be ON be.id = d.buyer_id
       JOIN s_text tx ON tx.trade_type = d.trade_type AND tx.pno = d.pno AND tx.price_type = d.price_type AND tx.transport = d.transport
       LEFT JOIN s_auction a ON d.kind = 'auction' AND a.idx = d.src
       LEFT JOIN s_bid_hash bh ON d.kind = 'auction' AND bh.auction_idx = d.src AND bh.seq = a.nb
       CROSS JOIN LATERAL (SELECT d.province || d.city || d.district || d.place AS place,
         to_char((d.trade_end AT TIME ZONE 'Asia/Shanghai')::date + 1, 'YYYY-MM-DD') AS delivery_start,
         to_char((d.trade_end AT TIME ZONE 'Asia/Shanghai')::date + 30, 'YYYY-MM-DD') AS delivery_end,
         CASE WHEN d.kind = 'listing' THEN 2 * d.quantity_kg ELSE a.auction_deposit END AS deposit) x
       JOIN s_capital ca ON ca.fen = d.amount_fen
       JOIN s_capital cd ON cd.fen = x.deposit`,
    );
    await run(tx, `CREATE UNIQUE INDEX ON s_contract (dn)`);
    const kindCase = `CASE d.trade_type ${KIND_OF_TYPE.map((k, i) => `WHEN ${i} THEN '${k}'`).join(' ')} END`;
    const templateCase = `CASE d.trade_type ${KIND_OF_TYPE.map((k, i) => `WHEN ${i} THEN ${ctx.templates.get(k)}`).join(' ')} END`;
    await this.step(
      'contracts',
      'contract',
      `INSERT INTO contract (id, contract_no, deal_id, long_term_id, kind, template_id, seller_enterprise_id, buyer_enterprise_id, status, context, terms, text, pdf_key, pdf_sha256,
         sign_deadline, seller_signed_at, buyer_signed_at, effective_at, void_reason, breach_by, seller_deposit_id, buyer_deposit_id, created_at, updated_at)
       SELECT d.contract_id, d.contract_no, d.deal_id, NULL, ${kindCase}, ${templateCase}, d.seller_id, d.buyer_id, c.status,
         jsonb_build_object('kind', ${kindCase}, 'contractNo', d.contract_no, 'dealNo', d.deal_no, 'tradeNo', d.trade_no, 'tradeType', d.trade_type,
           'dealAt', ${isoInstant('d.deal_at')}, 'signDeadline', ${isoInstant(t.signDeadline)}, 'seller', c.seller, 'buyer', c.buyer,
           'productName', d.stock_name, 'stockCode', d.stock_code, 'quality', d.quality, 'quantityKg', d.quantity_kg, 'priceFen', d.price,
           'amountFen', d.amount_fen, 'priceType', d.price_type, 'transport', d.transport, 'depositFen', c.deposit, 'terms', c.terms, 'bidLogHash', c.bid_log_hash),
         c.terms, c.text, 'contracts/' || d.contract_no || '/' || pdf.sha || '.pdf', pdf.sha,
         ${t.signDeadline},
         CASE WHEN c.status IN ('seller_signed', 'performing', 'completed') THEN ${t.sellerSigned} END,
         CASE WHEN c.status IN ('buyer_signed', 'performing', 'completed') THEN ${t.buyerSigned} END,
         CASE WHEN c.status IN ('performing', 'completed') THEN ${t.effective} END,
         CASE WHEN c.status = 'voided' THEN '逾期未签署，交易中心裁定作废' END, CASE WHEN c.status = 'voided' THEN 'none' END,
         NULL, NULL, d.deal_at + interval '1 minute',
         CASE WHEN c.status = 'voided' THEN ${t.signDeadline} + interval '1 day' WHEN c.status = 'completed' THEN ${t.settled} WHEN c.status = 'performing' THEN ${t.effective} ELSE d.deal_at + interval '1 minute' END
       FROM s_deal d JOIN s_contract c ON c.dn = d.dn
       CROSS JOIN LATERAL (SELECT encode(sha256(convert_to(d.contract_no || '${this.f.seed}', 'UTF8')), 'hex') AS sha) pdf
       ORDER BY d.dn`,
    );
    void CONTRACT_KIND_KEYS;
    void contractKindOf;
  }

  private async writeOrders() {
    const t = this.times();
    const NOW = this.NOW;
    void NOW;
    // the order's delivery counters come from its trucks (written after: planned here from the same plan)
    await this.step(
      'orders',
      'trade_order',
      `INSERT INTO trade_order (id, order_no, contract_id, contract_no, deal_id, deal_no, trade_no, trade_type, seller_enterprise_id, buyer_enterprise_id, seller_name, buyer_name,
         transport_side, product_name, stock_code, quality, quantity_kg, price_fen, amount_fen, price_type, terms, prepayment_fen, payment_deadline, escrow_fen, status,
         paid_at, shipped_at, delivered_at, settled_at, completed_at, terminated_at, terminate_reason, created_at, updated_at)
       SELECT d.order_id, d.order_no, d.contract_id, d.contract_no, d.deal_id, d.deal_no, d.trade_no, d.trade_type, d.seller_id, d.buyer_id, se.organ_name, be.organ_name,
         d.transport_side, d.stock_name, d.stock_code, d.quality, d.quantity_kg, d.price, d.amount_fen, d.price_type, c.terms, d.amount_fen,
         ${shanghaiDayStart(t.effective, 4)} - interval '1 millisecond',
         CASE WHEN d.stage IN ('awaiting_shipment', 'shipping', 'awaiting_settlement') THEN d.amount_fen ELSE 0 END, d.stage,
         CASE WHEN d.stage NOT IN ('unpaid') THEN ${t.paid} END,
         CASE WHEN d.stage IN ('shipping', 'awaiting_settlement', 'settled', 'completed') THEN ${t.shipped} END,
         CASE WHEN d.stage IN ('awaiting_settlement', 'settled', 'completed') THEN ${t.delivered} END,
         CASE WHEN d.stage IN ('settled', 'completed') THEN ${t.settled} END,
         CASE WHEN d.stage = 'completed' THEN ${t.completed} END,
         CASE WHEN d.stage = 'terminated' THEN ${t.terminated} END,
         CASE WHEN d.stage = 'terminated' THEN '买方申请解除合同，经双方协商一致终止' END,
         ${t.effective},
         CASE d.stage WHEN 'unpaid' THEN ${t.effective} WHEN 'awaiting_shipment' THEN ${t.paid} WHEN 'terminated' THEN ${t.terminated} WHEN 'completed' THEN ${t.completed}
           WHEN 'settled' THEN ${t.settled} WHEN 'awaiting_settlement' THEN ${t.delivered} ELSE ${t.shipped} END
       FROM s_deal d JOIN s_contract c ON c.dn = d.dn
       JOIN enterprise se ON se.id = d.seller_id JOIN enterprise be ON be.id = d.buyer_id
       WHERE d.order_id IS NOT NULL ORDER BY d.order_id`,
    );
    void shanghaiDate;
  }
}
