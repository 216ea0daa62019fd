import {
  FREIGHT_CARRIER_KINDS,
  FREIGHT_STATUS,
  FreightStatementStates,
  formatDateTime,
  freightLineMoney,
  freightTotals,
  type FreightDetail,
  type FreightDraftInput,
  type FreightLine,
  type FreightPreview,
  type FreightQuery,
  type FreightStatementSummary,
  type FreightStatus,
  type FreightSummaryAnswer,
  type FreightSummaryQuery,
} from '@coalx/shared';
import { and, asc, count, desc, eq, gte, ilike, inArray, lte, ne, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client';
import { freightLines, freightStatements, type FreightLineRow, type FreightStatement } from '../../db/schema/index';
import { businessRule, notFound } from '../../errors';
import { signedTrucksInPeriod, trucksByIds, type FreightTruck } from '../delivery/freight-sources';
import { enterpriseDriver, enterpriseDrivers } from '../driver/driver.service';
import type { Actor } from '../../lib/actor';
import { allowedActions, type GrantCheck } from '../../lib/policy';
import type { Clock } from '../../lib/clock';
import { uniqueViolation } from '../../lib/db-errors';
import { nextTradeNumber } from '../../lib/trade-number';
import { transition } from '../../lib/transition';
import { accountNames } from '../auth/accounts.service';
import { enterpriseNames } from '../enterprise/enterprise.service';
import { filesByIds, ownedFileId } from '../files/files.service';
import { grantsHeld } from '../auth/grants.service';
import { freightPolicy } from './freight.policy';

const LIVE_DISPATCH = 'freight_line_live_dispatch_uq';
const escapeLike = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The trucks already on a live statement, each with that statement's number. */
async function trucksOnStatements(db: Db | Tx, dispatchIds: readonly number[]): Promise<Map<number, string>> {
  if (dispatchIds.length === 0) return new Map();
  const rows = await db
    .select({ dispatchId: freightLines.dispatchId, statementNo: freightStatements.statementNo })
    .from(freightLines)
    .innerJoin(freightStatements, eq(freightStatements.id, freightLines.statementId))
    .where(and(inArray(freightLines.dispatchId, [...dispatchIds]), eq(freightLines.live, true)));
  return new Map(rows.map((r) => [r.dispatchId, r.statementNo]));
}

function lineOf(truck: FreightTruck, rateFen: number): FreightLine {
  return {
    dispatchId: truck.dispatchId,
    dispatchNo: truck.dispatchNo,
    orderId: truck.orderId,
    orderNo: truck.orderNo,
    driverName: truck.driverName,
    plateNo: truck.plateNo,
    signedAt: formatDateTime(truck.signedAt),
    loadedNetKg: truck.loadedNetKg,
    arrivedNetKg: truck.arrivedNetKg,
    signedKg: truck.signedKg,
    lossKg: truck.lossKg,
    transitLossPct: truck.transitLossPct,
    orderPriceFen: truck.orderPriceFen,
    ...freightLineMoney(truck, rateFen),
  };
}

/**
 * The statement a draft would make: the carrier's name, and the trucks (all the eligible ones of the period, or the
 * ones chosen) with their lines and totals. Refuses another enterprise's truck as not found, an unsigned truck, a
 * truck outside the period or carrier, one already on a live statement, and a period with no trucks.
 */
async function draftLines(db: Db | Tx, enterpriseId: number, input: FreightDraftInput): Promise<{ carrierName: string; lines: FreightLine[]; trucks: FreightTruck[] }> {
  let carrierName = input.carrierName ?? '';
  if (input.carrierKind === 'driver') {
    const driver = await enterpriseDriver(db, enterpriseId, input.driverId!);
    if (!driver) throw notFound('司机不存在');
    carrierName = driver.name;
  }
  const driverId = input.carrierKind === 'driver' ? input.driverId : undefined;
  const eligible = await signedTrucksInPeriod(db, enterpriseId, { from: input.periodFrom, to: input.periodTo, driverId });
  let trucks: FreightTruck[];
  if (input.lines && input.lines.length > 0) {
    const ids = input.lines.map((l) => l.dispatchId);
    if (new Set(ids).size !== ids.length) throw businessRule('同一车辆不能重复列入结算单');
    const found = new Map((await trucksByIds(db, ids)).map((t) => [t.dispatchId, t]));
    const inScope = new Set(eligible.map((t) => t.dispatchId));
    trucks = ids.map((id) => {
      const truck = found.get(id);
      if (!truck || truck.enterpriseId !== enterpriseId) throw notFound('派车单不存在');
      if (truck.status !== 'signed') throw businessRule(`派车单 ${truck.dispatchNo} 尚未签收，不能结算运费`);
      if (!inScope.has(id)) throw businessRule(`派车单 ${truck.dispatchNo} 不在该承运方本期间签收的车辆中`);
      return truck;
    });
    const taken = await trucksOnStatements(db, ids);
    const first = trucks.find((t) => taken.has(t.dispatchId));
    if (first) throw businessRule(`派车单 ${first.dispatchNo} 已在运费结算单 ${taken.get(first.dispatchId)} 中`);
  } else {
    const taken = await trucksOnStatements(db, eligible.map((t) => t.dispatchId));
    trucks = eligible.filter((t) => !taken.has(t.dispatchId));
  }
  if (trucks.length === 0) throw businessRule('该承运方在所选期间没有可结算的已签收车辆');
  const rates = new Map((input.lines ?? []).map((l) => [l.dispatchId, l.rateFen ?? input.rateFen]));
  const lines = trucks.map((t) => lineOf(t, rates.get(t.dispatchId) ?? input.rateFen));
  return { carrierName, lines, trucks };
}

/** 新建运费结算单's preview: the lines and the money, nothing stored. */
export async function previewFreight(db: Db, actor: Actor, input: FreightDraftInput): Promise<FreightPreview> {
  const enterpriseId = freightPolicy.can(actor, 'manage');
  const { carrierName, lines } = await draftLines(db, enterpriseId, input);
  return { carrierName, lines, ...freightTotals(lines) };
}

/** Saves a draft. A truck drafted twice at once is refused by the live-truck unique index for the later one. */
export async function draftFreight(db: Db, clock: Clock, actor: Actor, input: FreightDraftInput): Promise<FreightDetail> {
  const enterpriseId = freightPolicy.can(actor, 'manage');
  try {
    const id = await db.transaction(async (tx) => {
      const { carrierName, lines, trucks } = await draftLines(tx, enterpriseId, input);
      const money = freightTotals(lines);
      if (money.subtotalFen <= 0) throw businessRule('途损扣款超过运费，本单运费合计须大于 0');
      const now = clock.now();
      const [statement] = await tx
        .insert(freightStatements)
        .values({
          statementNo: await nextTradeNumber(tx, 'YF', now),
          enterpriseId,
          carrierKind: input.carrierKind,
          driverId: input.carrierKind === 'driver' ? input.driverId! : null,
          carrierName,
          periodFrom: input.periodFrom,
          periodTo: input.periodTo,
          rateFen: input.rateFen,
          ...money,
          note: input.note ?? '',
          createdBy: actor.userId,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: freightStatements.id });
      await tx.insert(freightLines).values(
        lines.map((l, i) => ({ ...l, statementId: statement!.id, signedAt: trucks[i]!.signedAt!, live: true })),
      );
      return statement!.id;
    });
    return await freightDetail(db, actor, id);
  } catch (err) {
    if (uniqueViolation(err) === LIVE_DISPATCH) throw businessRule('所选车辆已列入其他运费结算单，请刷新后重试');
    throw err;
  }
}

async function findStatement(db: Db | Tx, id: number): Promise<FreightStatement> {
  const [row] = await db.select().from(freightStatements).where(eq(freightStatements.id, id)).limit(1);
  if (!row) throw notFound('运费结算单不存在');
  return row;
}

export async function confirmFreight(db: Db, clock: Clock, actor: Actor, id: number, input: { signedCopy: string; carrierSigner: string }) {
  const row = await findStatement(db, id);
  freightPolicy.can(actor, 'confirm', row);
  await db.transaction(async (tx) => {
    const fileId = await ownedFileId(tx, input.signedCopy, row.enterpriseId);
    const now = clock.now();
    await transition(tx, FreightStatementStates, 'confirm', {
      table: freightStatements,
      where: eq(freightStatements.id, id),
      set: { signedCopyFileId: fileId, carrierSigner: input.carrierSigner, confirmedAt: now, confirmedBy: actor.userId, updatedAt: now },
      notFoundMessage: '运费结算单不存在',
    });
  });
  return freightDetail(db, actor, id);
}

/** Records the payment made to the carrier off the platform, with its voucher: no platform money moves. */
export async function payFreight(db: Db, clock: Clock, actor: Actor, id: number, input: { voucher: string; note?: string }) {
  const row = await findStatement(db, id);
  freightPolicy.can(actor, 'pay', row);
  await db.transaction(async (tx) => {
    const fileId = await ownedFileId(tx, input.voucher, row.enterpriseId);
    const now = clock.now();
    await transition(tx, FreightStatementStates, 'pay', {
      table: freightStatements,
      where: eq(freightStatements.id, id),
      set: { voucherFileId: fileId, payNote: input.note ?? '', paidAt: now, paidBy: actor.userId, updatedAt: now },
      notFoundMessage: '运费结算单不存在',
    });
  });
  return freightDetail(db, actor, id);
}

/** Voids a draft: its trucks may go on another statement. */
export async function cancelFreight(db: Db, clock: Clock, actor: Actor, id: number) {
  const row = await findStatement(db, id);
  freightPolicy.can(actor, 'cancel', row);
  await db.transaction(async (tx) => {
    const now = clock.now();
    await transition(tx, FreightStatementStates, 'cancel', { table: freightStatements, where: eq(freightStatements.id, id), set: { cancelledAt: now, updatedAt: now } });
    await tx.update(freightLines).set({ live: false }).where(eq(freightLines.statementId, id));
  });
  return freightDetail(db, actor, id);
}

/** What the actor may do with a statement now: the policy's verdicts (rule, route grant, the statement's state). */
function actionsOf(actor: Actor, held: GrantCheck, row: FreightStatement): FreightStatementSummary['actions'] {
  return allowedActions(
    freightPolicy.verdicts(actor, held, row, {
      confirm: { rule: 'confirm', when: row.status === 'draft' },
      cancel: { rule: 'cancel', when: row.status === 'draft' },
      pay: { rule: 'pay', when: row.status === 'confirmed' },
    }),
  );
}

async function presentAll(db: Db, actor: Actor, rows: FreightStatement[]): Promise<FreightStatementSummary[]> {
  const ids = rows.map((r) => r.id);
  const held = await grantsHeld(db, actor);
  const [names, orderRows] = await Promise.all([
    enterpriseNames(db, rows.map((r) => r.enterpriseId)),
    ids.length === 0
      ? []
      : db.selectDistinct({ statementId: freightLines.statementId, orderNo: freightLines.orderNo }).from(freightLines).where(inArray(freightLines.statementId, ids)).orderBy(asc(freightLines.orderNo)),
  ]);
  const ordersOf = new Map<number, string[]>();
  for (const r of orderRows) ordersOf.set(r.statementId, [...(ordersOf.get(r.statementId) ?? []), r.orderNo]);
  return rows.map((r) => ({
    id: r.id,
    statementNo: r.statementNo,
    enterpriseId: r.enterpriseId,
    enterpriseName: names.get(r.enterpriseId) ?? '',
    carrierKind: r.carrierKind as 'driver' | 'company',
    carrierKindText: FREIGHT_CARRIER_KINDS[r.carrierKind as 'driver' | 'company'] ?? r.carrierKind,
    carrierName: r.carrierName,
    driverId: r.driverId,
    periodFrom: r.periodFrom,
    periodTo: r.periodTo,
    rateFen: r.rateFen,
    trucks: r.trucks,
    signedKg: r.signedKg,
    freightFen: r.freightFen,
    lossDeductionFen: r.lossDeductionFen,
    subtotalFen: r.subtotalFen,
    taxFen: r.taxFen,
    totalFen: r.totalFen,
    status: r.status as FreightStatus,
    statusText: FREIGHT_STATUS[r.status as FreightStatus] ?? r.status,
    orderNos: ordersOf.get(r.id) ?? [],
    note: r.note,
    carrierSigner: r.carrierSigner,
    confirmedAt: r.confirmedAt ? formatDateTime(r.confirmedAt) : null,
    paidAt: r.paidAt ? formatDateTime(r.paidAt) : null,
    createdAt: formatDateTime(r.createdAt),
    actions: actionsOf(actor, held, r),
  }));
}

function presentLine(l: FreightLineRow): FreightLine {
  return {
    dispatchId: l.dispatchId,
    dispatchNo: l.dispatchNo,
    orderId: l.orderId,
    orderNo: l.orderNo,
    driverName: l.driverName,
    plateNo: l.plateNo,
    signedAt: formatDateTime(l.signedAt),
    loadedNetKg: l.loadedNetKg,
    arrivedNetKg: l.arrivedNetKg,
    signedKg: l.signedKg,
    lossKg: l.lossKg,
    transitLossPct: l.transitLossPct,
    excessLossKg: l.excessLossKg,
    orderPriceFen: l.orderPriceFen,
    rateFen: l.rateFen,
    freightFen: l.freightFen,
    lossDeductionFen: l.lossDeductionFen,
    lineFen: l.lineFen,
  };
}

export async function freightDetail(db: Db, actor: Actor, id: number): Promise<FreightDetail> {
  const row = await findStatement(db, id);
  freightPolicy.can(actor, 'view', row);
  const [summary] = await presentAll(db, actor, [row]);
  const lines = await db.select().from(freightLines).where(eq(freightLines.statementId, id)).orderBy(asc(freightLines.signedAt), asc(freightLines.id));
  const fileIds = [row.signedCopyFileId, row.voucherFileId].filter((f): f is number => f !== null);
  const files = new Map((await filesByIds(db, fileIds)).map((f) => [f.id, { url: f.storageKey, name: f.originalName }]));
  const creator = await accountNames(db, row.createdBy);
  return {
    ...summary!,
    lines: lines.map(presentLine),
    signedCopy: row.signedCopyFileId ? (files.get(row.signedCopyFileId) ?? null) : null,
    voucher: row.voucherFileId ? (files.get(row.voucherFileId) ?? null) : null,
    createdBy: creator?.realname || creator?.username || '',
  };
}

function listWhere(enterpriseId: number | null, query: Omit<FreightQuery, 'pageNo' | 'pageSize'>) {
  return and(
    enterpriseId === null ? undefined : eq(freightStatements.enterpriseId, enterpriseId),
    query.status ? eq(freightStatements.status, query.status) : undefined,
    query.payable ? inArray(freightStatements.status, ['confirmed', 'paid']) : undefined,
    query.statementNo ? ilike(freightStatements.statementNo, escapeLike(query.statementNo)) : undefined,
    query.carrierName ? ilike(freightStatements.carrierName, escapeLike(query.carrierName)) : undefined,
    query.orderNo
      ? sql`exists (select 1 from ${freightLines} where ${freightLines.statementId} = ${freightStatements.id} and ${freightLines.orderNo} ilike ${escapeLike(query.orderNo)})`
      : undefined,
  );
}

export async function listFreight(db: Db, actor: Actor, query: FreightQuery) {
  const enterpriseId = freightPolicy.can(actor, 'list');
  const where = listWhere(enterpriseId, query);
  const [total] = await db.select({ n: count() }).from(freightStatements).where(where);
  const rows = await db
    .select()
    .from(freightStatements)
    .where(where)
    .orderBy(desc(freightStatements.id))
    .limit(query.pageSize)
    .offset((query.pageNo - 1) * query.pageSize);
  return { records: await presentAll(db, actor, rows), total: Number(total!.n), current: query.pageNo, size: query.pageSize };
}

/** Every statement the list's filters match (the Excel export), newest first, at most 5000. */
export async function freightForExport(db: Db, actor: Actor, query: Omit<FreightQuery, 'pageNo' | 'pageSize'>) {
  const enterpriseId = freightPolicy.can(actor, 'list');
  const rows = await db.select().from(freightStatements).where(listWhere(enterpriseId, query)).orderBy(desc(freightStatements.id)).limit(5000);
  return presentAll(db, actor, rows);
}

/** 新建's carrier choice: the enterprise's drivers and the carrier companies it named before. */
export async function freightCarriers(db: Db, actor: Actor) {
  const enterpriseId = freightPolicy.can(actor, 'manage');
  const companies = await db
    .selectDistinct({ name: freightStatements.carrierName })
    .from(freightStatements)
    .where(and(eq(freightStatements.enterpriseId, enterpriseId), eq(freightStatements.carrierKind, 'company')))
    .orderBy(asc(freightStatements.carrierName))
    .limit(200);
  return { drivers: await enterpriseDrivers(db, enterpriseId), companies: companies.map((c) => c.name) };
}

/**
 * 运费汇总: statements that are not void, by carrier and month. A statement counts in the month its period starts
 * (periods are normally a month or part of one), so each row's tax is the sum of whole statements' taxes and
 * agrees with what was paid.
 */
export async function freightSummary(db: Db, actor: Actor, query: FreightSummaryQuery): Promise<FreightSummaryAnswer> {
  const enterpriseId = freightPolicy.can(actor, 'list');
  const month = sql<string>`substr(${freightStatements.periodFrom}, 1, 7)`;
  const sum = (column: AnyPgColumn) => sql<string>`coalesce(sum(${column}), 0)`;
  const rows = await db
    .select({
      carrierName: freightStatements.carrierName,
      month,
      trucks: sql<string>`coalesce(sum(${freightStatements.trucks}), 0)`,
      signedKg: sum(freightStatements.signedKg),
      freightFen: sum(freightStatements.freightFen),
      lossDeductionFen: sum(freightStatements.lossDeductionFen),
      subtotalFen: sum(freightStatements.subtotalFen),
      taxFen: sum(freightStatements.taxFen),
      totalFen: sum(freightStatements.totalFen),
      paidFen: sql<string>`coalesce(sum(case when ${freightStatements.status} = 'paid' then ${freightStatements.totalFen} else 0 end), 0)`,
    })
    .from(freightStatements)
    .where(
      and(
        enterpriseId === null ? undefined : eq(freightStatements.enterpriseId, enterpriseId),
        ne(freightStatements.status, 'cancelled'),
        query.monthFrom ? gte(freightStatements.periodFrom, `${query.monthFrom}-01`) : undefined,
        query.monthTo ? lte(freightStatements.periodFrom, `${query.monthTo}-31`) : undefined,
        query.carrierName ? ilike(freightStatements.carrierName, escapeLike(query.carrierName)) : undefined,
      ),
    )
    .groupBy(freightStatements.carrierName, month)
    .orderBy(desc(month), asc(freightStatements.carrierName))
    .limit(2000);
  const numbers = rows.map((r) => ({
    carrierName: r.carrierName,
    month: r.month,
    trucks: Number(r.trucks),
    signedKg: Number(r.signedKg),
    freightFen: Number(r.freightFen),
    lossDeductionFen: Number(r.lossDeductionFen),
    subtotalFen: Number(r.subtotalFen),
    taxFen: Number(r.taxFen),
    totalFen: Number(r.totalFen),
    paidFen: Number(r.paidFen),
  }));
  const total = { trucks: 0, signedKg: 0, freightFen: 0, lossDeductionFen: 0, subtotalFen: 0, taxFen: 0, totalFen: 0, paidFen: 0 };
  for (const r of numbers) for (const key of Object.keys(total) as (keyof typeof total)[]) total[key] += r[key];
  return { rows: numbers, total };
}
