import { CONTRACT_VAT_RATE, INVOICE_LIVE_STATES, InvoiceStates, OrderStates, formatDateTime, formatFen, stateLabel, type InvoiceAction, type InvoiceDue, type InvoiceFilter, type InvoiceQuery, type InvoiceView, type OrderInvoices, type MoveOf } from '@coalx/shared';
import { and, count, desc, eq, gte, ilike, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import { inIdOrder, listPageIds } from '../../lib/list-page';
import type { Db, Tx } from '../../db/client';
import { invoices, type Invoice, type Order } from '../../db/schema/index';
import { appError, businessRule, notFound } from '../../errors';
import type { Actor } from '../../lib/actor';
import { allowedActions, type GrantCheck } from '../../lib/policy';
import { uniqueViolation } from '../../lib/db-errors';
import { shanghaiDate } from '../../lib/shanghai-time';
import { transition } from '../../lib/transition';
import type { FileStorage } from '../files/storage';
import { filesByIds } from '../files/files.service';
import { findOrder, orderForActor } from '../order/order.service';
import { grantsHeld } from '../auth/grants.service';
import { invoicePolicy, invoiceSideOf } from './invoice.policy';

/**
 * VAT invoices of settled orders (DESIGN.md §8). Every change locks the order row first, so two invoices registered
 * at once cannot both fit under the settled amount and the last confirmation completes the order exactly once.
 */

/** An amount in yuan as the invoice messages write it. */
export const yuan = (fen: number) => `${formatFen(fen)} 元`;

/** The live invoices' totals of an order (not reversed, not red-letter), and how many of them are confirmed. */
export async function invoiceTotals(db: Db | Tx, orderId: number) {
  const rows = await db
    .select({ status: invoices.status, total: invoices.totalFen })
    .from(invoices)
    .where(and(eq(invoices.orderId, orderId), inArray(invoices.status, [...INVOICE_LIVE_STATES])));
  const confirmed = rows.filter((r) => r.status === 'confirmed');
  return {
    count: rows.length,
    total: rows.reduce((s, r) => s + r.total, 0),
    confirmedCount: confirmed.length,
    confirmedTotal: confirmed.reduce((s, r) => s + r.total, 0),
  };
}

type Totals = Awaited<ReturnType<typeof invoiceTotals>>;

/** The invoices total the settled amount to the fen (the tax's rounding is inside each invoice's total). */
export function invoicesComplete(settledFen: number, totals: Pick<Totals, 'count' | 'total'>): boolean {
  return totals.count > 0 && totals.total === settledFen;
}

export function dateProblem(issuedOn: string, order: Order, now: Date): string | null {
  if (issuedOn > shanghaiDate(now)) return '开票日期不能晚于今天';
  const settledOn = shanghaiDate(order.settledAt ?? now);
  if (issuedOn < settledOn) return `开票日期不能早于订单结算日期（${settledOn}）`;
  return null;
}

const numberUsed = (code: string, number: string) => appError('conflict', `发票${code ? `代码 ${code} ` : ''}号码 ${number} 已登记，不能重复登记`);

export async function withNumber<T>(code: string, number: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (uniqueViolation(err) === 'invoice_number_uq') throw numberUsed(code, number);
    if (uniqueViolation(err) === 'invoice_reverses_uq') throw appError('state_changed', '该发票已红冲，请刷新后重试');
    throw err;
  }
}

export async function refuseUsedNumber(tx: Tx, code: string, number: string) {
  const [used] = await tx.select({ id: invoices.id }).from(invoices).where(and(eq(invoices.code, code), eq(invoices.number, number))).limit(1);
  if (used) throw numberUsed(code, number);
}

export function requireSettled(order: Order, doing: string) {
  if (order.status !== 'settled') throw businessRule(`订单当前状态为「${stateLabel(OrderStates, order.status)}」，只有已结算的订单可以${doing}`);
}

export async function lockedInvoice(tx: Tx, actor: Actor, id: number) {
  const [found] = await tx.select().from(invoices).where(eq(invoices.id, id)).limit(1);
  if (!found) throw notFound('发票不存在');
  invoicePolicy.can(actor, 'view', found);
  // the order row first (the lock every invoice change takes), then the invoice as it is now
  const order = await findOrder(tx, found.orderId, true);
  const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, id)).limit(1);
  return { invoice: invoice!, order };
}

// ---------- the invoice's own writes (registering, confirming and reversing are flows: they move the order) ----------

/** Inserts one invoice row (blue, or the red-letter one that reverses another) and returns its id. */
export async function insertInvoice(tx: Tx, values: typeof invoices.$inferInsert): Promise<number> {
  const [row] = await tx.insert(invoices).values(values).returning({ id: invoices.id });
  return row!.id;
}

/** Moves one invoice through its transition table (publishes the move's event). */
export function moveInvoice(tx: Tx, id: number, name: MoveOf<typeof InvoiceStates>, set: Partial<Invoice>) {
  return transition(tx, InvoiceStates, name, { table: invoices, where: eq(invoices.id, id), set, notFoundMessage: '发票不存在' });
}

// ---------- reading ----------

function ownerWhere(enterpriseId: number | null): SQL | undefined {
  return enterpriseId === null ? undefined : or(eq(invoices.sellerEnterpriseId, enterpriseId), eq(invoices.buyerEnterpriseId, enterpriseId));
}

const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function listWhere(enterpriseId: number | null, query: InvoiceFilter): SQL | undefined {
  return and(ownerWhere(enterpriseId), filterWhere(enterpriseId, query));
}

/** The list's filters without the enterprise's sides (the paged list reads each side on its own). */
function filterWhere(enterpriseId: number | null, query: InvoiceFilter): SQL | undefined {
  const counterparty = query.counterparty
    ? enterpriseId === null
      ? or(ilike(invoices.sellerName, like(query.counterparty)), ilike(invoices.buyerName, like(query.counterparty)))
      : or(
          and(eq(invoices.sellerEnterpriseId, enterpriseId), ilike(invoices.buyerName, like(query.counterparty))),
          and(eq(invoices.buyerEnterpriseId, enterpriseId), ilike(invoices.sellerName, like(query.counterparty))),
        )
    : undefined;
  return and(
    query.status ? eq(invoices.status, query.status) : undefined,
    query.kind ? eq(invoices.kind, query.kind) : undefined,
    enterpriseId !== null && query.side === 'buyer' ? eq(invoices.buyerEnterpriseId, enterpriseId) : undefined,
    enterpriseId !== null && query.side === 'seller' ? eq(invoices.sellerEnterpriseId, enterpriseId) : undefined,
    query.orderNo ? ilike(invoices.orderNo, like(query.orderNo)) : undefined,
    query.number ? ilike(invoices.number, like(query.number)) : undefined,
    counterparty,
    query.dateFrom ? gte(invoices.issuedOn, query.dateFrom) : undefined,
    query.dateTo ? lte(invoices.issuedOn, query.dateTo) : undefined,
  );
}

export async function listInvoices(db: Db, actor: Actor, query: InvoiceQuery) {
  const enterpriseId = invoicePolicy.can(actor, 'list');
  const party = enterpriseId === null ? null : { enterpriseId, seller: invoices.sellerEnterpriseId, buyer: invoices.buyerEnterpriseId };
  const order = [{ key: invoices.createdAt, desc: true }, { key: invoices.id, desc: true }];
  const { ids, total, totalCapped } = await listPageIds(db, { table: invoices, id: invoices.id, where: filterWhere(enterpriseId, query), order, ...query }, party);
  const rows = ids.length ? await db.select().from(invoices).where(inArray(invoices.id, ids)) : [];
  return { records: await present(db, actor, inIdOrder(ids, rows)), total, totalCapped, current: query.pageNo, size: query.pageSize };
}

/** Every invoice the filters find (the Excel export), newest first, at most 5,000. */
export async function invoicesForExport(db: Db, actor: Actor, query: InvoiceFilter) {
  const enterpriseId = invoicePolicy.can(actor, 'list');
  const rows = await db.select().from(invoices).where(listWhere(enterpriseId, query)).orderBy(desc(invoices.createdAt), desc(invoices.id)).limit(5000);
  return present(db, actor, rows);
}

export async function invoiceView(db: Db, actor: Actor, id: number): Promise<InvoiceView> {
  const [row] = await db.select().from(invoices).where(eq(invoices.id, id)).limit(1);
  if (!row) throw notFound('发票不存在');
  invoicePolicy.can(actor, 'view', row);
  return (await present(db, actor, [row]))[0]!;
}

/** A settled order's invoice position and its invoices (the head of 登记发票, the order's invoice tab). */
export async function orderInvoices(db: Db, actor: Actor, orderId: number): Promise<OrderInvoices> {
  const { order } = await orderForActor(db, actor, orderId);
  const rows = await db.select().from(invoices).where(eq(invoices.orderId, orderId)).orderBy(invoices.id);
  return { due: dueOf(actor, await grantsHeld(db, actor), order, await invoiceTotals(db, orderId)), invoices: await present(db, actor, rows) };
}

/** How far a settled order's invoices have come, as 待开票 shows it. */
export function dueOf(actor: Actor, held: GrantCheck, order: Order, totals: Totals): InvoiceDue {
  const settled = order.settledFen ?? 0;
  const side = invoiceSideOf(actor, order);
  return {
    orderId: order.id,
    orderNo: order.orderNo,
    contractNo: order.contractNo,
    settlementNo: order.settlementNo ?? '',
    sellerName: order.sellerName,
    buyerName: order.buyerName,
    mySide: side,
    productName: order.productName,
    settledAt: order.settledAt ? formatDateTime(order.settledAt) : '',
    settled,
    rate: CONTRACT_VAT_RATE,
    invoiced: totals.total,
    confirmed: totals.confirmedTotal,
    liveCount: totals.count,
    remaining: Math.max(0, settled - totals.total),
    orderStatus: order.status,
    canRegister: invoicePolicy.verdicts(actor, held, order, { register: { rule: 'register', when: order.status === 'settled' && !invoicesComplete(settled, totals) } }).register,
  };
}

async function present(db: Db, actor: Actor, rows: Invoice[]): Promise<InvoiceView[]> {
  if (rows.length === 0) return [];
  const files = new Map((await filesByIds(db, [...new Set(rows.map((r) => r.fileId))])).map((f) => [f.id, f]));
  // the numbers on either side of a reversal
  const linkedIds = [...new Set(rows.map((r) => r.reversesId).filter((v): v is number => v !== null))];
  const reversed = linkedIds.length ? await db.select({ id: invoices.id, number: invoices.number }).from(invoices).where(inArray(invoices.id, linkedIds)) : [];
  const reversing = await db
    .select({ reversesId: invoices.reversesId, number: invoices.number })
    .from(invoices)
    .where(inArray(invoices.reversesId, rows.map((r) => r.id)));
  const numberOf = new Map(reversed.map((r) => [r.id, r.number]));
  const redOf = new Map(reversing.map((r) => [r.reversesId!, r.number]));
  const orderStatus = new Map<number, string>();
  for (const orderId of new Set(rows.map((r) => r.orderId))) orderStatus.set(orderId, (await findOrder(db, orderId)).status);
  const held = await grantsHeld(db, actor);
  return rows.map((r) => {
    const file = files.get(r.fileId);
    const actions: InvoiceAction[] = allowedActions(
      invoicePolicy.verdicts(actor, held, r, {
        confirm: { rule: 'confirm', when: r.status === 'pending' },
        reverse: { rule: 'reverse', when: r.direction === 'blue' && r.status !== 'reversed' && orderStatus.get(r.orderId) === 'settled' },
      }),
    );
    return {
      id: r.id,
      orderId: r.orderId,
      orderNo: r.orderNo,
      settlementNo: r.settlementNo,
      sellerName: r.sellerName,
      buyerName: r.buyerName,
      mySide: invoiceSideOf(actor, r),
      direction: r.direction === 'red' ? 'red' : 'blue',
      kind: r.kind === 'special' ? 'special' : 'ordinary',
      medium: r.medium === 'paper' ? 'paper' : 'digital',
      code: r.code,
      number: r.number,
      issuedOn: r.issuedOn,
      rate: r.rate,
      amount: r.amountFen,
      tax: r.taxFen,
      total: r.totalFen,
      status: r.status,
      reversesNumber: r.reversesId ? (numberOf.get(r.reversesId) ?? null) : null,
      reversedByNumber: redOf.get(r.id) ?? null,
      reverseReason: r.reverseReason,
      file: { id: r.fileId, name: file?.originalName ?? '', contentType: file?.contentType ?? '' },
      createdAt: formatDateTime(r.createdAt),
      confirmedAt: r.confirmedAt ? formatDateTime(r.confirmedAt) : null,
      actions,
    };
  });
}

/** The invoice's file, for the parties of its order and the trading centre. */
export async function invoiceFile(db: Db, storage: FileStorage, actor: Actor, id: number) {
  const [row] = await db.select().from(invoices).where(eq(invoices.id, id)).limit(1);
  if (!row) throw notFound('发票不存在');
  invoicePolicy.can(actor, 'view', row);
  await orderForActor(db, actor, row.orderId);
  const [file] = await filesByIds(db, [row.fileId]);
  const stream = file ? await storage.read(file.storageKey) : null;
  if (!file || !stream) throw notFound('文件不存在');
  return { file, stream };
}

/** Live totals of many orders at once (the 待开票 list). */
export async function invoiceTotalsByOrder(db: Db, orderIds: number[]) {
  const out = new Map<number, Totals>();
  if (orderIds.length === 0) return out;
  const rows = await db
    .select({
      orderId: invoices.orderId,
      count: sql<number>`count(*)::int`,
      total: sql<string>`coalesce(sum(${invoices.totalFen}), 0)`,
      confirmedCount: sql<number>`count(*) filter (where ${invoices.status} = 'confirmed')::int`,
      confirmedTotal: sql<string>`coalesce(sum(${invoices.totalFen}) filter (where ${invoices.status} = 'confirmed'), 0)`,
    })
    .from(invoices)
    .where(and(inArray(invoices.orderId, orderIds), inArray(invoices.status, [...INVOICE_LIVE_STATES])))
    .groupBy(invoices.orderId);
  for (const r of rows) out.set(r.orderId, { count: Number(r.count), total: Number(r.total), confirmedCount: Number(r.confirmedCount), confirmedTotal: Number(r.confirmedTotal) });
  return out;
}
