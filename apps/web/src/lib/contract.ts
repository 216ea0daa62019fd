import { CONTRACT_SIGNABLE_STATES, CONTRACT_SIDES, formatFen, type BreachRuling, type ContractSide, type ContractSummary } from '@coalx/shared';

/** Pure helpers of the contract pages (tested alone). */

/** Under this much time left the deadline shows red. */
export const DEADLINE_URGENT_MS = 4 * 3_600_000;

/** The signing deadline as a trader reads it: 剩余 N 小时 M 分, or 已逾期 once past. */
export function deadlineText(ms: number): string {
  if (ms <= 0) return '已逾期';
  const minutes = Math.ceil(ms / 60_000);
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return hours > 0 ? `剩余 ${hours} 小时 ${rest} 分` : `剩余 ${rest} 分`;
}

export const isUrgent = (ms: number) => ms < DEADLINE_URGENT_MS;

const SIGNABLE = new Set<string>(CONTRACT_SIGNABLE_STATES);

/** A deadline counts only while someone still has to sign (or it was missed). */
export const deadlineMatters = (status: string) => SIGNABLE.has(status) || status === 'overdue';

/** Whether my side has signed already. */
export function mySideSigned(c: Pick<ContractSummary, 'mySide' | 'sellerSignedAt' | 'buyerSignedAt'>): boolean {
  if (c.mySide === 'seller') return c.sellerSignedAt !== null;
  if (c.mySide === 'buyer') return c.buyerSignedAt !== null;
  return false;
}

/** My side may sign (or upload a paper copy) now: a party, still signable, not yet signed by us. */
export function canSign(c: Pick<ContractSummary, 'mySide' | 'status' | 'sellerSignedAt' | 'buyerSignedAt'>): boolean {
  return c.mySide !== null && SIGNABLE.has(c.status) && !mySideSigned(c);
}

/** The other party's name; for the trading centre (no side) null. */
export function counterpartyOf(c: Pick<ContractSummary, 'mySide' | 'sellerName' | 'buyerName'>): string | null {
  if (c.mySide === 'seller') return c.buyerName;
  if (c.mySide === 'buyer') return c.sellerName;
  return null;
}

export const sideText = (side: string | null | undefined) => (side ? (CONTRACT_SIDES[side as ContractSide] ?? side) : '-');

/** Tag colours by contract state. */
export const CONTRACT_STATUS_COLOR: Record<string, string> = {
  pending: 'processing',
  seller_signed: 'cyan',
  buyer_signed: 'cyan',
  effective: 'success',
  performing: 'blue',
  completed: 'default',
  voided: 'default',
  overdue: 'error',
  terminated: 'warning',
  submitted: 'processing',
  accepted: 'success',
  rejected: 'error',
};

/** Paper copies: PDF, JPG or PNG up to 10 MB. */
export const PAPER_MAX_BYTES = 10 * 1024 * 1024;
export const PAPER_ACCEPT = '.pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png';

/** Why a picked paper copy is refused, or null when it is fine. */
export function paperFileProblem(file: { name: string; size: number }): string | null {
  if (!/\.(pdf|jpe?g|png)$/i.test(file.name)) return '请选择 PDF、JPG 或 PNG 文件';
  if (file.size > PAPER_MAX_BYTES) return '文件不能超过 10 MB';
  if (file.size === 0) return '文件内容为空';
  return null;
}

/** Where the performance deposits go under the operator's ruling, in one sentence with the amount. */
export function depositOutcome(c: { depositFen: number; sellerName: string; buyerName: string }, breachBy: BreachRuling): string {
  if (breachBy === 'none') return '双方均无违约，双方保证金将释放。';
  const seller = `卖方（${c.sellerName}）`;
  const buyer = `买方（${c.buyerName}）`;
  const [breacher, other] = breachBy === 'seller' ? [seller, buyer] : [buyer, seller];
  return `违约方${breacher}的履约保证金 ¥${formatFen(c.depositFen)} 将划转给守约方${other}，守约方保证金释放。`;
}
