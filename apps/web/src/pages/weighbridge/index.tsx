import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, DatePicker, Descriptions, Form, Input, Modal, Result, Tag, message } from 'antd';
import dayjs from 'dayjs';
import { useSearchParams } from 'react-router';
import { GATE_PASS_STAGES, TICKET_NO_PATTERN, formatTons, weighTicketProblem } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import Upload from '@/components/Upload';
import { DispatchStatusTag, vehicleTypeText } from '@/components/delivery/parts';
import { fillNet, ticketFromForm, tonsRule, type TicketFormValues } from '@/components/delivery/ticket-form';
import { useDocumentTitle } from '@/hooks/useDocumentTitle';
import { GATE_PASS_KEYS, gatePassPhotoUrl, getGatePass, recordGatePassTicket, type GatePassView } from '@/services/gatePass';
import './weighbridge.css';

interface Values extends TicketFormValues {
  recorderName: string;
}

/** The ticket each pass records, as the clerk calls it. */
const TICKET_NAMES = { loading: '装车磅单', arrival: '到货磅单' } as const;

/** The truck as the clerk checks it before weighing: plate first, big, on one line. */
function TruckFacts({ view }: { view: GatePassView }) {
  return (
    <>
      <div className="coalx-weighbridge-plate" data-testid="weighbridge-plate">
        {view.plateNo}
      </div>
      <Descriptions
        size="small"
        column={1}
        bordered
        items={[
          { key: 'no', label: '派车单号', children: view.dispatchNo },
          { key: 'driver', label: '司机', children: `${view.driverName}（${view.driverMobile}）` },
          { key: 'type', label: '车型 / 核定载重', children: `${vehicleTypeText(view.vehicleType)} / ${formatTons(view.ratedLoadKg)}` },
          { key: 'planned', label: '计划装车量', children: formatTons(view.plannedKg) },
          ...(view.stage === 'arrival' ? [{ key: 'loaded', label: '装车净重', children: formatTons(view.loadedNetKg) }] : []),
          { key: 'date', label: '计划装车日期', children: view.planDate },
          { key: 'order', label: '订单编号', children: view.orderNo },
          { key: 'goods', label: '货物', children: view.productName },
          { key: 'parties', label: '发货方 → 收货方', children: `${view.sellerName} → ${view.buyerName}` },
          { key: 'place', label: '交收地点', children: view.deliveryPlace },
        ]}
      />
    </>
  );
}

function RecordedTicket({ view }: { view: GatePassView }) {
  const ticket = view.ticket!;
  return (
    <Descriptions
      size="small"
      column={1}
      bordered
      data-testid="weighbridge-ticket"
      title={TICKET_NAMES[view.stage]}
      items={[
        { key: 'no', label: '磅单号', children: ticket.ticketNo },
        { key: 'net', label: '净重', children: <strong>{formatTons(ticket.netKg)}</strong> },
        { key: 'gross', label: '毛重 / 皮重', children: `${formatTons(ticket.grossKg, false)} / ${formatTons(ticket.tareKg, false)} 吨` },
        { key: 'at', label: '过磅时间', children: ticket.weighedAt },
        { key: 'by', label: '录入人', children: ticket.recordedBy },
      ]}
    />
  );
}

/**
 * 扫码过磅 (issue 32): the page a truck's QR code opens on the weighbridge clerk's phone, without an account. It
 * shows that truck only and records its one ticket (loading at the mine, arrival at the plant) with a photo
 * from the phone's camera; the pass closes once the ticket is in.
 */
export default function WeighbridgePage() {
  const [params] = useSearchParams();
  const pass = params.get('pass') ?? '';
  const client = useQueryClient();
  const [form] = Form.useForm<Values>();
  const query = useQuery({ queryKey: GATE_PASS_KEYS.pass(pass), queryFn: () => getGatePass(pass), enabled: pass.length > 0, retry: false });
  const view = query.data;
  useDocumentTitle(view ? GATE_PASS_STAGES[view.stage] : '扫码过磅');

  if (!pass) return <Result status="warning" title="请扫描派车单上的二维码" />;
  if (query.isError) return <Result status="404" title="无法打开派车单" subTitle={errorMessage(query.error, '请核对派车单上的二维码')} />;
  if (!view) return <Card loading className="coalx-weighbridge" />;

  const stageName = GATE_PASS_STAGES[view.stage];
  const ticketName = TICKET_NAMES[view.stage];
  const submit = (values: Values) => {
    const body = { ...ticketFromForm(values), recorderName: values.recorderName.trim() };
    // the arithmetic only (net = gross − tare); the server applies the overload tolerance, a parameter
    const problem = weighTicketProblem(body, view.ratedLoadKg, 1000);
    if (problem) {
      message.error(problem);
      return;
    }
    // a ticket cannot be taken back by the clerk: say what goes in before it does
    Modal.confirm({
      title: `确认录入${ticketName}？`,
      content: `${view.plateNo}，磅单号 ${body.ticketNo}，净重 ${formatTons(body.netKg)}。录入后二维码即失效，不能修改。`,
      okText: '确认录入',
      cancelText: '返回核对',
      onOk: async () => {
        try {
          const updated = await recordGatePassTicket(pass, body);
          client.setQueryData(GATE_PASS_KEYS.pass(pass), updated);
          message.success('磅单已录入');
        } catch (error) {
          message.error(errorMessage(error));
          void query.refetch();
        }
      },
    });
  };

  return (
    <div className="coalx-weighbridge">
      <Card
        title={
          <div className="coalx-weighbridge-title">
            <span>{stageName}</span>
            <DispatchStatusTag status={view.status} />
          </div>
        }
        extra={<Tag color="blue">{view.enterpriseName}</Tag>}
      >
        {view.closedReason ? (
          <Alert type={view.ticket ? 'success' : 'warning'} showIcon className="coalx-weighbridge-alert" message={view.closedReason} data-testid="weighbridge-closed" />
        ) : (
          <Alert type="info" showIcon className="coalx-weighbridge-alert" message={`核对车牌与司机后过磅，录入${ticketName}并拍摄磅单照片。二维码有效期至 ${view.expiresAt}。`} />
        )}
        <TruckFacts view={view} />
        {view.ticket ? <RecordedTicket view={view} /> : null}
        {view.closedReason ? null : (
          <Form<Values> form={form} layout="vertical" className="coalx-weighbridge-form" initialValues={{ weighedAt: dayjs() }} onFinish={submit} requiredMark={false}>
            <Form.Item name="ticketNo" label="磅单号" rules={[{ required: true, message: '请输入磅单号' }, { pattern: TICKET_NO_PATTERN, message: '磅单号为 4–30 位字母、数字或 -' }]}>
              <Input placeholder="磅单上的编号" size="large" autoComplete="off" />
            </Form.Item>
            <div className="coalx-weighbridge-weights">
              <Form.Item name="gross" label="毛重（吨）" rules={[tonsRule('毛重')]}>
                <Input placeholder="如 55.32" size="large" inputMode="decimal" onBlur={() => fillNet(form)} />
              </Form.Item>
              <Form.Item name="tare" label="皮重（吨）" rules={[tonsRule('皮重')]}>
                <Input placeholder="如 15.30" size="large" inputMode="decimal" onBlur={() => fillNet(form)} />
              </Form.Item>
            </div>
            <Form.Item name="net" label="净重（吨）" rules={[tonsRule('净重')]}>
              <Input placeholder="毛重 − 皮重" size="large" inputMode="decimal" />
            </Form.Item>
            <Form.Item name="weighedAt" label="过磅时间" rules={[{ required: true, message: '请选择过磅时间' }]}>
              <DatePicker showTime size="large" style={{ width: '100%' }} inputReadOnly />
            </Form.Item>
            <Form.Item name="photo" label="磅单照片" rules={[{ required: true, message: '请拍摄磅单照片' }]}>
              <Upload action={gatePassPhotoUrl(pass)} camera visibility="private" accept=".jpg,.jpeg,.png">
                <div>拍照上传</div>
              </Upload>
            </Form.Item>
            <Form.Item name="recorderName" label="过磅员姓名" rules={[{ required: true, whitespace: true, message: '请输入过磅员姓名' }, { max: 20, message: '过磅员姓名不超过 20 字' }]}>
              <Input placeholder="您的姓名，记入磅单" size="large" autoComplete="name" />
            </Form.Item>
            <Button type="primary" htmlType="submit" size="large" block>
              录入{ticketName}
            </Button>
          </Form>
        )}
      </Card>
    </div>
  );
}
