import { LAB_KINDS, OrderStates, TESTING_BASES, stateLabel, type QualityReportCreate, type QualityReportView } from '@coalx/shared';
import type { Db } from '../db/client';
import { appError, businessRule } from '../errors';
import type { Actor } from '../lib/actor';
import type { Clock } from '../lib/clock';
import { publish } from '../lib/events';
import { deliveryPolicy } from '../modules/delivery/delivery.policy';
import { reportView } from '../modules/delivery/delivery.presenter';
import { insertQualityReport, requireNewReportNo, withReportNo } from '../modules/delivery/lab-reports.service';
import { findStoredFile, ownedFileId } from '../modules/files/files.service';
import { orderForActor, recordOrderEvent } from '../modules/order/order.service';

/**
 * 化验单: by the side whose lab the contract names (the delivery policy says which); the file is a PDF or an image
 * the side uploaded; the report is written on the order's timeline.
 */
export async function submitQualityReport(db: Db, clock: Clock, actor: Actor, orderId: number, input: QualityReportCreate): Promise<QualityReportView> {
  const now = clock.now();
  const file = await findStoredFile(db, input.file);
  if (!file) throw appError('attachment_invalid', '化验单文件无效，请重新上传');
  const id = await withReportNo(input.reportNo, () =>
    db.transaction(async (tx) => {
      const { order } = await orderForActor(tx, actor, orderId);
      const side = deliveryPolicy.can(actor, 'submitReport', order);
      const basis = order.terms.testingBasis;
      if (input.lab !== basis) throw businessRule(`合同约定${TESTING_BASES[basis]}，化验机构类别须为「${LAB_KINDS[basis]}」`);
      if (order.status !== 'shipping' && order.status !== 'awaiting_settlement') {
        throw businessRule(`订单当前状态为${stateLabel(OrderStates, order.status)}，不能上传化验单`);
      }
      await requireNewReportNo(tx, actor, input.reportNo);
      const fileId = await ownedFileId(tx, input.file, actor.enterpriseId!);
      const reportId = await insertQualityReport(tx, actor, orderId, side, input, fileId, now);
      await recordOrderEvent(tx, {
        orderId,
        action: '上传化验单',
        actor,
        note: `化验单 ${input.reportNo}${input.batch ? `（${input.batch}）` : ''}：Qnet,ar ${input.qnet} kcal/kg，Mt ${input.mt}%，St,d ${input.st}%，Ad ${input.ad}%，Vdaf ${input.vdaf}%`,
        at: now,
      });
      await publish(tx, 'qualityreport.submitted', { id: reportId });
      return reportId;
    }),
  );
  return reportView(db, actor, id);
}
