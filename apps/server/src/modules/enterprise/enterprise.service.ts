import type { EnterpriseInfo } from '@coalx/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { enterprises } from '../../db/schema/index';

export async function getEnterpriseInfo(db: Db, enterpriseId: number | null): Promise<EnterpriseInfo> {
  if (enterpriseId === null) return null;
  const [e] = await db.select().from(enterprises).where(eq(enterprises.id, enterpriseId)).limit(1);
  if (!e) return null;
  return {
    organName: e.organName,
    clientId: e.clientId,
    creditCode: e.creditCode,
    enterpriseType: e.enterpriseType,
    auditStatus: e.auditStatus,
    legalPerson: e.legalPerson,
    contactName: e.contactName,
    contactMobile: e.contactMobile,
    address: e.address,
  };
}
