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
import { defaultQualityAdjustments, fenToCapitals, type ContractKind } from '@coalx/shared';
import type { Db, Tx } from '../db/client';
import { DEMO_PASSWORDS } from '../demo/index';
import { chainAuditRows } from '../modules/audit/audit-chain';
import { TEXT_TOKENS, token, tokenizedContractText } from './scale-contract-text';
import {
  advanceTradeSequence, chineseDate, fenText, hashOf, isoInstant, lit, numbered, pick, reserveIds, rows, run, scalar,
  shanghaiDate, shanghaiDateTime, shanghaiDay, shanghaiDayStart, spread, textArray, tonsText,
} from './scale-sql';
import {
  AREA_PROVINCES, BANKS, CITIES, DEPOT_WORDS, GIVEN_NAMES, LAB_NAMES, NAME_FIRST, NAME_SECOND, PLATE_LETTERS, PLATE_PROVINCES, STREETS, SUFFIX_BY_TYPE, SURNAMES, VEHICLE_KINDS,
} from './scale-words';

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
  // the year's audit rows continue the chain: whatever is written already is chained first, as the scheduler would
  await chainAuditRows(db);
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
    await this.planDrivers();
    await this.planTrucks();
    await this.planAfterDelivery();
    await this.planDeposits();
    await this.planMoney();
    await this.writeEnterprises();
    await this.writeFiles();
    await this.writeTrades();
    await this.writeDeals();
    await this.writeDelivery();
    await this.writeSettlementAndInvoices();
    await this.writeFunds();
    await this.writeAudit();
    const sequences: [prefix: string, table: string, column: string][] = [
      ['GP', 's_trade', 'trade_no'],
      ['JJ', 's_trade', 'trade_no'],
      ['CJ', 's_deal', 'deal_no'],
      ['DD', 's_deal', 'order_no'],
      ['PC', 's_truck', 'dispatch_no'],
      ['JS', 's_settle', 'statement_no'],
    ];
    for (const [prefix, table, column] of sequences) await run(this.tx, advanceTradeSequence(prefix, table, column));
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
      // each district, and which of the names' cities it is in (天津 and 上海: the province is the city)
      `CREATE TEMP TABLE s_area ON COMMIT DROP AS
       SELECT a.*, (row_number() OVER (PARTITION BY a.city_idx ORDER BY a.code) - 1)::int AS city_rn FROM (
         SELECT (row_number() OVER (ORDER BY d.code) - 1)::int AS rn, d.code, p.name AS province, c.name AS city, d.name AS district,
           (SELECT min(ci.i) - 1 FROM unnest(${textArray(CITIES)}) WITH ORDINALITY ci(name, i) WHERE c.name LIKE ci.name || '%' OR (c.name = '市辖区' AND p.name LIKE ci.name || '%'))::int AS city_idx
         FROM sys_area d JOIN sys_area c ON c.code = d.parent_code JOIN sys_area p ON p.code = c.parent_code
         WHERE d.level = 3 AND left(d.code, 2) IN (${AREA_PROVINCES.map(lit).join(',')})
       ) a`,
    );
    await run(tx, `CREATE TEMP TABLE s_city ON COMMIT DROP AS SELECT city_idx, count(*)::int AS n FROM s_area WHERE city_idx IS NOT NULL GROUP BY city_idx`);
    let nArea = await scalar(tx, `SELECT count(*) AS v FROM s_area`);
    if (!nArea) {
      // the area table is loaded at start-up; without it everybody sits in one district
      await run(tx, `INSERT INTO s_area VALUES (0, '140602', '山西省', '朔州市', '朔城区', NULL, 0)`);
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
         -- registered in a district of the city its name carries (anywhere, for a city the area table lacks)
         LEFT JOIN s_city sc ON sc.city_idx = (g - 1) % ${CITIES.length}
         JOIN s_area a ON CASE WHEN sc.n IS NULL THEN a.rn = ${h('g', 2)} % ${this.ctx.nArea} ELSE a.city_idx = sc.city_idx AND a.city_rn = ${h('g', 2)} % sc.n END
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
  // delivery plans: drivers, trucks, weigh tickets

  /** Six approved drivers of each enterprise that may arrange transport (the generated ones and the busy one). */
  private async planDrivers() {
    const { tx } = this;
    const h = (e: string, s: number) => this.h(e, s);
    const owners = this.f.enterprises + 1;
    const dr0 = await reserveIds(tx, 'driver', owners * DRIVERS_PER_ENTERPRISE);
    const fl0 = await reserveIds(tx, 'file_object', owners * 3);
    this.driverFiles = fl0;
    const weights = 'ARRAY[7,9,10,5,8,4,2,1,6,3,7,9,10,5,8,4,2]';
    await this.stage(
      'plan: drivers',
      `CREATE TEMP TABLE s_driver ON COMMIT DROP AS
       SELECT q.*, q.c17 || substr('10X98765432', (SELECT sum(substr(q.c17, i, 1)::int * (${weights})[i]) FROM generate_series(1, 17) i)::int % 11 + 1, 1) AS id_card_no
       FROM (
         SELECT ${dr0} - 1 + row_number() OVER (ORDER BY o.owner_rank, k) AS id, o.*, k,
           ${fl0} + (o.owner_rank - 1) * 3 AS id_card_file, ${fl0} + (o.owner_rank - 1) * 3 + 1 AS driving_file, ${fl0} + (o.owner_rank - 1) * 3 + 2 AS vehicle_file,
           ${pick(SURNAMES, h('o.owner_rank * 10 + k', 81))} || ${pick(GIVEN_NAMES, h('o.owner_rank * 10 + k', 82))} AS name,
           '1' || (3 + ${h('o.owner_rank * 10 + k', 83)} % 7) || lpad((${h('o.owner_rank * 10 + k', 84)} % 1000000000)::text, 9, '0') AS mobile,
           o.area6 || to_char(date '1965-01-01' + ${h('o.owner_rank * 10 + k', 85)} % 11000, 'YYYYMMDD') || lpad(((k * 37 + ${h('o.owner_rank', 86)}) % 1000)::text, 3, '0') AS c17,
           ${pick(PLATE_PROVINCES, h('o.owner_rank * 10 + k', 87))} || substr('${PLATE_LETTERS}', 1 + ${h('o.owner_rank * 10 + k', 88)} % ${PLATE_LETTERS.length}, 1)
             || lpad((${h('o.owner_rank * 10 + k', 89)} % 100000)::text, 5, '0') AS plate_no,
           ${pick(VEHICLE_KINDS, h('o.owner_rank * 10 + k', 90))} AS vehicle_type
         FROM (
           SELECT row_number() OVER (ORDER BY e.enterprise_id) AS owner_rank, e.* FROM (
             SELECT id AS enterprise_id, trader_id AS user_id, left(area_code || '000000', 6) AS area6, created_at + interval '3 day' AS created_at FROM s_ent
             UNION ALL SELECT ${this.busy.enterpriseId}, ${this.busy.userId}, '310115', ${this.YEAR0} - interval '20 day'
           ) e
         ) o CROSS JOIN generate_series(1, ${DRIVERS_PER_ENTERPRISE}) k
       ) q`,
    );
    await run(tx, `CREATE UNIQUE INDEX ON s_driver (enterprise_id, k)`);
    await run(tx, `ANALYZE s_driver`);
  }

  private driverFiles = 0;

  /**
   * Trucks of every order that shipped: spread over the delivery period (until now for orders still shipping), each
   * dispatched, loaded 6 h later, arrived 8 h after that and signed for 2 h later; the latest of a shipping order
   * still on the road. A few cancelled before loading, a few disputed (ruled by the trading centre once the order
   * moved on), a few with a transit loss over the contract's tolerance.
   */
  private async planTrucks() {
    const { tx } = this;
    const h = (e: string, s: number) => this.h(e, s);
    const NOW = this.NOW;
    const t = this.times();
    const count = await scalar(tx, `SELECT COALESCE(sum(trucks), 0) AS v FROM s_deal`);
    const tr0 = await reserveIds(tx, 'dispatch', count);
    const wt0 = await reserveIds(tx, 'weigh_ticket', count * 2);
    this.ticketBase = wt0;
    await this.stage(
      'plan: trucks',
      `CREATE TEMP TABLE s_truck0 ON COMMIT DROP AS
       SELECT d.dn, d.order_id, d.order_no, d.stage, d.transport_side, d.price_type, d.per_truck AS planned_kg, k, d.seller_id, d.buyer_id, d.seller_user, d.buyer_user,
         CASE WHEN d.transport_side = 'buyer' THEN d.buyer_id ELSE d.seller_id END AS sender_id,
         CASE WHEN d.transport_side = 'buyer' THEN d.buyer_user ELSE d.seller_user END AS sender_user,
         date_trunc('milliseconds', CASE WHEN d.stage = 'shipping' THEN ${t.shipped} + (${NOW} - (${t.shipped})) * (k - 1) / d.trucks
           ELSE ${t.shipped} + ((${t.delivered}) - interval '1 day' - (${t.shipped})) * (k - 1) / d.trucks END) AS dispatch_at,
         ${h('d.dn * 1000 + k', 91)} AS ht
       FROM s_deal d CROSS JOIN LATERAL generate_series(1, d.trucks) k WHERE d.trucks > 0`,
    );
    await this.stage(
      'plan: truck states',
      `CREATE TEMP TABLE s_truck ON COMMIT DROP AS
       SELECT ${tr0} - 1 + row_number() OVER (ORDER BY x.dispatch_at, x.dn, x.k) AS id, x.*,
         ${numbered('PC', shanghaiDay('x.dispatch_at'), 'x.dispatch_at, x.dn, x.k')} AS dispatch_no
       FROM (
         SELECT t.*, dr.id AS driver_id, dr.name AS driver_name, dr.mobile AS driver_mobile, dr.id_card_no, dr.plate_no, dr.vehicle_type,
           CASE dr.vehicle_type WHEN 'heavy_semi_trailer' THEN 49000 WHEN 'heavy_dump' THEN 45000 ELSE 40000 END AS rated_load_kg,
           t.dispatch_at + interval '6 hour' AS loaded_at, t.dispatch_at + interval '14 hour' AS arrived_at, t.dispatch_at + interval '16 hour' AS signed_at,
           t.planned_kg - (t.ht % 90) * 10 AS loaded_net,
           t.planned_kg - (t.ht % 90) * 10 - CASE WHEN t.ht % 1000 BETWEEN 15 AND 24 THEN 100 + (t.ht / 7 % 10) * 10 ELSE (t.ht / 7 % 7) * 10 END AS arrived_net,
           CASE WHEN t.ht % 1000 < 5 THEN 'cancelled'
                WHEN t.dispatch_at + interval '16 hour' <= ${NOW} THEN
                  CASE WHEN t.ht % 1000 < 15 AND t.stage = 'shipping' AND t.dispatch_at + interval '64 hour' > ${NOW} THEN 'disputed' ELSE 'signed' END
                WHEN t.dispatch_at + interval '14 hour' <= ${NOW} THEN 'arrived'
                WHEN t.dispatch_at + interval '6 hour' <= ${NOW} THEN 'loaded'
                ELSE 'dispatched' END AS status,
           (t.ht % 1000 BETWEEN 5 AND 14) AS disputed
         FROM s_truck0 t
         JOIN s_driver dr ON dr.enterprise_id = t.sender_id AND dr.k = 1 + (t.ht / 1000) % ${DRIVERS_PER_ENTERPRISE}
       ) x`,
    );
    await run(tx, `DROP TABLE s_truck0`);
    await run(tx, `CREATE UNIQUE INDEX ON s_truck (id)`);
    await run(tx, `CREATE INDEX ON s_truck (dn)`);
    await run(tx, `ANALYZE s_truck`);
    // what each order's counters and its settlement read from its trucks (live ones: not cancelled or refused)
    await this.stage(
      'plan: order counters',
      `CREATE TEMP TABLE s_order_agg ON COMMIT DROP AS
       SELECT t.dn,
         sum(t.planned_kg) FILTER (WHERE t.status <> 'cancelled') AS planned_kg,
         count(*) FILTER (WHERE t.status <> 'cancelled') AS dispatched,
         COALESCE(sum(t.loaded_net) FILTER (WHERE t.status IN ('loaded', 'arrived', 'signed', 'disputed')), 0) AS loaded_kg,
         count(*) FILTER (WHERE t.status IN ('loaded', 'arrived', 'signed', 'disputed')) AS loaded,
         COALESCE(sum(t.arrived_net) FILTER (WHERE t.status IN ('arrived', 'signed', 'disputed')), 0) AS arrived_kg,
         count(*) FILTER (WHERE t.status IN ('arrived', 'signed', 'disputed')) AS arrived,
         COALESCE(sum(CASE WHEN t.price_type = 'delivered' OR t.disputed THEN t.arrived_net ELSE t.loaded_net END) FILTER (WHERE t.status = 'signed'), 0) AS signed_kg,
         count(*) FILTER (WHERE t.status = 'signed') AS signed,
         jsonb_agg(jsonb_build_object('plateNo', t.plate_no, 'signedKg', CASE WHEN t.price_type = 'delivered' OR t.disputed THEN t.arrived_net ELSE t.loaded_net END,
           'dispatchNo', t.dispatch_no, 'loadedNetKg', t.loaded_net, 'arrivedNetKg', t.arrived_net,
           'arrivalTicketNo', 'DH' || substr(t.dispatch_no, 3), 'loadingTicketNo', 'ZC' || substr(t.dispatch_no, 3)) ORDER BY t.id) FILTER (WHERE t.status = 'signed') AS trucks
       FROM s_truck t GROUP BY t.dn`,
    );
    await run(tx, `CREATE UNIQUE INDEX ON s_order_agg (dn)`);
  }

  private ticketBase = 0;

  /** Settlement statements and lab reports of settled orders; the invoices (the year's spread over completed orders). */
  private async planAfterDelivery() {
    const { tx, f } = this;
    const h = (e: string, s: number) => this.h(e, s);
    const t = this.times();
    const settled = await scalar(tx, `SELECT count(*) AS v FROM s_deal WHERE stage IN ('settled', 'completed')`);
    const st0 = await reserveIds(tx, 'settlement_statement', settled);
    const delivered = await scalar(tx, `SELECT count(*) AS v FROM s_deal WHERE stage IN ('awaiting_settlement', 'settled', 'completed')`);
    const qr0 = await reserveIds(tx, 'quality_report', delivered);
    const rf0 = await reserveIds(tx, 'file_object', delivered);
    await this.stage(
      'plan: settlements',
      `CREATE TEMP TABLE s_settle ON COMMIT DROP AS
       SELECT d.dn, d.stage, ${st0} - 1 + row_number() OVER (ORDER BY d.dn) AS id,
         ${numbered('JS', shanghaiDay(t.settled), `${t.settled}, d.dn`)} AS statement_no,
         ${t.settled} AS settled_at, ag.signed_kg, (ag.signed_kg * d.price + 500) / 1000 AS settled_fen, d.amount_fen AS escrow_fen
       FROM s_deal d JOIN s_order_agg ag ON ag.dn = d.dn WHERE d.stage IN ('settled', 'completed')`,
    );
    await run(tx, `CREATE UNIQUE INDEX ON s_settle (dn)`);
    await this.stage(
      'plan: lab reports',
      `CREATE TEMP TABLE s_report ON COMMIT DROP AS
       SELECT d.dn, ${qr0} - 1 + row_number() OVER (ORDER BY d.dn) AS id, ${rf0} - 1 + row_number() OVER (ORDER BY d.dn) AS file_id,
         'MZ' || to_char(${t.delivered} AT TIME ZONE 'Asia/Shanghai', 'YYYYMMDD') || lpad(d.dn::text, 6, '0') AS report_no,
         ${pick(LAB_NAMES, h('d.dn', 101))} AS lab_name, ${t.delivered} - interval '1 day' AS tested_at
       FROM s_deal d WHERE d.stage IN ('awaiting_settlement', 'settled', 'completed')`,
    );
    await run(tx, `CREATE UNIQUE INDEX ON s_report (dn)`);
    const completed = await scalar(tx, `SELECT count(*) AS v FROM s_deal WHERE stage = 'completed'`);
    const invoices = completed ? f.invoices : 0;
    const in0 = await reserveIds(tx, 'invoice', Math.max(invoices, completed));
    const if0 = await reserveIds(tx, 'file_object', Math.max(invoices, completed));
    // an invoice per part of the settled amount (the parts add up to it to the fen), issued a day apart after settlement
    await this.stage(
      'plan: invoices',
      `CREATE TEMP TABLE s_invoice ON COMMIT DROP AS
       SELECT x.*, ${in0} - 1 + x.rn AS id, ${if0} - 1 + x.rn AS file_id,
         (200 * x.total_fen + 113) / 226 AS amount_fen, x.total_fen - (200 * x.total_fen + 113) / 226 AS tax_fen
       FROM (
         SELECT row_number() OVER (ORDER BY s.settled_at, s.dn, j) AS rn, s.dn, j, n.n AS parts,
           s.settled_fen * j / n.n - s.settled_fen * (j - 1) / n.n AS total_fen,
           s.settled_at + j * interval '1 day' AS issued_at, ${h('s.dn * 100 + j', 102)} AS hi
         FROM s_settle s
         JOIN (${spread(`SELECT dn AS idx, 1 + ${h('dn', 103)} % 3 AS w FROM s_settle WHERE stage = 'completed'`, invoices, 1)}) n ON n.idx = s.dn
         CROSS JOIN LATERAL generate_series(1, n.n) j
       ) x`,
    );
  }

  /**
   * Trade deposits (保证金): one per subscription and per enrolment. A subscription's or a winner's deposit stays
   * frozen as the performance deposit until the order settles (or the contract is voided, the order terminated);
   * losing bidders' deposits are released when the auction ends, a declined subscription's when it is declined.
   */
  private async planDeposits() {
    const { tx } = this;
    const t = this.times();
    const count = await scalar(tx, `SELECT (SELECT count(*) FROM s_sub) + (SELECT count(*) FROM s_enrol) AS v`);
    const dp0 = await reserveIds(tx, 'fund_trade_deposit', count);
    const dealEnd = `CASE d.stage WHEN 'voided' THEN ${t.signDeadline} + interval '1 day' WHEN 'terminated' THEN ${t.terminated} WHEN 'settled' THEN ${t.settled} WHEN 'completed' THEN ${t.settled} END`;
    await this.stage(
      'plan: trade deposits',
      `CREATE TEMP TABLE s_dep ON COMMIT DROP AS
       SELECT ${dp0} - 1 + row_number() OVER (ORDER BY x.created_at, x.kind, x.ref) AS id, x.*,
         CASE WHEN x.released_at IS NOT NULL THEN 'released' WHEN x.dn IS NOT NULL THEN 'performance' ELSE 'frozen' END AS status
       FROM (
         SELECT 'listing' AS kind, s.id AS ref, s.enterprise_id, s.user_id, s.trade_no, 2 * ls.quantity_kg AS amount, s.at AS created_at, d.dn,
           CASE WHEN s.status = 'declined' THEN s.decided_at WHEN d.dn IS NOT NULL THEN ${dealEnd} END AS released_at
         FROM s_sub s
         JOIN LATERAL (SELECT COALESCE((SELECT quantity_kg FROM s_deal d WHERE d.kind = 'listing' AND d.src = s.id), (3 + s.hs % 8) * 35000) AS quantity_kg) ls ON true
         LEFT JOIN s_deal d ON d.kind = 'listing' AND d.src = s.id
         UNION ALL
         SELECT 'auction', e.id, e.enterprise_id, e.user_id, e.trade_no, e.deposit, e.at, d.dn,
           CASE WHEN e.status = 'released' THEN e.ended_at WHEN d.dn IS NOT NULL THEN ${dealEnd} END
         FROM s_enrol e
         LEFT JOIN s_auction a ON a.idx = e.auction_idx AND a.dealt AND a.w_no = e.bidder_no
         LEFT JOIN s_deal d ON d.kind = 'auction' AND d.src = a.idx
       ) x`,
    );
    await run(tx, `CREATE INDEX ON s_dep (kind, ref)`);
    await run(tx, `CREATE INDEX ON s_dep (dn)`);
    await run(tx, `ANALYZE s_dep`);
  }

  /**
   * Every balance movement of the year as the ledger would have journalled it (funds/ledger.ts kinds and keys), then
   * the busy enterprise's transfers in and out until it has its figure of journal rows, then an opening transfer in
   * for each account that would otherwise have gone below zero: so every account is its journal replayed, and
   * Σ accounts = Σ confirmed 入金 − Σ paid 出金 (the platform's reconciliation).
   */
  private async planMoney() {
    const { tx, f, ctx } = this;
    const h = (e: string, s: number) => this.h(e, s);
    const t = this.times();
    const yuan = (fen: string) => `'¥' || ${fenText(fen)}`;
    await this.stage(
      'plan: journal movements',
      `CREATE TEMP TABLE s_move ON COMMIT DROP AS
       SELECT p.enterprise_id, p.created_at AS at, 1 AS ord, 'freeze' AS kind, p.amount, 'trade_deposit' AS ref_type, p.id::text AS ref_id,
         'trade_deposit:' || p.id || ':freeze' AS idem, '交易 ' || p.trade_no || ' 保证金' AS remark, p.user_id AS created_by
       FROM s_dep p
       UNION ALL
       SELECT p.enterprise_id, p.released_at, 5, 'release', p.amount, 'trade_deposit', p.id::text, 'trade_deposit:' || p.id || ':release', '交易 ' || p.trade_no || ' 保证金释放', NULL
       FROM s_dep p WHERE p.status = 'released'
       UNION ALL
       SELECT d.buyer_id, ${t.paid}, 2, 'freeze', d.amount_fen, 'order_escrow', d.order_id::text, 'order:' || d.order_id || ':escrow',
         '订单 ' || d.order_no || ' 货款托管 ' || ${yuan('d.amount_fen')}, d.buyer_user
       FROM s_deal d WHERE d.stage NOT IN ('signing', 'voided', 'unpaid')
       UNION ALL
       SELECT d.buyer_id, ${t.terminated}, 3, 'release', d.amount_fen, 'order_escrow', d.order_id::text, 'order:' || d.order_id || ':escrow_release',
         '订单 ' || d.order_no || ' 终止，货款托管解冻', NULL
       FROM s_deal d WHERE d.stage = 'terminated'
       UNION ALL
       SELECT d.buyer_id, s.settled_at, 3, 'pay_out_frozen', s.settled_fen, 'order_escrow', d.order_id::text, 'statement:' || s.id || ':escrow_pay',
         '结算单 ' || s.statement_no || ' 托管货款支付给卖方 ' || ${yuan('s.settled_fen')}, d.buyer_user
       FROM s_settle s JOIN s_deal d ON d.dn = s.dn WHERE s.settled_fen > 0
       UNION ALL
       SELECT d.seller_id, s.settled_at, 4, 'credit', s.settled_fen, 'settlement', s.id::text, 'statement:' || s.id || ':seller_receive',
         '结算单 ' || s.statement_no || ' 收到货款 ' || ${yuan('s.settled_fen')}, d.buyer_user
       FROM s_settle s JOIN s_deal d ON d.dn = s.dn WHERE s.settled_fen > 0
       UNION ALL
       SELECT d.buyer_id, s.settled_at, 4, 'release', s.escrow_fen - s.settled_fen, 'order_escrow', d.order_id::text, 'statement:' || s.id || ':escrow_refund',
         '结算单 ' || s.statement_no || ' 托管余款退回 ' || ${yuan('s.escrow_fen - s.settled_fen')}, d.buyer_user
       FROM s_settle s JOIN s_deal d ON d.dn = s.dn WHERE s.escrow_fen > s.settled_fen`,
    );
    // the busy enterprise's own transfers: 入金 confirmed, 出金 applied and paid, until its rows reach the figure
    const natural = await scalar(tx, `SELECT count(*) AS v FROM s_move WHERE enterprise_id = ${this.busy.enterpriseId}`);
    const missing = Math.max(0, f.busyJournalRows - natural);
    if (natural > f.busyJournalRows) this.log(`注意: 繁忙企业的交易已产生 ${natural} 条资金流水，多于设定的 ${f.busyJournalRows} 条`);
    const cycles = Math.floor(missing / 3);
    const credits = cycles + (missing % 3);
    const withdrawals = cycles + (missing % 3 === 2 ? 1 : 0);
    const di0 = await reserveIds(tx, 'fund_deposit_in', credits);
    const wd0 = await reserveIds(tx, 'fund_withdrawal', withdrawals);
    // n transfers in, and a withdrawal after each of the first ones: the last leftover row (if two) is one more 出金 application still waiting
    await this.stage(
      'plan: busy transfers',
      `CREATE TEMP TABLE s_transfer ON COMMIT DROP AS
       SELECT c, ${di0} + c - 1 AS deposit_in_id, CASE WHEN c <= ${withdrawals} THEN ${wd0} + c - 1 END AS withdrawal_id,
         (c > ${cycles}) AS pending_withdrawal,
         date_trunc('second', ${this.YEAR0} + (c - 0.5) * interval '${f.days} day' / ${Math.max(credits, 1)}) AS at,
         (50 + ${h('c', 111)} % 450) * 1000000::bigint AS amount_in,
         (50 + ${h('c', 111)} % 450) * (30 + ${h('c', 112)} % 60) * 10000::bigint AS amount_out
       FROM generate_series(1, ${credits}) c`,
    );
    await run(
      tx,
      `INSERT INTO s_move
       SELECT ${this.busy.enterpriseId}, x.at, 1, 'credit', x.amount_in, 'deposit_in', x.deposit_in_id::text, 'deposit_in:' || x.deposit_in_id || ':confirm', '入金 ' || e.bank_name, ${ctx.operatorId}
       FROM s_transfer x CROSS JOIN enterprise e WHERE e.id = ${this.busy.enterpriseId}
       UNION ALL
       SELECT ${this.busy.enterpriseId}, x.at + interval '1 day', 1, 'freeze', x.amount_out, 'withdrawal', x.withdrawal_id::text, 'withdrawal:' || x.withdrawal_id || ':freeze', '出金申请冻结', ${this.busy.userId}
       FROM s_transfer x WHERE x.withdrawal_id IS NOT NULL
       UNION ALL
       SELECT ${this.busy.enterpriseId}, x.at + interval '2 day', 1, 'debit_frozen', x.amount_out, 'withdrawal', x.withdrawal_id::text, 'withdrawal:' || x.withdrawal_id || ':paid',
         '出金至 ' || e.bank_name || ' ' || right(e.bank_account_no, 4), ${ctx.operatorId}
       FROM s_transfer x CROSS JOIN enterprise e WHERE e.id = ${this.busy.enterpriseId} AND x.withdrawal_id IS NOT NULL AND NOT x.pending_withdrawal`,
    );
    // each account's balances before the year (the busy one has the demo's), and the lowest its available would reach
    await run(
      tx,
      `CREATE TEMP TABLE s_acc ON COMMIT DROP AS
       SELECT e.enterprise_id, e.account_id, e.available, e.frozen, e.opened_at FROM (
         SELECT id AS enterprise_id, account_id, 0::bigint AS available, 0::bigint AS frozen, created_at + interval '2 day' AS opened_at FROM s_ent
         UNION ALL SELECT enterprise_id, id, available, frozen, ${this.YEAR0} - interval '7 day' FROM fund_account WHERE id = ${ctx.busyAccountId}
       ) e`,
    );
    await run(tx, `CREATE UNIQUE INDEX ON s_acc (enterprise_id)`);
    const effectAvailable = `CASE m.kind WHEN 'credit' THEN m.amount WHEN 'freeze' THEN -m.amount WHEN 'release' THEN m.amount ELSE 0 END`;
    await this.stage(
      'plan: opening transfers',
      `CREATE TEMP TABLE s_opening ON COMMIT DROP AS
       SELECT a.enterprise_id, a.opened_at, ((-low.lowest) * 11 / 10 / 10000000 + 1) * 10000000 AS amount
       FROM s_acc a JOIN (
         SELECT r.enterprise_id, min(r.running) AS lowest FROM (
           SELECT m.enterprise_id, a.available + sum(${effectAvailable}) OVER (PARTITION BY m.enterprise_id ORDER BY m.at, m.ord, m.idem) AS running
           FROM s_move m JOIN s_acc a ON a.enterprise_id = m.enterprise_id
         ) r GROUP BY r.enterprise_id
       ) low ON low.enterprise_id = a.enterprise_id
       WHERE low.lowest < 0`,
    );
    const openings = await scalar(tx, `SELECT count(*) AS v FROM s_opening`);
    const op0 = await reserveIds(tx, 'fund_deposit_in', openings);
    await run(
      tx,
      `CREATE TEMP TABLE s_opening_in ON COMMIT DROP AS
       SELECT ${op0} - 1 + row_number() OVER (ORDER BY o.enterprise_id) AS id, o.* FROM s_opening o`,
    );
    await run(
      tx,
      `INSERT INTO s_move
       SELECT o.enterprise_id, o.opened_at, 0, 'credit', o.amount, 'deposit_in', o.id::text, 'deposit_in:' || o.id || ':confirm', '入金 ' || COALESCE(se.bank_name, e.bank_name), ${ctx.operatorId}
       FROM s_opening_in o LEFT JOIN s_ent se ON se.id = o.enterprise_id LEFT JOIN enterprise e ON e.id = o.enterprise_id`,
    );
    this.transferCounts = { credits, withdrawals, openings };
  }

  private transferCounts = { credits: 0, withdrawals: 0, openings: 0 };

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
         contact_name, mobile, 'qy' || lpad(idx::text, 5, '0') || '@coal.example', bank_name, regexp_replace(city, '(市|市辖区|地区|盟)$', '') || '分行', bank_account_no,
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
       LEFT JOIN (
         SELECT s.listing_idx, sum(COALESCE(d.quantity_kg, (3 + s.hs % 8) * 35000)) FILTER (WHERE s.status <> 'declined') AS subscribed FROM s_sub s
         LEFT JOIN s_deal d ON d.kind = 'listing' AND d.src = s.id GROUP BY s.listing_idx
       ) sub ON sub.listing_idx = t.idx
       CROSS JOIN LATERAL (SELECT COALESCE(sub.subscribed, 0) AS subscribed) s0
       CROSS JOIN LATERAL (SELECT s0.subscribed + CASE WHEN t.hang = 2 AND t.hp % 3 = 0 AND s0.subscribed > 0 THEN 0 ELSE (2 + t.hp % 10) * 35000 END AS quantity, s0.subscribed) q
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
    // the trading centre recommends one approved trade in fifty on the home page (after the demo's own)
    await this.step(
      'trades: recommended',
      'trade_recommendation',
      `INSERT INTO trade_recommendation (trade_kind, trade_no, sort, created_by, created_at)
       SELECT CASE WHEN t.is_auction THEN 'auction' ELSE 'listing' END, t.trade_no, 100 + row_number() OVER (ORDER BY t.audit_at, t.idx), ${op}, t.audit_at + interval '1 hour'
       FROM s_trade t WHERE t.status = 'approved' AND t.hp % 50 = 7 ORDER BY t.audit_at, t.idx`,
    );
  }

  private async writeDeals() {
    await this.step(
      'listings: subscriptions',
      'listing_subscription',
      `INSERT INTO listing_subscription (id, listing_id, enterprise_id, user_id, quantity_kg, price_fen, amount_fen, deposit_fen, deposit_id, status, decline_reason, decided_at, request_id, created_at, updated_at)
       SELECT s.id, l.row_id, s.enterprise_id, s.user_id, q.kg, s.price, s.price * q.kg / 1000, 2 * q.kg, dep.id, s.status,
         CASE WHEN s.status = 'declined' THEN '交收时间不匹配' END, s.decided_at, 'scale-sub-' || s.id, s.at, COALESCE(s.decided_at, s.at)
       FROM s_sub s JOIN s_trade l ON l.idx = s.listing_idx
       LEFT JOIN s_deal d ON d.kind = 'listing' AND d.src = s.id
       JOIN s_dep dep ON dep.kind = 'listing' AND dep.ref = s.id
       CROSS JOIN LATERAL (SELECT COALESCE(d.quantity_kg, (3 + s.hs % 8) * 35000) AS kg) q
       ORDER BY s.id`,
    );
    await this.step(
      'auctions: enrolments',
      'auction_enrolment',
      `INSERT INTO auction_enrolment (id, auction_id, enterprise_id, user_id, bidder_no, deposit_id, status, request_id, created_at)
       SELECT e.id, a.row_id, e.enterprise_id, e.user_id, e.bidder_no, dep.id, e.status, 'scale-enrol-' || e.id, e.at
       FROM s_enrol e JOIN s_trade a ON a.idx = e.auction_idx JOIN s_dep dep ON dep.kind = 'auction' AND dep.ref = e.id ORDER BY e.id`,
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
      signDeadline: `((${shanghaiDayStart('d.deal_at', 2)} - interval '1 millisecond'))`,
      sellerSigned: `(d.deal_at + interval '1 hour')`,
      buyerSigned: `(d.deal_at + interval '2 hour')`,
      effective: `(d.deal_at + interval '2 hour')`,
      paid: `(d.deal_at + interval '12 hour')`,
      shipped: `(d.deal_at + interval '3 day')`,
      delivered: `(d.deal_at + interval '20 day')`,
      settled: `(d.deal_at + interval '28 day')`,
      completed: `(d.deal_at + interval '40 day')`,
      terminated: `(d.deal_at + interval '3 day')`,
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
         CASE WHEN d.trade_type IN (1, 3) THEN dep.id END, CASE WHEN d.trade_type IN (0, 2) THEN dep.id END, d.deal_at + interval '1 minute',
         CASE WHEN c.status = 'voided' THEN ${t.signDeadline} + interval '1 day' WHEN c.status = 'completed' THEN ${t.settled} WHEN c.status = 'performing' THEN ${t.effective} ELSE d.deal_at + interval '1 minute' END
       FROM s_deal d JOIN s_contract c ON c.dn = d.dn
       LEFT JOIN s_dep dep ON dep.dn = d.dn
       CROSS JOIN LATERAL (SELECT encode(sha256(convert_to(d.contract_no || '${this.f.seed}', 'UTF8')), 'hex') AS sha) pdf
       ORDER BY d.dn`,
    );
    // the signatures by certificate, as the signing flow records them
    const signed = (side: 'seller' | 'buyer') => `c.status IN ('${side}_signed', 'performing', 'completed')`;
    const signature = (side: 'seller' | 'buyer') => `
       SELECT d.contract_id, '${side}' AS side, 'certificate' AS method, d.${side}_id, d.${side}_user, e.organ_name, u.realname, u.username,
         left(encode(sha256(convert_to('${this.f.seed}:' || d.${side}_id || ':' || u.username, 'UTF8')), 'hex'), 32) AS serial,
         'C=CN, O=' || e.organ_name || ', organizationIdentifier=' || e.credit_code || ', CN=' || u.realname || ', 0.9.2342.19200300.100.1.1=' || u.username
           || '；颁发者 C=CN, O=CoalX 煤炭现货交易平台, CN=CoalX 平台数字证书根 CA' AS summary,
         encode(sha256(convert_to(d.contract_no || '${side}', 'UTF8')), 'hex') AS pdf_sha, ${side === 'seller' ? t.sellerSigned : t.buyerSigned} AS signed_at, d.dn
       FROM s_deal d JOIN s_contract c ON c.dn = d.dn JOIN enterprise e ON e.id = d.${side}_id JOIN sys_user u ON u.id = d.${side}_user
       WHERE ${signed(side)}`;
    await this.step(
      'contracts: signatures',
      'contract_signature',
      `INSERT INTO contract_signature (contract_id, side, method, enterprise_id, user_id, enterprise_name, signer_name, signer_username, certificate_serial, certificate_summary, pdf_sha256, signed_at)
       SELECT contract_id, side, method, ${'seller'}_id, ${'seller'}_user, organ_name, realname, username, serial, summary, pdf_sha, signed_at FROM (${signature('seller')}) s
       UNION ALL SELECT contract_id, side, method, buyer_id, buyer_user, organ_name, realname, username, serial, summary, pdf_sha, signed_at FROM (${signature('buyer')}) b
       ORDER BY signed_at, contract_id, side DESC`,
    );
    // the contract's history: generated, signed by each side, effective and performing, or overdue and voided
    await this.step(
      'contracts: history',
      'contract_event',
      `INSERT INTO contract_event (contract_id, at, action, actor_user_id, actor_name, note)
       SELECT x.contract_id, x.at, x.action, x.actor, x.actor_name, x.note FROM (
         SELECT d.contract_id, d.deal_at + interval '1 minute' AS at, '生成合同' AS action, NULL::bigint AS actor, '系统' AS actor_name,
           '由成交 ' || d.deal_no || '按模板生成，签署截止 ' || ${shanghaiDateTime(t.signDeadline)} AS note, 1 AS ord
         FROM s_deal d
         UNION ALL
         SELECT d.contract_id, ${t.sellerSigned}, '卖方签署', d.seller_user, u.username, e.organ_name || ' 使用数字证书（序列号 ' || left(encode(sha256(convert_to('${this.f.seed}:' || d.seller_id || ':' || u.username, 'UTF8')), 'hex'), 32) || '）签署', 2
         FROM s_deal d JOIN s_contract c ON c.dn = d.dn JOIN enterprise e ON e.id = d.seller_id JOIN sys_user u ON u.id = d.seller_user WHERE ${signed('seller')}
         UNION ALL
         SELECT d.contract_id, ${t.buyerSigned}, '买方签署', d.buyer_user, u.username, e.organ_name || ' 使用数字证书（序列号 ' || left(encode(sha256(convert_to('${this.f.seed}:' || d.buyer_id || ':' || u.username, 'UTF8')), 'hex'), 32) || '）签署', 3
         FROM s_deal d JOIN s_contract c ON c.dn = d.dn JOIN enterprise e ON e.id = d.buyer_id JOIN sys_user u ON u.id = d.buyer_user WHERE ${signed('buyer')}
         UNION ALL
         SELECT d.contract_id, ${t.effective}, '合同生效', NULL, '系统', '双方均已签署，合同生效', 4 FROM s_deal d JOIN s_contract c ON c.dn = d.dn WHERE c.status IN ('performing', 'completed')
         UNION ALL
         SELECT d.contract_id, ${t.effective}, '开始履行', NULL, '系统', '订单 ' || d.order_no || ' 已生成', 5 FROM s_deal d JOIN s_contract c ON c.dn = d.dn WHERE c.status IN ('performing', 'completed')
         UNION ALL
         SELECT d.contract_id, ${t.signDeadline}, '逾期未签', NULL, '系统', '签署截止 ' || ${shanghaiDateTime(t.signDeadline)} || ' 已过，待交易中心处理', 6 FROM s_deal d WHERE d.stage = 'voided'
         UNION ALL
         SELECT d.contract_id, ${t.signDeadline} + interval '1 day', '作废合同', ${ctx.operatorId}, 'operator', '逾期未签署，交易中心裁定作废（双方均无违约）', 7 FROM s_deal d WHERE d.stage = 'voided'
       ) x ORDER BY x.at, x.contract_id, x.ord`,
    );
  }

  private async writeOrders() {
    const t = this.times();
    const yuan = (fen: string) => `'¥' || ${fenText(fen)}`;
    await this.step(
      'orders',
      'trade_order',
      `INSERT INTO trade_order (id, order_no, contract_id, contract_no, deal_id, deal_no, trade_no, trade_type, seller_enterprise_id, buyer_enterprise_id, seller_name, buyer_name,
         transport_side, product_name, stock_code, quality, quantity_kg, price_fen, amount_fen, price_type, terms, prepayment_fen, payment_deadline, escrow_fen, status,
         planned_kg, dispatched_trucks, loaded_kg, loaded_trucks, arrived_kg, arrived_trucks, signed_kg, signed_trucks,
         paid_at, shipped_at, delivered_at, settlement_no, settled_fen, settled_at, completed_at, terminated_at, terminate_reason, created_at, updated_at)
       SELECT d.order_id, d.order_no, d.contract_id, d.contract_no, d.deal_id, d.deal_no, d.trade_no, d.trade_type, d.seller_id, d.buyer_id, se.organ_name, be.organ_name,
         d.transport_side, d.stock_name, d.stock_code, d.quality, d.quantity_kg, d.price, d.amount_fen, d.price_type, c.terms, d.amount_fen,
         ${shanghaiDayStart(t.effective, 4)} - interval '1 millisecond',
         CASE WHEN d.stage IN ('awaiting_shipment', 'shipping', 'awaiting_settlement') THEN d.amount_fen ELSE 0 END, d.stage,
         COALESCE(ag.planned_kg, 0), COALESCE(ag.dispatched, 0), COALESCE(ag.loaded_kg, 0), COALESCE(ag.loaded, 0), COALESCE(ag.arrived_kg, 0), COALESCE(ag.arrived, 0),
         COALESCE(ag.signed_kg, 0), COALESCE(ag.signed, 0),
         CASE WHEN d.stage NOT IN ('unpaid') THEN ${t.paid} END,
         CASE WHEN d.stage IN ('shipping', 'awaiting_settlement', 'settled', 'completed') THEN ${t.shipped} END,
         CASE WHEN d.stage IN ('awaiting_settlement', 'settled', 'completed') THEN ${t.delivered} END,
         st.statement_no, st.settled_fen, st.settled_at,
         CASE WHEN d.stage = 'completed' THEN ${t.completed} END,
         CASE WHEN d.stage = 'terminated' THEN ${t.terminated} END,
         CASE WHEN d.stage = 'terminated' THEN '买方申请解除合同，经双方协商一致终止' END,
         ${t.effective},
         CASE d.stage WHEN 'unpaid' THEN ${t.effective} WHEN 'awaiting_shipment' THEN ${t.paid} WHEN 'terminated' THEN ${t.terminated} WHEN 'completed' THEN ${t.completed}
           WHEN 'settled' THEN ${t.settled} WHEN 'awaiting_settlement' THEN ${t.delivered} ELSE ${t.shipped} END
       FROM s_deal d JOIN s_contract c ON c.dn = d.dn
       JOIN enterprise se ON se.id = d.seller_id JOIN enterprise be ON be.id = d.buyer_id
       LEFT JOIN s_order_agg ag ON ag.dn = d.dn LEFT JOIN s_settle st ON st.dn = d.dn
       WHERE d.order_id IS NOT NULL ORDER BY d.order_id`,
    );
    // the order's timeline, as the flows write it (the trucks' own steps are on the trucks and their tickets)
    const system = `NULL::bigint, '系统'`;
    await this.step(
      'orders: timeline',
      'order_event',
      `INSERT INTO order_event (order_id, action, actor_user_id, actor_name, note, at)
       SELECT x.order_id, x.action, x.actor, x.actor_name, x.note, x.at FROM (
         SELECT d.order_id, '生成订单' AS action, NULL::bigint AS actor, '系统' AS actor_name, '合同 ' || d.contract_no || ' 生效' AS note, ${t.effective} AS at, 1 AS ord, d.dn FROM s_deal d WHERE d.order_id IS NOT NULL
         UNION ALL
         SELECT d.order_id, '支付货款', d.buyer_user, bu.username, '预付款 ' || ${yuan('d.amount_fen')} || ' 已冻结托管', ${t.paid}, 2, d.dn
         FROM s_deal d JOIN sys_user bu ON bu.id = d.buyer_user WHERE d.stage NOT IN ('signing', 'voided', 'unpaid')
         UNION ALL
         SELECT d.order_id, '开始发运', CASE WHEN d.transport_side = 'buyer' THEN d.buyer_user ELSE d.seller_user END, tu.username, '首车已派出，订单进入发运中', ${t.shipped}, 3, d.dn
         FROM s_deal d JOIN sys_user tu ON tu.id = CASE WHEN d.transport_side = 'buyer' THEN d.buyer_user ELSE d.seller_user END
         WHERE d.stage IN ('shipping', 'awaiting_settlement', 'settled', 'completed')
         UNION ALL
         SELECT d.order_id, '确认交货完毕', d.seller_user, su.username, '交货完毕：共 ' || ag.signed || ' 车，签收 ' || ${tonsText('ag.signed_kg')}, ${t.delivered}, 4, d.dn
         FROM s_deal d JOIN s_order_agg ag ON ag.dn = d.dn JOIN sys_user su ON su.id = d.seller_user WHERE d.stage IN ('awaiting_settlement', 'settled', 'completed')
         UNION ALL
         SELECT d.order_id, '确认结算单', d.buyer_user, bu.username, '结算单 ' || st.statement_no || ' 已确认，结算金额 ' || ${yuan('st.settled_fen')}, st.settled_at, 5, d.dn
         FROM s_deal d JOIN s_settle st ON st.dn = d.dn JOIN sys_user bu ON bu.id = d.buyer_user
         UNION ALL
         SELECT d.order_id, '订单完成', ${system}, '发票已全部确认，订单完成', ${t.completed}, 6, d.dn FROM s_deal d WHERE d.stage = 'completed'
         UNION ALL
         SELECT d.order_id, '终止订单', ${this.ctx.operatorId}, 'operator', '买方申请解除合同，经双方协商一致终止；托管货款已退回', ${t.terminated}, 6, d.dn FROM s_deal d WHERE d.stage = 'terminated'
       ) x ORDER BY x.at, x.dn, x.ord`,
    );
  }

  // ---------------------------------------------------------------------------------------------------------------
  // writes after the trades: files, drivers, trucks, tickets, lab reports, statements, invoices, money, audit

  /** File records of the generated documents (the bytes are not written: the year's lists never read them). */
  private fileRows(select: string) {
    return `INSERT INTO file_object (id, storage_key, original_name, content_type, size, sha256, visibility, owner_enterprise_id, uploaded_by, scene, created_at)
      SELECT x.id, x.storage_key, x.original_name, x.content_type, x.size, encode(sha256(convert_to(x.storage_key, 'UTF8')), 'hex'), 'private', x.owner, x.uploaded_by, '', x.created_at
      FROM (${select}) x ORDER BY x.id`;
  }

  private async writeFiles() {
    const op = this.ctx.operatorId;
    await this.step(
      'drivers: licence photos',
      'file_object',
      this.fileRows(`SELECT d.id_card_file + f.n AS id, 'scale/drivers/' || d.enterprise_id || '/' || f.key || '.jpg' AS storage_key, f.name AS original_name,
         'image/jpeg' AS content_type, 180000 + f.n * 7000 AS size, d.enterprise_id AS owner, d.user_id AS uploaded_by, d.created_at
       FROM s_driver d CROSS JOIN (VALUES (0, 'id-card', '身份证.jpg'), (1, 'driving-licence', '驾驶证.jpg'), (2, 'vehicle-licence', '行驶证.jpg')) f(n, key, name)
       WHERE d.k = 1`),
    );
    await this.step(
      'drivers',
      'driver',
      `INSERT INTO driver (id, enterprise_id, name, id_card_no, mobile, licence_no, plate_no, vehicle_type, rated_load_kg, id_card_file_id, driving_licence_file_id,
         vehicle_licence_file_id, status, audit_note, audited_by, audited_at, created_by, created_at, updated_at)
       SELECT d.id, d.enterprise_id, d.name, d.id_card_no, d.mobile, d.id_card_no, d.plate_no, d.vehicle_type,
         CASE d.vehicle_type WHEN 'heavy_semi_trailer' THEN 49000 WHEN 'heavy_dump' THEN 45000 ELSE 40000 END,
         d.id_card_file, d.driving_file, d.vehicle_file, 'approved', '', ${op}, d.created_at + interval '1 day', d.user_id, d.created_at, d.created_at + interval '1 day'
       FROM s_driver d ORDER BY d.id`,
    );
  }

  private async writeDelivery() {
    const { ctx } = this;
    const settledBasis = `CASE WHEN t.price_type = 'delivered' OR t.disputed THEN t.arrived_net ELSE t.loaded_net END`;
    const reached = (states: string[]) => `t.status IN (${states.map(lit).join(', ')})`;
    const loaded = reached(['loaded', 'arrived', 'signed', 'disputed']);
    const arrived = reached(['arrived', 'signed', 'disputed']);
    const disputedOnce = `(t.disputed AND ${reached(['signed', 'disputed'])})`;
    const signedAt = `CASE WHEN t.disputed THEN t.arrived_at + interval '1 day' ELSE t.signed_at END`;
    await this.step(
      'trucks',
      'dispatch',
      `INSERT INTO dispatch (id, dispatch_no, order_id, enterprise_id, driver_id, driver_name, driver_mobile, driver_id_card_no, plate_no, vehicle_type, rated_load_kg, planned_kg,
         plan_date, gate_token, status, loaded_net_kg, arrived_net_kg, loss_kg, loss_exceeded, signed_kg, loaded_at, arrived_at, auto_sign_at, signed_at, signed_how,
         dispute_reason, disputed_at, seller_answer, answered_at, ruling_note, ruled_by, ruled_at, cancel_reason, created_by, created_at, updated_at)
       SELECT t.id, t.dispatch_no, t.order_id, t.sender_id, t.driver_id, t.driver_name, t.driver_mobile, t.id_card_no, t.plate_no, t.vehicle_type, t.rated_load_kg, t.planned_kg,
         ${shanghaiDate('t.dispatch_at')}, translate(encode(sha256(convert_to('${this.f.seed}:' || t.dispatch_no, 'UTF8')), 'base64'), '+/=', '-_')::varchar(32),
         t.status,
         CASE WHEN ${loaded} THEN t.loaded_net END, CASE WHEN ${arrived} THEN t.arrived_net END, CASE WHEN ${arrived} THEN t.loaded_net - t.arrived_net END,
         ${arrived} AND (t.loaded_net - t.arrived_net) * 1000 > t.loaded_net * 2,
         CASE WHEN t.status = 'signed' THEN ${settledBasis} END,
         CASE WHEN ${loaded} THEN t.loaded_at END, CASE WHEN ${arrived} THEN t.arrived_at END,
         CASE WHEN ${arrived} THEN ${shanghaiDayStart('t.arrived_at', 4)} - interval '1 millisecond' END,
         CASE WHEN t.status = 'signed' THEN ${signedAt} END,
         CASE WHEN t.status = 'signed' THEN CASE WHEN t.disputed THEN 'ruling' ELSE 'buyer' END END,
         CASE WHEN ${disputedOnce} THEN '到货净重与装车磅单差异较大，申请复核' END, CASE WHEN ${disputedOnce} THEN t.arrived_at + interval '1 hour' END,
         CASE WHEN ${disputedOnce} THEN '装车磅单无误，请交易中心裁定' END, CASE WHEN ${disputedOnce} THEN t.arrived_at + interval '3 hour' END,
         CASE WHEN t.disputed AND t.status = 'signed' THEN '经复核，按到货磅单净重签收' END,
         CASE WHEN t.disputed AND t.status = 'signed' THEN ${ctx.operatorId} END, CASE WHEN t.disputed AND t.status = 'signed' THEN ${signedAt} END,
         CASE WHEN t.status = 'cancelled' THEN '车辆故障，改派他车' END,
         t.sender_user, t.dispatch_at,
         CASE t.status WHEN 'signed' THEN ${signedAt} WHEN 'disputed' THEN t.arrived_at + interval '3 hour' WHEN 'arrived' THEN t.arrived_at WHEN 'loaded' THEN t.loaded_at
           WHEN 'cancelled' THEN t.dispatch_at + interval '2 hour' ELSE t.dispatch_at END
       FROM s_truck t ORDER BY t.id`,
    );
    // weigh tickets: the seller's at loading, the buyer's at arrival; numbered after the truck
    await this.step(
      'trucks: weigh tickets',
      'weigh_ticket',
      `INSERT INTO weigh_ticket (id, dispatch_id, order_id, stage, enterprise_id, ticket_no, gross_kg, tare_kg, net_kg, weighed_at, photo_file_id, created_by, created_at)
       SELECT ${this.ticketBase} - 1 + row_number() OVER (ORDER BY x.weighed_at, x.dispatch_id, x.stage DESC), x.*
       FROM (
         SELECT t.id AS dispatch_id, t.order_id, 'loading' AS stage, t.seller_id, 'ZC' || substr(t.dispatch_no, 3), 14000 + (t.ht / 11 % 300) * 10 + t.loaded_net,
           14000 + (t.ht / 11 % 300) * 10, t.loaded_net, t.loaded_at AS weighed_at, NULL::bigint, t.seller_user, t.loaded_at + interval '5 minute'
         FROM s_truck t WHERE ${loaded}
         UNION ALL
         SELECT t.id, t.order_id, 'arrival', t.buyer_id, 'DH' || substr(t.dispatch_no, 3), 14000 + (t.ht / 11 % 300) * 10 + 20 + t.arrived_net,
           14000 + (t.ht / 11 % 300) * 10 + 20, t.arrived_net, t.arrived_at, NULL::bigint, t.buyer_user, t.arrived_at + interval '5 minute'
         FROM s_truck t WHERE ${arrived}
       ) x ORDER BY 1`,
    );
    await this.step(
      'lab reports: files',
      'file_object',
      this.fileRows(`SELECT r.file_id AS id, 'scale/lab-reports/' || r.report_no || '.pdf' AS storage_key, '化验单 ' || r.report_no || '.pdf' AS original_name,
         'application/pdf' AS content_type, 96000 + r.dn % 9000 AS size, d.seller_id AS owner, d.seller_user AS uploaded_by, r.tested_at AS created_at
       FROM s_report r JOIN s_deal d ON d.dn = r.dn`),
    );
    // the lab found the contract's indicators: the settlement has no quality price adjustment
    await this.step(
      'lab reports',
      'quality_report',
      `INSERT INTO quality_report (id, order_id, side, enterprise_id, batch, lab, lab_name, report_no, qnet, mt, st, ad, vdaf, tested_at, file_id, status, answer_note,
         answered_by, answered_at, created_by, created_at)
       SELECT r.id, d.order_id, 'seller', d.seller_id, '', 'third_party', r.lab_name, r.report_no,
         COALESCE((d.quality->>'qnet')::numeric, 5500)::bigint, COALESCE((d.quality->>'mt')::numeric, 12), COALESCE((d.quality->>'st')::numeric, 0.8),
         COALESCE((d.quality->>'ad')::numeric, 18), COALESCE((d.quality->>'vdaf')::numeric, 28),
         ${shanghaiDate('r.tested_at')}, r.file_id, 'accepted', '', d.buyer_user, r.tested_at + interval '1 day', d.seller_user, r.tested_at
       FROM s_report r JOIN s_deal d ON d.dn = r.dn ORDER BY r.id`,
    );
  }

  private async writeSettlementAndInvoices() {
    const weighing = `CASE WHEN d.price_type = 'delivered' THEN '以买方（收货地）计量为准' ELSE '以卖方（发货地）计量为准' END`;
    await this.step(
      'settlement statements',
      'settlement_statement',
      `INSERT INTO settlement_statement (id, statement_no, order_id, seller_enterprise_id, buyer_enterprise_id, status, amount_fen, escrow_fen, fee_fen, settled_kg, figures,
         dispute_reason, ruling_note, issued_by, issued_by_name, issued_at, confirmed_by, confirmed_at, created_at, updated_at)
       SELECT s.id, s.statement_no, d.order_id, d.seller_id, d.buyer_id, 'confirmed', s.settled_fen, s.escrow_fen, 0, s.signed_kg,
         jsonb_build_object('lab', jsonb_build_object('ad', COALESCE((d.quality->>'ad')::numeric, 18), 'mt', COALESCE((d.quality->>'mt')::numeric, 12),
             'st', COALESCE((d.quality->>'st')::numeric, 0.8), 'qnet', COALESCE((d.quality->>'qnet')::numeric, 5500), 'vdaf', COALESCE((d.quality->>'vdaf')::numeric, 28),
             'labName', r.lab_name, 'reportNo', r.report_no, 'testedAt', ${shanghaiDate('r.tested_at')}),
           'feeFen', 0, 'trucks', COALESCE(ag.trucks, '[]'::jsonb), 'orderId', d.order_id, 'orderNo', d.order_no, 'signedKg', s.signed_kg, 'amountFen', s.settled_fen,
           'buyerName', be.organ_name, 'escrowFen', s.escrow_fen, 'settledKg', s.signed_kg, 'balanceFen', s.settled_fen - s.escrow_fen, 'contractNo', d.contract_no,
           'sellerName', se.organ_name, 'productName', d.stock_name, 'feePerTonFen', 0, 'moistureNote', '', 'qualityLines', '[]'::jsonb, 'unitPriceFen', d.price,
           'weighingBasis', ${weighing}, 'contractPriceFen', d.price, 'sellerReceivesFen', s.settled_fen, 'moistureDeductedKg', 0),
         '', '', d.seller_user, su.username, s.settled_at - interval '1 day', d.buyer_user, s.settled_at, s.settled_at - interval '1 day', s.settled_at
       FROM s_settle s JOIN s_deal d ON d.dn = s.dn JOIN s_order_agg ag ON ag.dn = s.dn JOIN s_report r ON r.dn = s.dn
       JOIN enterprise se ON se.id = d.seller_id JOIN enterprise be ON be.id = d.buyer_id JOIN sys_user su ON su.id = d.seller_user
       ORDER BY s.id`,
    );
    await this.step(
      'invoices: files',
      'file_object',
      this.fileRows(`SELECT i.file_id AS id, 'scale/invoices/' || i.id || '.pdf' AS storage_key, '增值税发票 ' || i.id || '.pdf' AS original_name,
         'application/pdf' AS content_type, 21000 + i.hi % 4000 AS size, d.seller_id AS owner, d.seller_user AS uploaded_by, i.issued_at AS created_at
       FROM s_invoice i JOIN s_deal d ON d.dn = i.dn`),
    );
    await this.step(
      'invoices',
      'invoice',
      `INSERT INTO invoice (id, order_id, order_no, settlement_no, seller_enterprise_id, buyer_enterprise_id, seller_name, buyer_name, direction, kind, medium, code, number,
         issued_on, rate, amount_fen, tax_fen, total_fen, file_id, status, reverses_id, reverse_reason, confirm_note, confirmed_by, confirmed_at, reversed_at, created_by, created_at, updated_at)
       SELECT i.id, d.order_id, d.order_no, s.statement_no, d.seller_id, d.buyer_id, se.organ_name, be.organ_name, 'blue',
         CASE WHEN i.hi % 10 < 8 THEN 'special' ELSE 'ordinary' END, CASE WHEN i.hi / 10 % 10 < 6 THEN 'digital' ELSE 'paper' END,
         CASE WHEN i.hi / 10 % 10 < 6 THEN '' ELSE '3100' || to_char(i.issued_at AT TIME ZONE 'Asia/Shanghai', 'YY') || '1130' END,
         CASE WHEN i.hi / 10 % 10 < 6 THEN to_char(i.issued_at AT TIME ZONE 'Asia/Shanghai', 'YY') || '312000' || lpad(i.id::text, 12, '0') ELSE lpad((i.id % 100000000)::text, 8, '0') END,
         ${shanghaiDate('i.issued_at')}, 13, i.amount_fen, i.tax_fen, i.total_fen, i.file_id, 'confirmed', NULL, '', '发票已收到，与结算单一致',
         d.buyer_user, i.issued_at + interval '1 day', NULL, d.seller_user, i.issued_at, i.issued_at + interval '1 day'
       FROM s_invoice i JOIN s_deal d ON d.dn = i.dn JOIN s_settle s ON s.dn = i.dn
       JOIN enterprise se ON se.id = d.seller_id JOIN enterprise be ON be.id = d.buyer_id
       ORDER BY i.id`,
    );
  }

  private async writeFunds() {
    const { tx, ctx } = this;
    await this.step(
      'funds: trade deposits',
      'fund_trade_deposit',
      `INSERT INTO fund_trade_deposit (id, enterprise_id, trade_kind, trade_id, ref_id, amount, status, created_at, updated_at)
       SELECT p.id, p.enterprise_id, p.kind, p.trade_no, p.ref::text, p.amount, p.status, p.created_at, COALESCE(p.released_at, p.created_at)
       FROM s_dep p ORDER BY p.id`,
    );
    await this.step(
      'funds: transfers in',
      'fund_deposit_in',
      `INSERT INTO fund_deposit_in (id, enterprise_id, amount, bank_name, payer_account_no, transfer_date, voucher_url, remark, status, request_id, applied_by, reviewed_by, reviewed_at, created_at, updated_at)
       SELECT x.id, x.enterprise_id, x.amount, x.bank_name, x.account_no, ${shanghaiDate("x.at - interval '3 hour'")}, 'scale/vouchers/' || x.id || '.png', '',
         'confirmed', 'scale-in-' || x.id, x.applied_by, ${ctx.operatorId}, x.at, x.at - interval '3 hour', x.at
       FROM (
         SELECT o.id, o.enterprise_id, o.amount, COALESCE(se.bank_name, e.bank_name) AS bank_name, COALESCE(se.bank_account_no, e.bank_account_no) AS account_no,
           COALESCE(se.admin_id, ${this.busy.userId}) AS applied_by, o.opened_at AS at
         FROM s_opening_in o LEFT JOIN s_ent se ON se.id = o.enterprise_id LEFT JOIN enterprise e ON e.id = o.enterprise_id
         UNION ALL
         SELECT x.deposit_in_id, e.id, x.amount_in, e.bank_name, e.bank_account_no, ${this.busy.userId}, x.at
         FROM s_transfer x CROSS JOIN enterprise e WHERE e.id = ${this.busy.enterpriseId}
       ) x ORDER BY x.id`,
    );
    await this.step(
      'funds: withdrawals',
      'fund_withdrawal',
      `INSERT INTO fund_withdrawal (id, enterprise_id, amount, bank_name, bank_branch, bank_account_no, account_name, remark, status, request_id, applied_by, reviewed_by, reviewed_at, created_at, updated_at)
       SELECT x.withdrawal_id, e.id, x.amount_out, e.bank_name, e.bank_branch, e.bank_account_no, e.organ_name, '', CASE WHEN x.pending_withdrawal THEN 'pending' ELSE 'paid' END,
         'scale-out-' || x.withdrawal_id, ${this.busy.userId}, CASE WHEN x.pending_withdrawal THEN NULL ELSE ${ctx.operatorId} END,
         CASE WHEN x.pending_withdrawal THEN NULL ELSE x.at + interval '2 day' END, x.at + interval '1 day', x.at + interval '1 day' + CASE WHEN x.pending_withdrawal THEN interval '0' ELSE interval '1 day' END
       FROM s_transfer x CROSS JOIN enterprise e WHERE e.id = ${this.busy.enterpriseId} AND x.withdrawal_id IS NOT NULL ORDER BY 1`,
    );
    const effectAvailable = `CASE m.kind WHEN 'credit' THEN m.amount WHEN 'freeze' THEN -m.amount WHEN 'release' THEN m.amount ELSE 0 END`;
    const effectFrozen = `CASE m.kind WHEN 'freeze' THEN m.amount WHEN 'release' THEN -m.amount WHEN 'debit_frozen' THEN -m.amount WHEN 'pay_out_frozen' THEN -m.amount ELSE 0 END`;
    await run(
      tx,
      `CREATE TEMP TABLE s_balance ON COMMIT DROP AS
       SELECT a.enterprise_id, a.account_id, a.available + COALESCE(sum(${effectAvailable}), 0) AS available, a.frozen + COALESCE(sum(${effectFrozen}), 0) AS frozen,
         max(m.at) AS last_at
       FROM s_acc a LEFT JOIN s_move m ON m.enterprise_id = a.enterprise_id GROUP BY a.enterprise_id, a.account_id, a.available, a.frozen`,
    );
    await this.step(
      'funds: accounts',
      'fund_account',
      `INSERT INTO fund_account (id, enterprise_id, available, frozen, created_at, updated_at)
       SELECT b.account_id, b.enterprise_id, b.available, b.frozen, e.created_at + interval '1 day', COALESCE(b.last_at, e.created_at + interval '1 day')
       FROM s_balance b JOIN s_ent e ON e.id = b.enterprise_id ORDER BY b.account_id`,
    );
    await this.step(
      'funds: busy account',
      'fund_account',
      `UPDATE fund_account a SET available = b.available, frozen = b.frozen, updated_at = now() FROM s_balance b WHERE a.id = ${ctx.busyAccountId} AND b.account_id = a.id`,
    );
    const j0 = await reserveIds(tx, 'fund_journal', await scalar(tx, `SELECT count(*) AS v FROM s_move`));
    await this.step(
      'funds: journal',
      'fund_journal',
      `INSERT INTO fund_journal (id, account_id, enterprise_id, kind, amount, available_after, frozen_after, ref_type, ref_id, idempotency_key, remark, created_by, created_at)
       SELECT ${j0} - 1 + row_number() OVER (ORDER BY m.at, m.ord, m.idem), a.account_id, m.enterprise_id, m.kind, m.amount,
         a.available + sum(${effectAvailable}) OVER w, a.frozen + sum(${effectFrozen}) OVER w,
         m.ref_type, m.ref_id, m.idem, m.remark, m.created_by, m.at
       FROM s_move m JOIN s_acc a ON a.enterprise_id = m.enterprise_id
       WINDOW w AS (PARTITION BY m.enterprise_id ORDER BY m.at, m.ord, m.idem)
       ORDER BY 1`,
    );
  }

  /**
   * 操作日志: a year of requests made of the year's own events (each bid, enrolment, truck and invoice the rows
   * above hold, sampled evenly), in time order, then hash-chained exactly as modules/audit/audit-chain.ts chains
   * rows: hash = SHA-256(previous hash ‖ the row's canonical jsonb text in UTC), continuing the chain's head.
   */
  private async writeAudit() {
    const { tx, f, ctx } = this;
    const h = (e: string, s: number) => this.h(e, s);
    const api = (path: string) => lit(`/trade-api${path}`);
    const count = (text: string) => scalar(tx, `SELECT count(*) AS v FROM ${text}`);
    interface Source {
      label: string;
      share: number;
      method: string;
      route: string;
      objectType: string;
      /** the rows to sample: columns at, user_id, object_id, body (jsonb); ordered by `order` */
      from: string;
      where: string;
      order: string;
    }
    const sources: Source[] = [
      { label: '出价', share: 0.4, method: 'POST', route: api('/api/bidRecord/bidAnswerApply'), objectType: '竞价',
        from: `SELECT b.at, e.user_id, b.trade_no AS object_id, jsonb_build_object('price', b.price, 'tradeId', b.trade_no) AS body, b.id AS o FROM s_bid b JOIN s_enrol e ON e.auction_idx = b.auction_idx AND e.bidder_no = b.bidder_no`, where: 'true', order: 'o' },
      { label: '派车', share: 0.07, method: 'POST', route: api('/api/delivery/dispatch'), objectType: '派车单',
        from: `SELECT t.dispatch_at AS at, t.sender_user AS user_id, t.dispatch_no AS object_id, jsonb_build_object('orderId', t.order_id, 'driverId', t.driver_id, 'plannedKg', t.planned_kg, 'planDate', ${shanghaiDate('t.dispatch_at')}) AS body, t.id AS o FROM s_truck t`, where: 'true', order: 'o' },
      { label: '录入装车磅单', share: 0.06, method: 'POST', route: api('/api/delivery/dispatch/:id/loading'), objectType: '派车单',
        from: `SELECT t.loaded_at AS at, t.seller_user AS user_id, t.dispatch_no AS object_id, jsonb_build_object('ticketNo', 'ZC' || substr(t.dispatch_no, 3), 'netKg', t.loaded_net) AS body, t.id AS o, t.status FROM s_truck t`, where: `status IN ('loaded', 'arrived', 'signed', 'disputed')`, order: 'o' },
      { label: '录入到货磅单', share: 0.06, method: 'POST', route: api('/api/delivery/dispatch/:id/arrival'), objectType: '派车单',
        from: `SELECT t.arrived_at AS at, t.buyer_user AS user_id, t.dispatch_no AS object_id, jsonb_build_object('ticketNo', 'DH' || substr(t.dispatch_no, 3), 'netKg', t.arrived_net) AS body, t.id AS o, t.status FROM s_truck t`, where: `status IN ('arrived', 'signed', 'disputed')`, order: 'o' },
      { label: '收货签收', share: 0.06, method: 'POST', route: api('/api/delivery/dispatch/:id/sign'), objectType: '派车单',
        from: `SELECT t.signed_at AS at, t.buyer_user AS user_id, t.dispatch_no AS object_id, '{}'::jsonb AS body, t.id AS o, t.status, t.disputed FROM s_truck t`, where: `status = 'signed' AND NOT disputed`, order: 'o' },
      { label: '竞价报名', share: 0.04, method: 'POST', route: api('/api/bidEnroll/add'), objectType: '竞价',
        from: `SELECT e.at, e.user_id, e.trade_no AS object_id, jsonb_build_object('tradeId', e.trade_no, 'requestId', 'enrol-' || e.id, 'payPassword', '***') AS body, e.id AS o FROM s_enrol e`, where: 'true', order: 'o' },
      { label: '摘牌', share: 0.03, method: 'POST', route: api('/api/listedAnswerApply'), objectType: '挂牌',
        from: `SELECT s.at, s.user_id, s.trade_no AS object_id, jsonb_build_object('tradeId', s.trade_no, 'quantity', (3 + s.hs % 8) * 35000, 'requestId', 'sub-' || s.id, 'payPassword', '***') AS body, s.id AS o FROM s_sub s`, where: 'true', order: 'o' },
      { label: '发布挂牌', share: 0.025, method: 'POST', route: api('/api/addListedApply'), objectType: '挂牌',
        from: `SELECT t.created_at AS at, t.publisher_user AS user_id, t.trade_no AS object_id, jsonb_build_object('tradeType', t.trade_type, 'stockCode', t.stock_code, 'price', t.price, 'submit', t.status <> 'draft') AS body, t.idx AS o, t.is_auction FROM s_trade t`, where: 'NOT is_auction', order: 'o' },
      { label: '发布竞价', share: 0.015, method: 'POST', route: api('/api/bidApply'), objectType: '竞价',
        from: `SELECT t.created_at AS at, t.publisher_user AS user_id, t.trade_no AS object_id, jsonb_build_object('tradeType', t.trade_type, 'stockCode', t.stock_code, 'startPrice', t.price, 'submit', t.status <> 'draft') AS body, t.idx AS o, t.is_auction FROM s_trade t`, where: 'is_auction', order: 'o' },
      { label: '挂牌审核通过', share: 0.02, method: 'POST', route: api('/api/listing/audit/approve'), objectType: '挂牌',
        from: `SELECT t.audit_at AS at, ${ctx.operatorId}::bigint AS user_id, t.trade_no AS object_id, jsonb_build_object('tradeId', t.trade_no) AS body, t.idx AS o, t.is_auction, t.status FROM s_trade t`, where: `NOT is_auction AND status = 'approved'`, order: 'o' },
      { label: '竞价审核通过', share: 0.01, method: 'POST', route: api('/api/auction/audit/approve'), objectType: '竞价',
        from: `SELECT t.audit_at AS at, ${ctx.operatorId}::bigint AS user_id, t.trade_no AS object_id, jsonb_build_object('tradeId', t.trade_no) AS body, t.idx AS o, t.is_auction, t.status FROM s_trade t`, where: `is_auction AND status = 'approved'`, order: 'o' },
      { label: '签署合同', share: 0.03, method: 'POST', route: api('/api/contract/:id/sign/complete'), objectType: '合同',
        from: `SELECT d.deal_at + CASE WHEN s.side = 1 THEN interval '1 hour' ELSE interval '2 hour' END AS at, CASE WHEN s.side = 1 THEN d.seller_user ELSE d.buyer_user END AS user_id,
          d.contract_no AS object_id, jsonb_build_object('sessionId', d.contract_id * 2 + s.side, 'signature', '***') AS body, d.dn * 2 + s.side AS o, d.stage
          FROM s_deal d CROSS JOIN (VALUES (1), (2)) s(side)`, where: `stage NOT IN ('signing', 'voided')`, order: 'o' },
      { label: '支付货款', share: 0.015, method: 'POST', route: api('/api/order/:id/pay'), objectType: '订单',
        from: `SELECT d.deal_at + interval '12 hour' AS at, d.buyer_user AS user_id, d.order_no AS object_id, jsonb_build_object('payPassword', '***') AS body, d.dn AS o, d.stage FROM s_deal d`, where: `stage NOT IN ('signing', 'voided', 'unpaid')`, order: 'o' },
      { label: '确认结算单', share: 0.01, method: 'POST', route: api('/api/settlement/statements/:id/confirm'), objectType: '结算单',
        from: `SELECT s.settled_at AS at, d.buyer_user AS user_id, s.statement_no AS object_id, jsonb_build_object('payPassword', '***') AS body, s.id AS o FROM s_settle s JOIN s_deal d ON d.dn = s.dn`, where: 'true', order: 'o' },
      { label: '登记发票', share: 0.015, method: 'POST', route: api('/api/invoice/order/:orderId'), objectType: '订单',
        from: `SELECT i.issued_at AS at, d.seller_user AS user_id, d.order_no AS object_id, jsonb_build_object('totalFen', i.total_fen, 'rate', 13) AS body, i.id AS o FROM s_invoice i JOIN s_deal d ON d.dn = i.dn`, where: 'true', order: 'o' },
      { label: '确认收票', share: 0.015, method: 'POST', route: api('/api/invoice/:id/confirm'), objectType: '发票',
        from: `SELECT i.issued_at + interval '1 day' AS at, d.buyer_user AS user_id, i.id::text AS object_id, jsonb_build_object('note', '发票已收到，与结算单一致') AS body, i.id AS o FROM s_invoice i JOIN s_deal d ON d.dn = i.dn`, where: 'true', order: 'o' },
      { label: '入金申请', share: 0.005, method: 'POST', route: api('/api/funds/depositIn/apply'), objectType: '入金',
        from: `SELECT x.at - interval '3 hour' AS at, ${this.busy.userId}::bigint AS user_id, x.deposit_in_id::text AS object_id, jsonb_build_object('amount', x.amount_in, 'requestId', 'in-' || x.c) AS body, x.c AS o FROM s_transfer x`, where: 'true', order: 'o' },
      { label: '出金申请', share: 0.005, method: 'POST', route: api('/api/funds/withdraw/apply'), objectType: '出金',
        from: `SELECT x.at + interval '1 day' AS at, ${this.busy.userId}::bigint AS user_id, x.withdrawal_id::text AS object_id, jsonb_build_object('amount', x.amount_out, 'requestId', 'out-' || x.c, 'payPassword', '***') AS body, x.c AS o, x.withdrawal_id FROM s_transfer x`, where: 'withdrawal_id IS NOT NULL', order: 'o' },
    ];
    // each kind its share of the rows (none without events to draw from); the rest are sign-ins
    const plan: { source: Source; n: number; available: number }[] = [];
    let taken = 0;
    for (const source of sources) {
      const available = await count(`(${source.from}) s WHERE ${source.where}`);
      const n = available ? Math.floor(f.auditRows * source.share) : 0;
      plan.push({ source, n, available });
      taken += n;
    }
    const logins = f.auditRows - taken;
    const parts = plan
      .filter((p) => p.n > 0)
      .map(
        ({ source, n, available }) => `
        SELECT s.at, s.user_id, ${lit(source.label)} AS action, ${lit(source.method)} AS method, ${source.route} AS route, ${lit(source.objectType)} AS object_type,
          s.object_id, s.body, k AS o
        FROM generate_series(1, ${n}) k
        JOIN (SELECT s.*, row_number() OVER (ORDER BY s.${source.order}) AS rn FROM (${source.from}) s WHERE ${source.where}) s
          ON s.rn = CASE WHEN ${n} <= ${available} THEN 1 + (k - 1)::bigint * ${available} / ${n} ELSE 1 + (k - 1) % ${available} END`,
      );
    // sign-ins: the generated people and the busy enterprise's, through the year
    parts.push(`
        SELECT ${this.YEAR0} + (k - 0.5) * interval '${f.days} day' / ${Math.max(logins, 1)} + (${h('k', 121)} % 600) * interval '1 second' AS at,
          u.user_id, '登录', 'POST', ${api('/sys/login')}, '用户', u.user_id::text, jsonb_build_object('userAgent', ${pick(['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.49'], h('k', 122))}), k
        FROM generate_series(1, ${logins}) k
        JOIN (SELECT row_number() OVER (ORDER BY user_id) AS rn, user_id FROM (SELECT admin_id AS user_id FROM s_ent UNION ALL SELECT trader_id FROM s_ent UNION ALL SELECT ${this.busy.userId}) x) u
          ON u.rn = 1 + ${h('k', 123)} % ${f.enterprises * 2 + 1}`);
    await this.stage('plan: audit rows', `CREATE TEMP TABLE s_audit0 ON COMMIT DROP AS ${parts.join('\n UNION ALL ')}`);
    // the chain continues from its head: rows already written are chained first (seedScale does it before)
    const [head] = await rows<{ chain_seq: number; hash: string }>(tx, `SELECT chain_seq, hash FROM sys_audit_log WHERE chain_seq IS NOT NULL ORDER BY chain_seq DESC LIMIT 1`);
    const unchained = await scalar(tx, `SELECT count(*) AS v FROM sys_audit_log WHERE chain_seq IS NULL`);
    if (unchained) throw new Error(`操作日志中有 ${unchained} 行尚未入链: 请先启动一次服务器 (或调用 chainAuditRows) 再生成`);
    const headSeq = Number(head?.chain_seq ?? 0);
    const headHash = head?.hash ?? '0'.repeat(64);
    const a0 = await reserveIds(tx, 'sys_audit_log', f.auditRows);
    await run(tx, `CREATE TEMP TABLE s_audit (LIKE sys_audit_log) ON COMMIT DROP`);
    await this.stage(
      'plan: audit rows in order',
      `INSERT INTO s_audit (id, at, user_id, username, enterprise_id, enterprise_name, role, action, method, route, object_type, object_id, changes, body, result, error_code, status_code, ip, request_id)
       SELECT ${a0} - 1 + row_number() OVER (ORDER BY a.at, a.action, a.o), a.at, a.user_id, u.username, u.enterprise_id, COALESCE(e.organ_name, ''), r.name,
         a.action, a.method, a.route, a.object_type, a.object_id, NULL, a.body, 'success', '', 200,
         '10.' || (${h('a.o', 124)} % 250) || '.' || (${h('a.o', 125)} % 250) || '.' || (1 + ${h('a.o', 126)} % 250), 'req-' || to_hex(${h('a.o', 127)})
       FROM s_audit0 a JOIN sys_user u ON u.id = a.user_id JOIN sys_role r ON r.id = u.role_id
       LEFT JOIN enterprise e ON e.id = u.enterprise_id`,
    );
    await run(tx, `DROP TABLE s_audit0`);
    await run(tx, `CREATE UNIQUE INDEX ON s_audit (id)`);
    await run(tx, `ANALYZE s_audit`);
    // the canonical text as the chaining step reads it: jsonb of the row without chain_seq and hash, times in UTC
    await run(tx, `SELECT set_config('TimeZone', 'UTC', true), set_config('bytea_output', 'hex', true), set_config('IntervalStyle', 'postgres', true), set_config('extra_float_digits', '1', true)`);
    await run(tx, `SET LOCAL enable_hashjoin = off`);
    await run(tx, `SET LOCAL enable_mergejoin = off`);
    await this.stage(
      'plan: audit chain',
      `CREATE TEMP TABLE s_audit_chain ON COMMIT DROP AS
       WITH RECURSIVE chain AS (
         SELECT s.id, 1::bigint AS n, encode(sha256(convert_to(${lit(headHash)} || (to_jsonb(s) - 'chain_seq' - 'hash')::text, 'UTF8')), 'hex') AS hash
         FROM s_audit s WHERE s.id = ${a0}
         UNION ALL
         SELECT s.id, c.n + 1, encode(sha256(convert_to(c.hash || (to_jsonb(s) - 'chain_seq' - 'hash')::text, 'UTF8')), 'hex')
         FROM chain c JOIN s_audit s ON s.id = c.id + 1
       )
       SELECT id, n, hash FROM chain`,
    );
    await run(tx, `RESET enable_hashjoin`);
    await run(tx, `RESET enable_mergejoin`);
    await run(tx, `CREATE UNIQUE INDEX ON s_audit_chain (id)`);
    // the columns the chain covers from here, noted when they differ from the last note (as the chaining step does)
    await run(
      tx,
      `INSERT INTO sys_audit_chain_columns (from_chain_seq, columns)
       SELECT ${headSeq + 1}::bigint, present.columns
       FROM (SELECT array_agg(attname::text ORDER BY attname) AS columns FROM pg_attribute
         WHERE attrelid = 'sys_audit_log'::regclass AND attnum > 0 AND NOT attisdropped AND attname NOT IN ('chain_seq', 'hash')) present
       WHERE present.columns IS DISTINCT FROM (SELECT columns FROM sys_audit_chain_columns ORDER BY from_chain_seq DESC LIMIT 1)`,
    );
    const columns = (await rows<{ name: string }>(tx, `SELECT attname::text AS name FROM pg_attribute WHERE attrelid = 'sys_audit_log'::regclass AND attnum > 0 AND NOT attisdropped AND attname NOT IN ('chain_seq', 'hash') ORDER BY attnum`)).map((c) => `"${c.name}"`);
    await this.step(
      'audit log (hash-chained)',
      'sys_audit_log',
      `INSERT INTO sys_audit_log (${columns.join(', ')}, chain_seq, hash)
       SELECT ${columns.map((c) => `s.${c}`).join(', ')}, ${headSeq} + c.n, c.hash FROM s_audit s JOIN s_audit_chain c ON c.id = s.id ORDER BY s.id`,
    );
  }

}
