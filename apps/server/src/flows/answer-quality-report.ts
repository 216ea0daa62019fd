import type { QualityReportView } from '@coalx/shared';
import type { Db } from '../db/client';
import type { Actor } from '../lib/actor';
import type { Clock } from '../lib/clock';
import { deliveryPolicy } from '../modules/delivery/delivery.policy';
import { reportView } from '../modules/delivery/delivery.presenter';
import { moveQualityReport, reportForActor } from '../modules/delivery/lab-reports.service';
import { recordOrderEvent } from '../modules/order/order.service';

/** The other side accepts the lab report or disputes it with a reason; either is written on the order's timeline. */
export async function answerQualityReport(db: Db, clock: Clock, actor: Actor, id: number, input: { accept: boolean; reason: string }): Promise<QualityReportView> {
  const now = clock.now();
  await db.transaction(async (tx) => {
    const { report, order } = await reportForActor(tx, actor, id);
    deliveryPolicy.can(actor, 'answerReport', { order, report });
    await moveQualityReport(tx, id, input.accept ? 'accept' : 'dispute', { answerNote: input.reason, answeredBy: actor.userId, answeredAt: now });
    await recordOrderEvent(tx, {
      orderId: order.id,
      action: input.accept ? '确认化验单' : '化验单异议',
      actor,
      note: `化验单 ${report.reportNo}${input.reason ? `：${input.reason}` : ''}`,
      at: now,
    });
  });
  return reportView(db, actor, id);
}
