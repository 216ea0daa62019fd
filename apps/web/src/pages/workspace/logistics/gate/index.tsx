import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Card, Descriptions, Result } from 'antd';
import { useSearchParams } from 'react-router';
import { formatTons } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import TruckActions from '@/components/delivery/TruckActions';
import { DispatchStatusTag, vehicleTypeText } from '@/components/delivery/parts';
import { usePhone } from '@/hooks/usePhone';
import { DELIVERY_KEYS, getTruckAtGate } from '@/services/delivery';

/** 装车过磅: opened from the dispatch note's QR code (?token=…) at the mine's gate; the seller records the loading ticket. */
export default function GateLoadingPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const client = useQueryClient();
  const phone = usePhone();
  const note = useQuery({ queryKey: DELIVERY_KEYS.gate(token), queryFn: () => getTruckAtGate(token), enabled: token.length > 0, retry: false });
  if (!token) return <Result status="warning" title="请扫描派车单上的二维码打开装车记录" />;
  if (note.isError) return <Result status="404" title="派车单不存在" subTitle={errorMessage(note.error, '请核对派车单二维码')} />;
  if (!note.data) return <Card loading />;
  const { truck, order } = note.data;
  const loading = truck.tickets.find((t) => t.stage === 'loading');
  const changed = () => void client.invalidateQueries({ queryKey: DELIVERY_KEYS.gate(token) });
  const items = [
    { key: 'plate', label: '车牌号', children: <strong style={{ fontSize: 18 }} data-testid="gate-plate">{truck.plateNo}</strong> },
    { key: 'driver', label: '司机', children: `${truck.driverName}（${truck.driverMobile}）` },
    { key: 'id', label: '身份证号', children: truck.driverIdCardNo },
    { key: 'type', label: '车型 / 核定载重', children: `${vehicleTypeText(truck.vehicleType)} / ${formatTons(truck.ratedLoadKg)}` },
    { key: 'planned', label: '计划装车量', children: formatTons(truck.plannedKg) },
    { key: 'date', label: '计划装车日期', children: truck.planDate },
    { key: 'order', label: '订单编号', children: order.orderNo },
    { key: 'goods', label: '货物', children: order.productName },
    { key: 'buyer', label: '收货方', children: order.buyerName },
    { key: 'place', label: '交收地点', children: order.deliveryPlace },
    ...(loading
      ? [{ key: 'ticket', label: '装车磅单', span: 2, children: `${loading.ticketNo}：净重 ${formatTons(loading.netKg)}（毛重 ${formatTons(loading.grossKg, false)} / 皮重 ${formatTons(loading.tareKg, false)}），${loading.weighedAt}` }]
      : []),
  ];
  if (phone) {
    // at the gate on a phone: the plate to compare with the truck, big on one line, then 录入装车磅单; the rest
    // below, and 取消派车 last, far from the button used every time
    const main = { ...truck, actions: truck.actions.filter((a) => a !== 'cancel') };
    const cancel = { ...truck, actions: truck.actions.filter((a) => a === 'cancel') };
    return (
      <Card className="coalx-gate" title={`装车过磅：${truck.dispatchNo}`} extra={<DispatchStatusTag status={truck.status} />}>
        <div className="coalx-gate-plate" data-testid="gate-plate">
          {truck.plateNo}
        </div>
        <div className="coalx-gate-driver">
          {truck.driverName} · {truck.driverMobile}
        </div>
        {truck.status === 'dispatched' ? <Alert type="info" showIcon className="coalx-gate-hint" message="核对车牌与司机后过磅装车，并录入装车磅单。" /> : null}
        {main.actions.length > 0 ? <TruckActions truck={main} onChanged={changed} prominent /> : null}
        <Descriptions className="coalx-gate-details" bordered size="small" column={1} items={items.filter((i) => i.key !== 'plate').map((i) => ({ ...i, span: 1 }))} />
        {cancel.actions.length > 0 ? (
          <div className="coalx-gate-cancel">
            <TruckActions truck={cancel} onChanged={changed} prominent />
          </div>
        ) : null}
      </Card>
    );
  }
  return (
    <Card
      title={`装车过磅：${truck.dispatchNo}`}
      extra={<DispatchStatusTag status={truck.status} />}
      actions={truck.actions.length > 0 ? [<TruckActions key="a" truck={truck} onChanged={changed} />] : undefined}
    >
      {truck.status === 'dispatched' ? (
        <Alert type="info" showIcon style={{ marginBottom: 16 }} message="核对车牌与司机后过磅装车，并录入装车磅单。" />
      ) : null}
      <Descriptions bordered size="middle" column={2} items={items} />
    </Card>
  );
}
