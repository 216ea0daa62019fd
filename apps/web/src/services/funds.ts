import type { z } from 'zod';
import type { FundInfoSchema, SwitchCode, SystemSwitch } from '@coalx/shared';
import { requestResult, type PageResult } from '@/app/request';

/**
 * Funds calls of issue 4 (apps/server/src/modules/funds/funds.routes.ts is the contract). Every amount is integer
 * fen; pages convert what the trader types in yuan with yuanToFen.
 */

export type FundInfo = z.infer<typeof FundInfoSchema>;

export interface PaymentAuth {
  payPassword?: string;
  ukeySignature?: string;
}

/** DepositInApplySchema. */
export interface DepositInApply {
  amount: number;
  bankName: string;
  payerAccountNo: string;
  transferDate: string;
  voucherUrl: string;
  remark?: string;
  requestId: string;
}

/** WithdrawApplySchema. */
export interface WithdrawApply extends PaymentAuth {
  amount: number;
  remark?: string;
  requestId: string;
}

export type JournalKind = 'credit' | 'freeze' | 'release' | 'debit_frozen' | 'pay_out_frozen';

/** JournalQuerySchema. */
export interface JournalQuery {
  pageNo?: number;
  pageSize?: number;
  kind?: JournalKind;
  dateFrom?: string;
  dateTo?: string;
}

/** The response shapes are declared in funds.routes.ts; these mirror them. */
export interface Transfer {
  id: number;
  enterpriseName: string;
  amount: number;
  bankName: string;
  accountNo: string;
  transferDate: string | null;
  voucherUrl: string | null;
  remark: string;
  status: 'pending' | 'confirmed' | 'paid' | 'rejected';
  rejectReason: string | null;
  createdAt: string;
  reviewedAt: string | null;
}

export interface TradeDeposit {
  id: number;
  tradeKind: string;
  tradeId: string;
  refId: string;
  amount: number;
  status: 'frozen' | 'performance' | 'released' | 'applied';
  createdAt: string;
  updatedAt: string;
}

export interface JournalEntry {
  id: number;
  kind: JournalKind;
  amount: number;
  availableAfter: number;
  frozenAfter: number;
  refType: string;
  refId: string;
  remark: string;
  createdAt: string;
}

export interface PayPasswordStatus {
  isSet: boolean;
  lockedUntil: string | null;
}

export interface PageQuery {
  pageNo?: number;
  pageSize?: number;
}

export type TransferKind = 'depositIn' | 'withdraw';

/** TanStack Query keys of the funds data, so a page that moves money can refresh the others. */
export const FUNDS_KEYS = {
  all: ['funds'] as const,
  info: ['funds', 'info'] as const,
};

export const getFundInfo = () => requestResult<FundInfo>('/api/fundinfo/getFundInfo');

export const getDepositBalance = (params: PageQuery) =>
  requestResult<PageResult<TradeDeposit>>('/api/deposit/getDepositBalance', { params: { ...params } });

export const applyDepositIn = (data: DepositInApply) =>
  requestResult<{ id: number; status: string }>('/api/funds/depositIn/apply', { method: 'POST', data });

export const applyWithdrawal = (data: WithdrawApply) =>
  requestResult<{ id: number; status: string }>('/api/funds/withdraw/apply', { method: 'POST', data });

export const listOwnTransfers = (kind: TransferKind, params: PageQuery & { status?: string }) =>
  requestResult<PageResult<Transfer>>(`/api/funds/${kind}/list`, { params: { ...params } });

export const listJournal = (params: JournalQuery) =>
  requestResult<PageResult<JournalEntry>>('/api/funds/journal/list', { params: { ...params } });

export const JOURNAL_EXPORT_PATH = '/api/funds/journal/export';

export const getPayPasswordStatus = () => requestResult<PayPasswordStatus>('/api/funds/payPassword/status');

/** Both passwords already hashed by hashPayPassword. */
export const setPayPassword = (data: { password: string; oldPassword?: string }) =>
  requestResult<null>('/api/funds/payPassword/set', { method: 'POST', data });

export const hangDepositPay = (data: { tradeId: string; requestId: string } & PaymentAuth) =>
  requestResult<{ id: number; tradeId: string; amount: number; status: string }>('/api/hangDepositPay', { method: 'POST', data });

// ----- the trading centre's queues -----
export const listTransferQueue = (kind: TransferKind, params: PageQuery & { status?: string }) =>
  requestResult<PageResult<Transfer>>(`/api/funds/admin/${kind}/list`, { params: { ...params } });

export const confirmDepositIn = (id: number) =>
  requestResult<{ id: number; status: string }>('/api/funds/admin/depositIn/confirm', { method: 'POST', data: { id } });

export const payWithdrawal = (id: number) =>
  requestResult<{ id: number; status: string }>('/api/funds/admin/withdraw/pay', { method: 'POST', data: { id } });

export const rejectTransfer = (kind: TransferKind, id: number, reason: string) =>
  requestResult<{ id: number; status: string }>(`/api/funds/admin/${kind}/reject`, { method: 'POST', data: { id, reason } });

export const updateSwitch = (code: SwitchCode, content: '0' | '1') =>
  requestResult<SystemSwitch[]>('/sys/switch/update', { method: 'PUT', data: { code, content } });

/** The enterprise's audited settlement account, where withdrawals are paid (enterprise detail of issue 3). */
export interface SettlementAccount {
  accountName: string;
  bankName: string;
  bankBranch: string;
  bankAccountNo: string;
}

export async function getSettlementAccount(): Promise<SettlementAccount> {
  const detail = await requestResult<{ organName: string; bankName: string; bankBranch: string; bankAccountNo: string }>('/sys/enterprise/detail');
  return { accountName: detail.organName, bankName: detail.bankName, bankBranch: detail.bankBranch, bankAccountNo: detail.bankAccountNo };
}
