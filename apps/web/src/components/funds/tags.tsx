import { Tag } from 'antd';
import { DEPOSIT_IN_STATUS, JOURNAL_KIND, JOURNAL_REF_TYPE, TRADE_DEPOSIT_STATUS, WITHDRAWAL_STATUS } from '@coalx/shared';

/** Status words come from shared/funds/schemas.ts; colours are the page's. */
const COLORS: Record<string, string> = {
  pending: 'processing',
  confirmed: 'success',
  paid: 'success',
  rejected: 'error',
  frozen: 'orange',
  performance: 'purple',
  released: 'default',
  applied: 'cyan',
  credit: 'green',
  freeze: 'orange',
  release: 'blue',
  debit_frozen: 'red',
  pay_out_frozen: 'magenta',
};

function label(map: Record<string, string>, value: string) {
  return <Tag color={COLORS[value] ?? 'default'}>{map[value] ?? value}</Tag>;
}

export const DepositInStatusTag = ({ status }: { status: string }) => label(DEPOSIT_IN_STATUS, status);
export const WithdrawalStatusTag = ({ status }: { status: string }) => label(WITHDRAWAL_STATUS, status);
export const TradeDepositStatusTag = ({ status }: { status: string }) => label(TRADE_DEPOSIT_STATUS, status);
export const JournalKindTag = ({ kind }: { kind: string }) => label(JOURNAL_KIND, kind);

export const refTypeText = (refType: string) => (JOURNAL_REF_TYPE as Record<string, string>)[refType] ?? refType;

export const TRADE_KIND_TEXT: Record<string, string> = { listing: '挂牌交易', auction: '竞价交易' };

/** A bank account shown in groups of four digits. */
export function groupAccountNo(accountNo: string | null | undefined): string {
  if (!accountNo) return '-';
  return accountNo.replace(/(\d{4})(?=\d)/g, '$1 ');
}
