import { OrderStates, StatementStates, WEIGHING_BASES, formatDateTime, formatFen, formatTons, priceSettlement, stateLabel, type StatementFigures, type StatementQuery, type StatementView, type MoveOf } from '@coalx/shared';
import { and, count, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { settlementStatements, type Order, type SettlementStatement } from '../../db/schema/index';
import { businessRule, notFound } from '../../errors';
import type { Actor } from '../../lib/actor';
import type { GrantCheck } from '../../lib/policy';
import { uniqueViolation } from '../../lib/db-errors';
import { renderDocumentPdf } from '../../lib/pdf/document-pdf';
import { transition } from '../../lib/transition';
import { settlementSources } from '../delivery/delivery-query.service';
import { orderForActor } from '../order/order.service';
import { ordersForSettlement } from '../order/order-delivery.service';
import { parameterNumber } from '../system/calendar';
import { grantsHeld } from '../auth/grants.service';
import { settlementPolicy, statementSideOf } from './settlement.policy';

export const STATEMENT_CONFIRM_ACTION = 'statement_confirm';

// ---------- figures ----------

/** Every figure of a statement for the order as it stands now (the preview, and what issuing freezes). */
export async function statementFigures(db: Db | Tx, order: Order): Promise<StatementFigures> {
  if (order.status !== 'awaiting_settlement') {
    throw businessRule(`订单当前状态为「${stateLabel(OrderStates, order.status)}」，只有待结算的订单可以开具结算单`);
  }
  const { trucks, report } = await settlementSources(db, order);
  if (!trucks.length) throw businessRule('本订单没有已签收的车辆，不能结算');
  if (!report) throw businessRule('本订单还没有双方认可的化验单：请先提交化验单并由对方确认，再开具结算单');
  const signedKg = trucks.reduce((sum, t) => sum + t.signedKg, 0);
  const lab = { qnet: Number(report.qnet), mt: Number(report.mt), st: Number(report.st), ad: Number(report.ad), vdaf: Number(report.vdaf) };
  const priced = priceSettlement({ rule: order.terms.qualityAdjustments, contractPriceFen: order.priceFen, lab, signedKg });
  if (priced.rejected) throw businessRule(`${priced.rejectReason}：买方有权拒收，请与对方协商或联系交易中心处理`);
  const amountFen = priced.amountFen!;
  const feePerTonFen = await parameterNumber(db, 'fee_per_ton_fen');
  // the fee is per settled ton, half up to the fen, and never more than the amount
  const feeFen = Math.min(amountFen, Math.floor((feePerTonFen * priced.settledKg + 500) / 1000));
  return {
    orderId: order.id,
    orderNo: order.orderNo,
    contractNo: order.contractNo,
    sellerName: order.sellerName,
    buyerName: order.buyerName,
    productName: order.productName,
    weighingBasis: WEIGHING_BASES[order.terms.weighingBasis],
    trucks,
    lab: { reportNo: report.reportNo, labName: report.labName, testedAt: report.testedAt, ...lab },
    qualityLines: priced.lines,
    contractPriceFen: order.priceFen,
    unitPriceFen: priced.unitPriceFen!,
    signedKg,
    moistureDeductedKg: priced.moistureDeductedKg,
    moistureNote: priced.moistureNote,
    settledKg: priced.settledKg,
    amountFen,
    escrowFen: order.escrowFen,
    balanceFen: amountFen - order.escrowFen,
    feePerTonFen,
    feeFen,
    sellerReceivesFen: amountFen - feeFen,
  };
}

export async function previewStatement(db: Db, actor: Actor, orderId: number): Promise<StatementFigures> {
  const { order } = await orderForActor(db, actor, orderId);
  settlementPolicy.can(actor, 'issue', order);
  return statementFigures(db, order);
}

/** The seller's orders waiting for a statement (开具结算单). */
export async function settleableOrders(db: Db, actor: Actor) {
  const enterpriseId = settlementPolicy.can(actor, 'list');
  if (enterpriseId === null) return [];
  const rows = await ordersForSettlement(db, enterpriseId);
  const live = rows.length ? await db.select({ orderId: settlementStatements.orderId, status: settlementStatements.status }).from(settlementStatements).where(eq(settlementStatements.sellerEnterpriseId, enterpriseId)) : [];
  const taken = new Set(live.filter((s) => s.status !== 'returned').map((s) => s.orderId));
  return rows
    .filter((o) => !taken.has(o.id))
    .map((o) => ({ orderId: o.id, orderNo: o.orderNo, buyerName: o.buyerName, productName: o.productName, signedKg: o.signedKg, escrowFen: o.escrowFen }));
}

// ---------- the statement's own writes (issuing, confirming and ruling are flows: they move orders and money) ----------

export type StatementMove = MoveOf<typeof StatementStates>;

/** Inserts the statement the seller issues for an order; a second one for the same order is refused. */
export async function insertStatement(tx: Tx, values: typeof settlementStatements.$inferInsert): Promise<SettlementStatement> {
  try {
    const [made] = await tx.insert(settlementStatements).values(values).returning();
    return made!;
  } catch (error) {
    if (uniqueViolation(error)) throw businessRule('本订单已有结算单，请勿重复开具');
    throw error;
  }
}

/** Moves one statement through its transition table (publishes the move's event). */
export function moveStatement(tx: Tx, id: number, name: StatementMove, set: Partial<SettlementStatement>) {
  return transition(tx, StatementStates, name, { table: settlementStatements, where: eq(settlementStatements.id, id), set, notFoundMessage: '结算单不存在' });
}

export async function statementForActor(db: Db | Tx, actor: Actor, id: number): Promise<SettlementStatement> {
  const [row] = await db.select().from(settlementStatements).where(eq(settlementStatements.id, id)).limit(1);
  if (!row) throw notFound('结算单不存在');
  settlementPolicy.can(actor, 'view', row);
  return row;
}

// ---------- queries ----------

/** A statement as the viewer sees it, with what the viewer may do now (the policy's verdicts, grants included). */
export async function present(db: Db, row: SettlementStatement, actor: Actor): Promise<StatementView> {
  return presentWith(await grantsHeld(db, actor), row, actor);
}

function presentWith(held: GrantCheck, row: SettlementStatement, actor: Actor): StatementView {
  const side = statementSideOf(actor, row);
  const can = settlementPolicy.verdicts(actor, held, row, {
    confirm: { rule: 'answer', when: row.status === 'pending' },
    rule: { rule: 'rule', when: row.status === 'disputed' },
  });
  return {
    ...row.figures,
    id: row.id,
    statementNo: row.statementNo,
    status: row.status,
    statusText: stateLabel(StatementStates, row.status),
    issuedAt: formatDateTime(row.issuedAt),
    issuedByName: row.issuedByName,
    disputeReason: row.disputeReason,
    rulingNote: row.rulingNote,
    confirmedAt: row.confirmedAt ? formatDateTime(row.confirmedAt) : null,
    side,
    canConfirm: can.confirm,
    canRule: can.rule,
  };
}

export async function statementDetail(db: Db, actor: Actor, id: number) {
  return present(db, await statementForActor(db, actor, id), actor);
}

export async function listStatements(db: Db, actor: Actor, query: StatementQuery) {
  const enterpriseId = settlementPolicy.can(actor, 'list');
  const where: SQL | undefined = and(
    enterpriseId === null ? undefined : or(eq(settlementStatements.sellerEnterpriseId, enterpriseId), eq(settlementStatements.buyerEnterpriseId, enterpriseId)),
    query.status ? eq(settlementStatements.status, query.status) : undefined,
    // the side filter means something only for an enterprise: the trading centre is neither side
    enterpriseId !== null && query.side === 'buyer' ? eq(settlementStatements.buyerEnterpriseId, enterpriseId) : undefined,
    enterpriseId !== null && query.side === 'seller' ? eq(settlementStatements.sellerEnterpriseId, enterpriseId) : undefined,
    query.statementNo ? ilike(settlementStatements.statementNo, `%${query.statementNo.replace(/[%_\\]/g, (c) => `\\${c}`)}%`) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db.select().from(settlementStatements).where(where).orderBy(desc(settlementStatements.id)).limit(query.pageSize).offset((query.pageNo - 1) * query.pageSize),
    db.select({ n: count() }).from(settlementStatements).where(where),
  ]);
  const held = await grantsHeld(db, actor);
  return { records: rows.map((r) => presentWith(held, r, actor)), total: total?.n ?? 0, current: query.pageNo, size: query.pageSize };
}

/** The printable statement (结算单 PDF, the contracts' library). */
export async function statementPdf(db: Db, actor: Actor, id: number) {
  const row = await statementForActor(db, actor, id);
  const f = row.figures;
  const yuan = (fen: number) => `¥${formatFen(fen)}`;
  const paragraphs = [
    `结算单号：${row.statementNo}　　状态：${stateLabel(StatementStates, row.status)}`,
    `订单编号：${f.orderNo}　　合同编号：${f.contractNo}　　产品：${f.productName}`,
    `卖方：${f.sellerName}`,
    `买方：${f.buyerName}`,
    `一、结算数量（${f.weighingBasis}）`,
    ...f.trucks.map((t, i) => `${i + 1}. 派车单 ${t.dispatchNo}（${t.plateNo}）装车磅单 ${t.loadingTicketNo || '—'} 净重 ${formatTons(t.loadedNetKg)}，到货磅单 ${t.arrivalTicketNo || '—'} 净重 ${formatTons(t.arrivedNetKg)}，签收 ${formatTons(t.signedKg)}`),
    `签收合计 ${formatTons(f.signedKg)}${f.moistureNote ? `；${f.moistureNote}` : ''}；结算数量 ${formatTons(f.settledKg)}。`,
    `二、质量（化验单 ${f.lab.reportNo}，${f.lab.labName}，${f.lab.testedAt}）：Qnet,ar ${f.lab.qnet} kcal/kg，Mt ${f.lab.mt}%，St,d ${f.lab.st}%，Ad ${f.lab.ad}%，Vdaf ${f.lab.vdaf}%`,
    `合同单价 ${formatFen(f.contractPriceFen)} 元/吨`,
    ...f.qualityLines.map((l) => `${l.label} ${l.value}（基准 ${l.basis}）：${l.tier}，${l.fenPerTon < 0 ? '减' : '加'} ${formatFen(Math.abs(l.fenPerTon))} 元/吨`),
    `结算单价 ${formatFen(f.unitPriceFen)} 元/吨`,
    `三、金额：结算金额 ${yuan(f.amountFen)}（${formatTons(f.settledKg)} × ${formatFen(f.unitPriceFen)} 元/吨，四舍五入到分）；已托管预付款 ${yuan(f.escrowFen)}；${f.balanceFen > 0 ? `买方应补付 ${yuan(f.balanceFen)}` : `退还买方 ${yuan(-f.balanceFen)}`}；平台服务费 ${yuan(f.feeFen)}（${formatFen(f.feePerTonFen)} 元/吨，由卖方承担）；卖方实收 ${yuan(f.sellerReceivesFen)}。`,
  ];
  if (row.disputeReason) paragraphs.push(`买方异议：${row.disputeReason}`);
  if (row.rulingNote) paragraphs.push(`交易中心裁定：${row.rulingNote}`);
  const pdf = await renderDocumentPdf({
    title: '结算单',
    header: `结算单号：${row.statementNo}`,
    paragraphs,
    createdAt: row.issuedAt,
    signatureBlock: { left: [`卖方（盖章）：${f.sellerName}`, '日期：　　　年　　月　　日'], right: [`买方（盖章）：${f.buyerName}`, '日期：　　　年　　月　　日'] },
  });
  return { pdf, fileName: `结算单${row.statementNo}.pdf` };
}
