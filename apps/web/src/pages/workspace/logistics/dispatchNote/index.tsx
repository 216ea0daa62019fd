import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { PrinterOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Space } from 'antd';
import { useSearchParams } from 'react-router';
import qrcode from 'qrcode-generator';
import { formatTons } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import { DispatchStatusTag, SIDE_TEXT, vehicleTypeText } from '@/components/delivery/parts';
import { DELIVERY_KEYS, getDispatchNote } from '@/services/delivery';
import { weighbridgeUrl } from '@/services/gatePass';
import './dispatch-note.css';

function qrDataUrl(text: string): string {
  const qr = qrcode(0, 'M');
  qr.addData(text);
  qr.make();
  return qr.createDataURL(4, 2);
}

/** One weighbridge's QR code with what it is for; nothing where the viewer has no pass. */
function PassCode({ image, alt, caption, testId }: { image: string; alt: string; caption: string; testId: string }) {
  if (!image) return null;
  return (
    <figure>
      <img src={image} alt={alt} width={112} height={112} data-testid={testId} />
      <figcaption>{caption}</figcaption>
    </figure>
  );
}

/** 派车单 / 提煤单: a printable A5 note for the driver, with the QR code the mine's gate scans. */
export default function DispatchNotePage() {
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const note = useQuery({ queryKey: DELIVERY_KEYS.note(id), queryFn: () => getDispatchNote(id), enabled: id > 0 });
  // each weighbridge's clerk scans its own code and records the ticket without an account (the pass's page)
  const [codes, setCodes] = useState<{ loading: string; arrival: string }>({ loading: '', arrival: '' });
  const passes = note.data?.truck.gatePasses;
  useEffect(
    () =>
      setCodes({
        loading: passes?.loading ? qrDataUrl(weighbridgeUrl(passes.loading)) : '',
        arrival: passes?.arrival ? qrDataUrl(weighbridgeUrl(passes.arrival)) : '',
      }),
    [passes?.loading, passes?.arrival],
  );

  if (!(id > 0)) return <Alert type="error" showIcon message="派车单编号无效" />;
  if (note.isError) return <Alert type="error" showIcon message={errorMessage(note.error, '派车单加载失败')} />;
  if (!note.data) return <Card loading />;
  const { truck, order } = note.data;
  const rows: [string, string][] = [
    ['订单编号', order.orderNo],
    ['合同编号', order.contractNo],
    ['发货方（卖方）', order.sellerName],
    ['收货方（买方）', order.buyerName],
    ['货物', order.productName],
    ['交收地点', order.deliveryPlace],
    ['司机', truck.driverName],
    ['身份证号', truck.driverIdCardNo],
    ['联系电话', truck.driverMobile],
    ['车牌号', truck.plateNo],
    ['车型', vehicleTypeText(truck.vehicleType)],
    ['核定载重', formatTons(truck.ratedLoadKg)],
    ['计划装车量', formatTons(truck.plannedKg)],
    ['计划装车日期', truck.planDate],
    ['派车方', SIDE_TEXT[truck.senderSide]],
    ['开单时间', truck.createdAt],
  ];
  return (
    <div className="coalx-dispatch-note-page">
      <Space className="coalx-no-print" style={{ marginBottom: 16 }}>
        <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()}>
          打印
        </Button>
        <span>
          状态：<DispatchStatusTag status={truck.status} />
        </span>
      </Space>
      <div className="coalx-dispatch-note" data-testid="dispatch-note">
        <div className="coalx-dispatch-note-head">
          <div>
            <h1>派车单 / 提煤单</h1>
            <div className="coalx-dispatch-note-no">No. {truck.dispatchNo}</div>
          </div>
          <div className="coalx-dispatch-note-codes" style={{ display: 'flex', gap: 12 }}>
            <PassCode image={codes.loading} alt="装车过磅二维码" caption="矿方过磅扫码" testId="dispatch-qr" />
            <PassCode image={codes.arrival} alt="到货过磅二维码" caption="电厂过磅扫码" testId="dispatch-qr-arrival" />
          </div>
        </div>
        <table>
          <tbody>
            {Array.from({ length: rows.length / 2 }, (_, i) => (
              <tr key={i}>
                <th>{rows[2 * i]![0]}</th>
                <td>{rows[2 * i]![1]}</td>
                <th>{rows[2 * i + 1]![0]}</th>
                <td>{rows[2 * i + 1]![1]}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="coalx-dispatch-note-remark">凭本单过磅装车；矿方、电厂过磅员分别扫描上方二维码录入装车、到货磅单（无需账号，录入后即失效）；装车、到货均以磅单为准，途损超过合同约定的合理途损（{order.transitLossPct}%）的由责任方承担。</p>
        <div className="coalx-dispatch-note-signs">
          <span>派车人：</span>
          <span>司机签字：</span>
          <span>门岗/过磅员：</span>
          <span>收货人：</span>
        </div>
      </div>
    </div>
  );
}
