import type { ProColumns } from '@ant-design/pro-components';
import { Button, message } from 'antd';
import { SIGNED_HOW, WEIGH_STAGES, formatTons } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import type { RowDetail } from '@/components/RowDetails';
import { openOrderFile, type DispatchView } from '@/services/delivery';
import { DispatchStatusTag, LossCell, Tons, vehicleTypeText } from './parts';

const open = (orderId: number, fileId: number) => openOrderFile(orderId, fileId).catch((error) => message.error(errorMessage(error)));

/** The trucks table's key columns (派车单号, 司机 or 订单, 车牌, 计划/装车/到货/签收 吨, 途损, 状态); the rest opens under the row. */
export function truckColumns(options: { withOrder?: boolean } = {}): ProColumns<DispatchView>[] {
  const withOrder = options.withOrder === true;
  return [
    { title: '派车单号', dataIndex: 'dispatchNo', width: withOrder ? 130 : 140, search: false, render: (_, r) => <span className="coalx-num">{r.dispatchNo}</span> },
    ...(options.withOrder
      ? [{ title: '订单编号', dataIndex: 'orderNo', width: 130, search: false, render: (_: unknown, r: DispatchView) => <span className="coalx-num">{r.orderNo}</span> } as ProColumns<DispatchView>]
      : [{ title: '司机', dataIndex: 'driverName', width: 76, search: false, ellipsis: true } as ProColumns<DispatchView>]),
    { title: '车牌号', dataIndex: 'plateNo', width: 92, search: false },
    { title: '计划(吨)', dataIndex: 'plannedKg', width: 78, align: 'right', search: false, render: (_, r) => <Tons kg={r.plannedKg} /> },
    { title: '装车(吨)', dataIndex: 'loadedNetKg', width: 78, align: 'right', search: false, render: (_, r) => <Tons kg={r.loadedNetKg} /> },
    { title: '到货(吨)', dataIndex: 'arrivedNetKg', width: 78, align: 'right', search: false, render: (_, r) => <Tons kg={r.arrivedNetKg} /> },
    { title: '签收(吨)', dataIndex: 'signedKg', width: 78, align: 'right', search: false, render: (_, r) => <Tons kg={r.signedKg} /> },
    { title: '途损(吨)', dataIndex: 'lossKg', width: 110, align: 'right', search: false, render: (_, r) => <LossCell truck={r} /> },
    { title: '状态', dataIndex: 'status', width: 76, search: false, render: (_, r) => <DispatchStatusTag status={r.status} /> },
  ];
}

/** What opens under a truck's row: the driver, both weigh tickets with their photos, sign-for and dispute. */
export function truckDetails(r: DispatchView): RowDetail[] {
  const details: RowDetail[] = [
    { label: '司机身份证', value: r.driverIdCardNo },
    { label: '司机电话', value: r.driverMobile },
    { label: '车型 / 核定载重', value: `${vehicleTypeText(r.vehicleType)} / ${formatTons(r.ratedLoadKg)}` },
    { label: '计划装车日期', value: r.planDate },
    { label: '派车时间', value: r.createdAt },
    { label: '买卖双方', value: `${r.sellerName} → ${r.buyerName}` },
  ];
  for (const t of r.tickets) {
    details.push({
      label: `${WEIGH_STAGES[t.stage]}磅单`,
      value: (
        <span>
          {t.ticketNo}：毛重 {formatTons(t.grossKg, false)} / 皮重 {formatTons(t.tareKg, false)} / 净重 {formatTons(t.netKg, false)} 吨，{t.weighedAt}
          {t.recordedBy ? `，录入：${t.recordedBy}` : ''}
          {t.photoFileId ? (
            <Button type="link" size="small" onClick={() => void open(r.orderId, t.photoFileId!)}>
              查看照片
            </Button>
          ) : null}
        </span>
      ),
    });
  }
  if (r.status === 'arrived' && r.autoSignAt) details.push({ label: '自动签收时间', value: `${r.autoSignAt}（期满未签收也未提出异议视为签收）` });
  if (r.signedAt) details.push({ label: '签收', value: `${r.signedAt}，${(SIGNED_HOW as Record<string, string>)[r.signedHow ?? ''] ?? ''}` });
  if (r.disputeReason) {
    details.push({
      label: '签收异议',
      value: (
        <span>
          {r.disputeReason}（{r.disputedAt}）
          {r.disputePhotos.map((p, i) => (
            <Button key={p.id} type="link" size="small" onClick={() => void open(r.orderId, p.id)}>
              照片{i + 1}
            </Button>
          ))}
        </span>
      ),
    });
    details.push({ label: '卖方答复', value: r.sellerAnswer ? `${r.sellerAnswer}（${r.answeredAt}）` : '尚未答复' });
  }
  if (r.rulingNote) details.push({ label: '交易中心裁定', value: `${r.rulingNote}（${r.ruledAt}）` });
  if (r.cancelReason) details.push({ label: '取消原因', value: r.cancelReason });
  return details;
}
