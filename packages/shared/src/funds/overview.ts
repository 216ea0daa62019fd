import { z } from 'zod';
import { safeString } from '../text';

/**
 * 资金总览 (the trading centre's view of client funds) and the daily funds reconciliation (资金对账). Amounts are
 * integers in fen.
 */
export const FundsOverviewSchema = z.object({
  /** clients' accounts (the platform's own account left out) */
  clientAvailable: z.number(),
  clientFrozen: z.number(),
  /** of the frozen: trade deposits (保证金) still frozen for a subscription or enrolment */
  tradeDeposits: z.number(),
  /** performance deposits (履约保证金) of awarded trades */
  performanceDeposits: z.number(),
  /** goods-payment escrow (货款托管) of orders */
  escrow: z.number(),
  /** frozen for other reasons: withdrawals waiting to be paid, settlement shortfalls */
  otherFrozen: z.number(),
  accountCount: z.number(),
  /** the platform's own account (平台服务费账户), where settlement fees are credited; null: none made yet */
  platform: z.object({ available: z.number(), frozen: z.number(), feesTotal: z.number() }).nullable(),
  at: safeString(),
});
export type FundsOverview = z.infer<typeof FundsOverviewSchema>;

const day = (label: string) => z.string({ error: `请选择${label}` }).regex(/^\d{4}-\d{2}-\d{2}$/, `${label}格式应为 YYYY-MM-DD`);
export const FundsFlowQuerySchema = z.object({ dateFrom: day('开始日期'), dateTo: day('结束日期') });
export type FundsFlowQuery = z.infer<typeof FundsFlowQuerySchema>;

export const FundsFlowDaySchema = z.object({
  day: safeString(),
  depositIn: z.number(),
  depositInCount: z.number(),
  withdrawal: z.number(),
  withdrawalCount: z.number(),
  net: z.number(),
});
export type FundsFlowDay = z.infer<typeof FundsFlowDaySchema>;

export const ReconciliationDifferenceSchema = z.object({
  /** the account, or '全部账户' for the identity of all accounts */
  enterpriseId: z.number().nullable(),
  enterpriseName: safeString(),
  /** what is compared: 可用 / 冻结 / 资金合计 */
  item: safeString(),
  expected: z.number(),
  actual: z.number(),
});
export type ReconciliationDifference = z.infer<typeof ReconciliationDifferenceSchema>;

export const ReconciliationFiguresSchema = z.object({
  accountCount: z.number(),
  available: z.number(),
  frozen: z.number(),
  /** Σ accounts (available + frozen) */
  accountsTotal: z.number(),
  /** Σ confirmed 入金 */
  depositInTotal: z.number(),
  /** Σ paid 出金 */
  withdrawalTotal: z.number(),
  /** Σ confirmed 入金 − Σ paid 出金: what the accounts should hold together */
  expectedTotal: z.number(),
  differences: z.array(ReconciliationDifferenceSchema),
});
export type ReconciliationFigures = z.infer<typeof ReconciliationFiguresSchema>;

export const ReconciliationSchema = z.object({
  id: z.number(),
  day: safeString(),
  balanced: z.boolean(),
  differenceFen: z.number(),
  figures: ReconciliationFiguresSchema,
  madeAt: safeString(),
});
export type Reconciliation = z.infer<typeof ReconciliationSchema>;
