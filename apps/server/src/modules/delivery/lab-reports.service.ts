import { QualityReportStates, type QualityReportCreate } from '@coalx/shared';
import { and, eq } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client';
import { qualityReports } from '../../db/schema/index';
import { businessRule, notFound } from '../../errors';
import { uniqueViolation } from '../../lib/db-errors';
import type { Actor } from '../../lib/actor';
import { transition } from '../../lib/transition';
import { findOrder } from '../order/order.service';
import { deliveryPolicy } from './delivery.policy';

/** Lab reports (化验单): one side submits, the other accepts or disputes; a report number is used once per enterprise. */

const reportNoUsed = (reportNo: string) => businessRule(`化验单号 ${reportNo} 已提交过，不能重复使用`);

/** A report number lost to a concurrent request: the same Chinese refusal (the transaction is gone). */
export async function withReportNo<T>(reportNo: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (uniqueViolation(err) === 'quality_report_no_uq') throw reportNoUsed(reportNo);
    throw err;
  }
}

/** The report and its order, for a party of the order or the trading centre; anyone else: 化验单不存在. */
export async function reportForActor(db: Db | Tx, actor: Actor, id: number) {
  const [report] = await db.select().from(qualityReports).where(eq(qualityReports.id, id)).limit(1);
  if (!report) throw notFound('化验单不存在');
  const order = await findOrder(db, report.orderId);
  if (!deliveryPolicy.allows(actor, 'view', order)) throw notFound('化验单不存在');
  return { report, order };
}

/** Saves the side's report (its number not used before by the enterprise); returns its id. */
export async function insertQualityReport(
  tx: Tx,
  actor: Actor,
  orderId: number,
  side: 'seller' | 'buyer',
  input: QualityReportCreate,
  fileId: number,
  now: Date,
): Promise<number> {
  const [row] = await tx
    .insert(qualityReports)
    .values({
      orderId,
      side,
      enterpriseId: actor.enterpriseId!,
      batch: input.batch,
      lab: input.lab,
      labName: input.labName,
      reportNo: input.reportNo,
      qnet: input.qnet,
      mt: input.mt,
      st: input.st,
      ad: input.ad,
      vdaf: input.vdaf,
      testedAt: input.testedAt,
      fileId,
      createdBy: actor.userId,
      createdAt: now,
    })
    .returning({ id: qualityReports.id });
  return row!.id;
}

/** Refuses a report number the enterprise already submitted. */
export async function requireNewReportNo(tx: Tx, actor: Actor, reportNo: string) {
  const [used] = await tx
    .select({ id: qualityReports.id })
    .from(qualityReports)
    .where(and(eq(qualityReports.enterpriseId, actor.enterpriseId!), eq(qualityReports.reportNo, reportNo)))
    .limit(1);
  if (used) throw reportNoUsed(reportNo);
}

/** The other side's answer: accepted or disputed (QualityReportStates). */
export function moveQualityReport(tx: Tx, id: number, move: 'accept' | 'dispute', set: PgUpdateSetSource<typeof qualityReports>) {
  return transition(tx, QualityReportStates, move, { table: qualityReports, where: eq(qualityReports.id, id), set, notFoundMessage: '化验单不存在' });
}
