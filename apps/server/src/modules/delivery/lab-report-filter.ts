import { and, eq, ne, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { qualityReports } from '../../db/schema/index';

/**
 * The orders whose lab reports (化验单) are in a given plight, as a subquery of order ids the order lists filter by:
 * 'disputed' any disputed report; 'toConfirm' a report the other side submitted that waits for `enterpriseId`'s
 * answer (for the trading centre, enterpriseId null: any report waiting).
 */
export function ordersWithLabReports(db: Db, plight: 'disputed' | 'toConfirm', enterpriseId: number | null) {
  const where: SQL | undefined =
    plight === 'disputed'
      ? eq(qualityReports.status, 'disputed')
      : and(eq(qualityReports.status, 'submitted'), enterpriseId === null ? undefined : ne(qualityReports.enterpriseId, enterpriseId));
  return db.selectDistinct({ orderId: qualityReports.orderId }).from(qualityReports).where(where);
}
