import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { drivers, type Driver } from '../../db/schema/index';
import { businessRule, notFound } from '../../errors';

/**
 * The driver a dispatch sends, for the delivery module: he must be the enterprise's own and approved by the
 * trading centre. Another enterprise's driver is "not found".
 */
export async function approvedDriver(db: Db | Tx, enterpriseId: number, driverId: number): Promise<Driver> {
  const [driver] = await db.select().from(drivers).where(eq(drivers.id, driverId)).limit(1);
  if (!driver || driver.enterpriseId !== enterpriseId) throw notFound('司机不存在');
  if (driver.status !== 'approved') throw businessRule('该司机未通过审核，不能派车');
  return driver;
}
