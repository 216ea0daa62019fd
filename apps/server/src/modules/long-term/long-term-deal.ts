import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { longTermApplications, longTermDeals, type LongTermDealRow } from '../../db/schema/index';
import { notFound } from '../../errors';
import type { Actor } from '../../lib/actor';
import { shanghaiDate } from '../../lib/shanghai-time';
import { longTermPolicy } from './long-term.policy';

/** The calendar month of an instant in Asia/Shanghai, YYYY-MM. */
export function shanghaiMonth(now: Date): string {
  return shanghaiDate(now).slice(0, 7);
}

/** One deal, row-locked for a move (`update`) or against one (`share`); a missing one is "not found". */
export async function findLongTerm(db: Db | Tx, id: number, lock?: 'update' | 'share'): Promise<LongTermDealRow> {
  const query = db.select().from(longTermDeals).where(eq(longTermDeals.id, id)).limit(1);
  const [row] = lock === 'update' ? await query.for('update') : lock === 'share' ? await query.for('share') : await query;
  if (!row) throw notFound('长协不存在');
  return row;
}

async function hasApplied(db: Db | Tx, id: number, enterpriseId: number | null): Promise<boolean> {
  if (enterpriseId === null) return false;
  const [row] = await db
    .select({ id: longTermApplications.id })
    .from(longTermApplications)
    .where(and(eq(longTermApplications.longTermId, id), eq(longTermApplications.buyerEnterpriseId, enterpriseId)))
    .limit(1);
  return !!row;
}

/** The deal as the actor may see it (another enterprise's is "not found"). */
export async function viewableLongTerm(db: Db | Tx, actor: Actor, id: number): Promise<LongTermDealRow> {
  const deal = await findLongTerm(db, id);
  longTermPolicy.can(actor, 'view', { deal, applied: await hasApplied(db, id, actor.enterpriseId) });
  return deal;
}
