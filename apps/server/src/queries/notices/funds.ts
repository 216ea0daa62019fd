import { formatDateTime, formatFen } from '@coalx/shared';
import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { depositInApplications, enterprises, fundsReconciliations, withdrawals } from '../../db/schema/index';
import type { NoticePlan, NoticeRule } from './types';

/**
 * Notices of money in and out (入金, 出金): the trading centre's 出入金审核 queue, and the applicant enterprise's
 * answer with the amount; the members' systems hear every outcome as `funds.changed`.
 */

/** the trading centre's 出入金审核 (api/funds.routes.ts) */
const FUNDS_REVIEWERS = 'operation-fundsAudit.edit';
/** the enterprise's people who apply and follow 出入金申请 */
const APPLICANTS = 'financial-application';
const APPLICATIONS_PAGE = '/financial/application';

type DepositIn = typeof depositInApplications.$inferSelect;
type Withdrawal = typeof withdrawals.$inferSelect;

async function depositInOf(tx: Tx, id: number): Promise<DepositIn | null> {
  const [row] = await tx.select().from(depositInApplications).where(eq(depositInApplications.id, id)).limit(1);
  return row ?? null;
}
async function withdrawalOf(tx: Tx, id: number): Promise<Withdrawal | null> {
  const [row] = await tx.select().from(withdrawals).where(eq(withdrawals.id, id)).limit(1);
  return row ?? null;
}
async function enterpriseName(tx: Tx, id: number): Promise<string> {
  const [row] = await tx.select({ name: enterprises.organName }).from(enterprises).where(eq(enterprises.id, id)).limit(1);
  return row?.name ?? '';
}

const yuan = (fen: number) => `${formatFen(fen)} 元`;
/** the last 4 digits of an account, as a bank's own notices show it */
const tail = (accountNo: string) => (accountNo.length > 4 ? `尾号 ${accountNo.slice(-4)}` : accountNo);

function fundsChanged(kind: 'deposit_in' | 'withdrawal', row: DepositIn | Withdrawal): NoticePlan['webhook'] {
  return {
    type: 'funds.changed',
    enterpriseIds: [row.enterpriseId],
    data: { kind, applicationId: row.id, status: row.status, amountFen: row.amount, reason: row.rejectReason ?? null, reviewedAt: row.reviewedAt?.toISOString() ?? null },
  };
}

const depositInApplied: NoticeRule = async (tx, payload) => {
  const d = await depositInOf(tx, Number(payload.id));
  if (!d || d.status !== 'pending') return null;
  return {
    notices: [
      {
        to: { staffGrant: FUNDS_REVIEWERS },
        kind: 'todo.deposit_in',
        category: 'todo',
        title: '待确认入金',
        content: `${await enterpriseName(tx, d.enterpriseId)} 申请入金 ${yuan(d.amount)}（${d.bankName} ${tail(d.payerAccountNo)}，转账日期 ${d.transferDate}），请核对银行回单后确认入账或驳回。`,
        link: '/operation/fundsAudit',
      },
    ],
  };
};

const withdrawalApplied: NoticeRule = async (tx, payload) => {
  const w = await withdrawalOf(tx, Number(payload.id));
  if (!w || w.status !== 'pending') return null;
  return {
    notices: [
      {
        to: { staffGrant: FUNDS_REVIEWERS },
        kind: 'todo.withdrawal',
        category: 'todo',
        title: '待处理出金',
        content: `${w.accountName} 申请出金 ${yuan(w.amount)} 至 ${w.bankName}${w.bankBranch} ${tail(w.bankAccountNo)}，金额已冻结；请付款后确认，或驳回解冻。`,
        link: '/operation/fundsAudit?tab=withdraw',
      },
    ],
  };
};

const depositInConfirmed: NoticeRule = async (tx, payload) => {
  const d = await depositInOf(tx, Number(payload.id));
  if (!d) return null;
  return {
    notices: [
      {
        to: { enterpriseIds: [d.enterpriseId], grant: APPLICANTS },
        kind: 'funds.deposit_in_confirmed',
        category: 'funds',
        title: '入金已到账',
        content: `您 ${d.transferDate} 从 ${d.bankName} ${tail(d.payerAccountNo)} 转入的 ${yuan(d.amount)} 已由交易中心确认入账${d.reviewedAt ? `（${formatDateTime(d.reviewedAt)}）` : ''}，可用资金已增加。`,
        link: APPLICATIONS_PAGE,
      },
    ],
    webhook: fundsChanged('deposit_in', d),
  };
};

const depositInRejected: NoticeRule = async (tx, payload) => {
  const d = await depositInOf(tx, Number(payload.id));
  if (!d) return null;
  return {
    notices: [
      {
        to: { enterpriseIds: [d.enterpriseId], grant: APPLICANTS },
        kind: 'funds.deposit_in_rejected',
        category: 'funds',
        title: '入金申请被驳回',
        content: `您的入金申请 ${yuan(d.amount)}（${d.bankName} ${tail(d.payerAccountNo)}，转账日期 ${d.transferDate}）未通过交易中心核对，原因：${d.rejectReason || '未说明'}。请核对转账信息与凭证后重新申请。`,
        link: APPLICATIONS_PAGE,
      },
    ],
    webhook: fundsChanged('deposit_in', d),
  };
};

const withdrawalPaid: NoticeRule = async (tx, payload) => {
  const w = await withdrawalOf(tx, Number(payload.id));
  if (!w) return null;
  return {
    notices: [
      {
        to: { enterpriseIds: [w.enterpriseId], grant: APPLICANTS },
        kind: 'funds.withdrawal_paid',
        category: 'funds',
        title: '出金已付款',
        content: `您申请的出金 ${yuan(w.amount)} 已由交易中心付款至 ${w.bankName}${w.bankBranch} ${tail(w.bankAccountNo)}，请留意银行到账。`,
        link: `${APPLICATIONS_PAGE}?tab=withdraw`,
      },
    ],
    webhook: fundsChanged('withdrawal', w),
  };
};

const withdrawalRejected: NoticeRule = async (tx, payload) => {
  const w = await withdrawalOf(tx, Number(payload.id));
  if (!w) return null;
  return {
    notices: [
      {
        to: { enterpriseIds: [w.enterpriseId], grant: APPLICANTS },
        kind: 'funds.withdrawal_rejected',
        category: 'funds',
        title: '出金申请被驳回',
        content: `您申请的出金 ${yuan(w.amount)} 被交易中心驳回，原因：${w.rejectReason || '未说明'}。冻结的金额已解冻，回到可用资金。`,
        link: `${APPLICATIONS_PAGE}?tab=withdraw`,
      },
    ],
    webhook: fundsChanged('withdrawal', w),
  };
};

/** A funds reconciliation found a difference: an urgent to-do for the trading centre's 资金总览. */
const reconciliationDiffers: NoticeRule = async (tx, payload) => {
  const [row] = await tx.select().from(fundsReconciliations).where(eq(fundsReconciliations.id, Number(payload.id))).limit(1);
  if (!row || row.balanced) return null;
  const differences = ((row.figures as { differences?: unknown[] }).differences ?? []).length;
  return {
    notices: [
      {
        to: { staffGrant: 'operation-fundsOverview.edit' },
        kind: 'todo.funds_reconciliation',
        category: 'todo',
        title: '资金对账发现差异',
        content: `${row.day} 的资金对账发现 ${differences} 处差异，合计 ${yuan(row.differenceFen)}。请在「资金总览」查看差异的账户、应有与实有金额，核查流水与出入金记录。`,
        link: '/operation/fundsOverview',
        urgent: true,
      },
    ],
  };
};

export const FUNDS_RULES: Record<string, NoticeRule> = {
  'funds.reconciliation_differs': reconciliationDiffers,
  'funds.deposit_in_applied': depositInApplied,
  'funds.withdrawal_applied': withdrawalApplied,
  'funds.deposit_in_confirmed': depositInConfirmed,
  'funds.deposit_in_rejected': depositInRejected,
  'funds.withdrawal_paid': withdrawalPaid,
  'funds.withdrawal_rejected': withdrawalRejected,
};
