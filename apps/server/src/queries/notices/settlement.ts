import { INVOICE_KINDS, formatFen, formatTons } from '@coalx/shared';
import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { invoices, settlementStatements, type Invoice, type SettlementStatement } from '../../db/schema/index';
import { invoicePolicy } from '../../modules/invoice/invoice.policy';
import { settlementPolicy } from '../../modules/settlement/settlement.policy';
import type { NoticeRule } from './types';

// who may act, as the routes ask (api/settlement.routes.ts, api/invoice.routes.ts)
const ISSUERS = settlementPolicy.grantOf('issue') ?? 'settlement-balance.add';
const ANSWERERS = settlementPolicy.grantOf('answer') ?? 'settlement-balance.edit';
const RULERS = settlementPolicy.grantOf('rule') ?? 'settlement-info.edit';
/** anyone of a party who may open a statement */
const STATEMENT_READERS = 'settlement-info';
const REGISTRARS = invoicePolicy.grantOf('register') ?? 'invoice.add';
const RECEIVERS = invoicePolicy.grantOf('confirm') ?? 'invoice.edit';

const yuan = (fen: number) => `${formatFen(fen)} 元`;

// ── statements ──────────────────────────────────────────────────────────────────────────────────────────────────

async function statementOf(tx: Tx, id: number): Promise<SettlementStatement | null> {
  const [row] = await tx.select().from(settlementStatements).where(eq(settlementStatements.id, id)).limit(1);
  return row ?? null;
}

const statementLink = (s: SettlementStatement) => `/settlement/info?id=${s.id}`;
const statementParties = (s: SettlementStatement) => [s.sellerEnterpriseId, s.buyerEnterpriseId];
/** 「结算单 JS…（订单 DD…，结算 99.00 吨，金额 800,000.00 元）」 */
const describedStatement = (s: SettlementStatement) =>
  `结算单 ${s.statementNo}（订单 ${s.figures.orderNo}，结算 ${formatTons(s.settledKg)}，金额 ${yuan(s.amountFen)}）`;

function statementData(s: SettlementStatement) {
  return {
    statementNo: s.statementNo,
    orderNo: s.figures.orderNo,
    contractNo: s.figures.contractNo,
    status: s.status,
    seller: s.figures.sellerName,
    buyer: s.figures.buyerName,
    settledKg: s.settledKg,
    amountFen: s.amountFen,
    escrowFen: s.escrowFen,
    balanceFen: s.amountFen - s.escrowFen,
    issuedAt: s.issuedAt.toISOString(),
    confirmedAt: s.confirmedAt?.toISOString() ?? null,
  };
}

/** What confirming means for the buyer's money: the escrow covers it, or the rest is paid, or some comes back. */
function balanceText(s: SettlementStatement): string {
  const balance = s.amountFen - s.escrowFen;
  if (balance > 0) return `托管预付款 ${yuan(s.escrowFen)}，确认后需补付 ${yuan(balance)}（从可用资金扣划）`;
  if (balance < 0) return `托管预付款 ${yuan(s.escrowFen)}，确认后退回 ${yuan(-balance)}`;
  return `与托管预付款 ${yuan(s.escrowFen)} 相等`;
}

/** Issued by the seller: the buyer confirms it (the money moves) or disputes it. */
const statementIssued: NoticeRule = async (tx, payload) => {
  const s = await statementOf(tx, Number(payload.id));
  if (!s) return null;
  const notices =
    s.status === 'pending'
      ? [
          {
            to: { enterpriseIds: [s.buyerEnterpriseId], grant: ANSWERERS },
            kind: 'statement.to_confirm',
            category: 'settlement' as const,
            title: '结算单待确认',
            content: `卖方 ${s.figures.sellerName} 开具了${describedStatement(s)}，${balanceText(s)}。请核对每车签收量、化验指标与扣款后确认，或提出异议由交易中心裁定。`,
            link: statementLink(s),
          },
        ]
      : [];
  return { notices, webhook: { type: 'statement.issued', enterpriseIds: statementParties(s), data: statementData(s) } };
};

/** The buyer disputes: the seller is told, the operator rules. */
const statementDisputed: NoticeRule = async (tx, payload) => {
  const s = await statementOf(tx, Number(payload.id));
  if (!s) return null;
  return {
    notices: [
      {
        to: { enterpriseIds: [s.sellerEnterpriseId], grant: ISSUERS },
        kind: 'statement.disputed',
        category: 'settlement',
        title: '结算单有异议',
        content: `买方 ${s.figures.buyerName} 对${describedStatement(s)}提出异议：${s.disputeReason}。交易中心将裁定维持或退回重开，请准备磅单与化验单等依据。`,
        link: statementLink(s),
        urgent: true,
        sms: `结算单${s.statementNo}买方提出异议，待交易中心裁定`,
      },
      {
        to: { staffGrant: RULERS },
        kind: 'todo.statement_disputed',
        category: 'todo',
        title: '待裁定结算异议',
        content: `买方 ${s.figures.buyerName} 对卖方 ${s.figures.sellerName} 的${describedStatement(s)}提出异议：${s.disputeReason}。请核对后维持结算单或退回卖方重开。`,
        link: statementLink(s),
      },
    ],
  };
};

/** Confirmed by the buyer, or upheld by the operator: the order is settled and the money has moved. */
function statementSettled(how: 'confirmed' | 'upheld'): NoticeRule {
  return async (tx, payload) => {
    const s = await statementOf(tx, Number(payload.id));
    if (!s) return null;
    const what = how === 'confirmed' ? `买方 ${s.figures.buyerName} 已确认${describedStatement(s)}` : `交易中心已裁定维持${describedStatement(s)}${s.rulingNote ? `（${s.rulingNote}）` : ''}`;
    return {
      notices: [
        {
          to: { enterpriseIds: statementParties(s), grant: STATEMENT_READERS },
          kind: how === 'confirmed' ? 'statement.confirmed' : 'statement.upheld',
          category: 'settlement',
          title: how === 'confirmed' ? '结算单已确认' : '结算异议已裁定：维持',
          content: `${what}，货款已结算，订单进入已结算。卖方请按结算金额开具增值税发票并在「发票管理」登记。`,
          link: statementLink(s),
        },
      ],
      webhook: { type: 'statement.confirmed', enterpriseIds: statementParties(s), data: { ...statementData(s), settledBy: how === 'confirmed' ? 'buyer' : 'ruling' } },
    };
  };
}

/** Sent back by the operator: the seller issues a new one. */
const statementReturned: NoticeRule = async (tx, payload) => {
  const s = await statementOf(tx, Number(payload.id));
  if (!s) return null;
  return {
    notices: [
      {
        to: { enterpriseIds: statementParties(s), grant: STATEMENT_READERS },
        kind: 'statement.returned',
        category: 'settlement',
        title: '结算异议已裁定：退回重开',
        content: `交易中心已将${describedStatement(s)}退回${s.rulingNote ? `（${s.rulingNote}）` : ''}。卖方请核对后重新开具结算单，买方待新结算单开具后确认。`,
        link: `/order/info?id=${s.orderId}`,
      },
    ],
  };
};

// ── invoices ────────────────────────────────────────────────────────────────────────────────────────────────────

async function invoiceOf(tx: Tx, id: number): Promise<Invoice | null> {
  const [row] = await tx.select().from(invoices).where(eq(invoices.id, id)).limit(1);
  return row ?? null;
}

const invoiceParties = (i: Invoice) => [i.sellerEnterpriseId, i.buyerEnterpriseId];
/** 「增值税专用发票 2611…（订单 DD…，价税合计 226,000.00 元）」 */
const describedInvoice = (i: Invoice) =>
  `${INVOICE_KINDS[i.kind as keyof typeof INVOICE_KINDS] ?? '发票'} ${i.code ? `${i.code} ` : ''}${i.number}（订单 ${i.orderNo}，价税合计 ${yuan(i.totalFen)}）`;

function invoiceData(i: Invoice) {
  return {
    orderNo: i.orderNo,
    settlementNo: i.settlementNo,
    direction: i.direction,
    kind: i.kind,
    medium: i.medium,
    code: i.code,
    number: i.number,
    issuedOn: i.issuedOn,
    rate: i.rate,
    amountFen: i.amountFen,
    taxFen: i.taxFen,
    totalFen: i.totalFen,
    status: i.status,
    seller: i.sellerName,
    buyer: i.buyerName,
  };
}

/** Registered by the seller: the buyer confirms it has the invoice. */
const invoiceRegistered: NoticeRule = async (tx, payload) => {
  const i = await invoiceOf(tx, Number(payload.id));
  if (!i) return null;
  const notices =
    i.status === 'pending'
      ? [
          {
            to: { enterpriseIds: [i.buyerEnterpriseId], grant: RECEIVERS },
            kind: 'invoice.to_confirm',
            category: 'settlement' as const,
            title: '发票待确认',
            content: `卖方 ${i.sellerName} 登记了${describedInvoice(i)}，开票日期 ${i.issuedOn}。请核对已收到的发票与登记信息一致后确认收票；发票全部确认且合计等于结算金额后，订单完成。`,
            link: '/invoice/list?tab=pending',
          },
        ]
      : [];
  return { notices, webhook: { type: 'invoice.registered', enterpriseIds: invoiceParties(i), data: invoiceData(i) } };
};

const invoiceConfirmed: NoticeRule = async (tx, payload) => {
  const i = await invoiceOf(tx, Number(payload.id));
  if (!i) return null;
  return {
    notices: [
      {
        to: { enterpriseIds: [i.sellerEnterpriseId], grant: REGISTRARS },
        kind: 'invoice.confirmed',
        category: 'settlement',
        title: '发票已确认收票',
        content: `买方 ${i.buyerName} 已确认收到${describedInvoice(i)}${i.confirmNote ? `（${i.confirmNote}）` : ''}。`,
        link: '/invoice/list?tab=all',
      },
    ],
  };
};

/** 红冲: the seller reversed an invoice with a red-letter one; the buyer is told, and waits for a new one. */
const invoiceReversed: NoticeRule = async (tx, payload) => {
  const i = await invoiceOf(tx, Number(payload.id));
  if (!i) return null;
  const [red] = await tx.select().from(invoices).where(eq(invoices.reversesId, i.id)).limit(1);
  return {
    notices: [
      {
        to: { enterpriseIds: [i.buyerEnterpriseId], grant: RECEIVERS },
        kind: 'invoice.reversed',
        category: 'settlement',
        title: '发票已红冲',
        content: `卖方 ${i.sellerName} 已红冲${describedInvoice(i)}${red ? `，红字发票号码 ${red.number}` : ''}${i.reverseReason ? `，原因：${i.reverseReason}` : ''}。该发票不再计入，卖方将重新开具。`,
        link: '/invoice/list?tab=all',
      },
    ],
    webhook: {
      type: 'invoice.reversed',
      enterpriseIds: invoiceParties(i),
      data: { ...invoiceData(i), reverseReason: i.reverseReason, redNumber: red?.number ?? null, redCode: red?.code ?? null },
    },
  };
};

export const SETTLEMENT_RULES: Record<string, NoticeRule> = {
  'statement.issued': statementIssued,
  'statement.disputed': statementDisputed,
  'statement.confirmed': statementSettled('confirmed'),
  'statement.upheld': statementSettled('upheld'),
  'statement.returned': statementReturned,
  'invoice.registered': invoiceRegistered,
  'invoice.confirmed': invoiceConfirmed,
  'invoice.reversed': invoiceReversed,
};
