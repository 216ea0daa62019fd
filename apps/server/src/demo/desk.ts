import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { enterprises, users } from '../db/schema/index';
import { suspendTrading } from '../modules/enterprise/trading-rights.service';
import { reconcileFunds } from '../modules/funds/reconciliation.service';

const DAY_MS = 86_400_000;
/** the demo enterprise whose trading is suspended (the newcomer's, which no demo trade uses) */
export const DEMO_SUSPENDED_ENTERPRISE = '鄂尔多斯市东胜煤炭有限公司';
export const DEMO_SUSPENSION_REASON = '营业执照年检材料逾期未补交，补交并经交易中心核实后恢复';

/**
 * The trading centre's desk in the demo: one enterprise suspended until 18:00 ten days on (企业名录), and the funds
 * reconciliation of yesterday and today (资金总览's history), made after every demo movement of money.
 */
export async function loadDemoDesk(db: Db, now: Date) {
  const [operator] = await db.select().from(users).where(eq(users.username, 'operator')).limit(1);
  const [enterprise] = await db.select().from(enterprises).where(eq(enterprises.organName, DEMO_SUSPENDED_ENTERPRISE)).limit(1);
  if (operator && enterprise) {
    // 18:00 Asia/Shanghai, ten days from now
    const shanghai = new Date(now.getTime() + 10 * DAY_MS + 8 * 3600_000);
    const endsAt = new Date(Date.UTC(shanghai.getUTCFullYear(), shanghai.getUTCMonth(), shanghai.getUTCDate(), 10, 0, 0));
    await suspendTrading(db, { now: () => now }, operator.id, { enterpriseId: enterprise.id, reason: DEMO_SUSPENSION_REASON, endsAt: endsAt.toISOString() });
  }
  await reconcileFunds(db, new Date(now.getTime() - DAY_MS));
  await reconcileFunds(db, now);
}
