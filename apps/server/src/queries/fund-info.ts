import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { orders, tradeDeposits, withdrawals } from '../db/schema/index';
import type { Actor } from '../lib/actor';
import { fundsPolicy } from '../modules/funds/funds.policy';
import { ensureAccount } from '../modules/funds/ledger';

/**
 * 资金信息: the account's balances read by key, and what its frozen part holds, each summed from the few rows
 * that still hold money (partial indexes), never from the enterprise's whole journal:
 * - deposits frozen for trades or performance;
 * - 出金 applications waiting for payment;
 * - order escrow: what the buyer's orders hold, kept by each order's move in the transaction that froze, paid out
 *   or released it (the journal's order-escrow movements sum to the same).
 */
export async function getFundInfo(db: Db, actor: Actor) {
  const enterpriseId = fundsPolicy.can(actor, 'ownAccount');
  const sumOf = (amount: unknown) => sql<string>`COALESCE(SUM(${amount}), 0)::text`;
  const [account, [deposits], [pending], [escrow]] = await Promise.all([
    ensureAccount(db, enterpriseId),
    db.select({ sum: sumOf(tradeDeposits.amount) }).from(tradeDeposits).where(and(eq(tradeDeposits.enterpriseId, enterpriseId), sql`${tradeDeposits.status} IN ('frozen', 'performance')`)),
    db.select({ sum: sumOf(withdrawals.amount) }).from(withdrawals).where(and(eq(withdrawals.enterpriseId, enterpriseId), eq(withdrawals.status, 'pending'))),
    db.select({ sum: sumOf(orders.escrowFen) }).from(orders).where(and(eq(orders.buyerEnterpriseId, enterpriseId), gt(orders.escrowFen, 0))),
  ]);
  return {
    available: account.available,
    frozen: account.frozen,
    total: account.available + account.frozen,
    depositFrozen: Number(deposits?.sum ?? 0),
    withdrawalFrozen: Number(pending?.sum ?? 0),
    escrowFrozen: Number(escrow?.sum ?? 0),
  };
}
