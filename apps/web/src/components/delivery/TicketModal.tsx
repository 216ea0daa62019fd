import { ProFormDateTimePicker, ProFormText, ProForm } from '@ant-design/pro-components';
import { Alert, Descriptions, Form, message } from 'antd';
import dayjs from 'dayjs';
import { formatTons, loadingOverPlanProblem, weighTicketProblem, TICKET_NO_PATTERN } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import GuardedModalForm from '@/components/GuardedModalForm';
import Upload from '@/components/Upload';
import { recordTicket, type DispatchView } from '@/services/delivery';
import { fillNet as fillNetOf, ticketFromForm, tonsRule, type TicketFormValues as Values } from './ticket-form';

/** 录入装车磅单 (the seller, at the mine) / 录入到货磅单 (the buyer): gross, tare, net, time, number, photo. */
export default function TicketModal({
  truck,
  stage,
  overloadPct = 10,
  onClose,
  onDone,
}: {
  truck: DispatchView | null;
  stage: 'loading' | 'arrival';
  overloadPct?: number;
  onClose: () => void;
  onDone: (truck: DispatchView) => void;
}) {
  const [form] = Form.useForm<Values>();
  const title = stage === 'loading' ? '录入装车磅单' : '录入到货磅单';
  const fillNet = () => fillNetOf(form);
  return (
    <GuardedModalForm<Values>
      title={truck ? `${title}：${truck.dispatchNo}` : title}
      open={truck !== null}
      form={form}
      onOpenChange={(open) => !open && onClose()}
      width={600}
      layout="horizontal"
      labelCol={{ span: 6 }}
      wrapperCol={{ span: 16 }}
      modalProps={{ destroyOnHidden: true, maskClosable: false }}
      initialValues={{ weighedAt: dayjs() }}
      submitter={{ searchConfig: { submitText: '提交', resetText: '取消' } }}
      onFinish={async (values) => {
        if (!truck) return false;
        const body = ticketFromForm(values);
        const problem = weighTicketProblem(body, truck.ratedLoadKg, overloadPct) ?? (stage === 'loading' ? loadingOverPlanProblem(body.netKg, truck.plannedKg, overloadPct) : null);
        if (problem) {
          message.error(problem);
          return false;
        }
        try {
          const updated = await recordTicket(truck.id, stage, body);
          message.success(stage === 'loading' ? '装车磅单已录入' : '到货磅单已录入');
          onDone(updated);
          return true;
        } catch (error) {
          message.error(errorMessage(error));
          return false;
        }
      }}
    >
      {truck ? (
        <Descriptions
          size="small"
          column={2}
          style={{ marginBottom: 16 }}
          items={[
            { key: 'plate', label: '车牌号', children: truck.plateNo },
            { key: 'driver', label: '司机', children: truck.driverName },
            { key: 'rated', label: '核定载重', children: formatTons(truck.ratedLoadKg) },
            { key: 'planned', label: '计划装车', children: formatTons(truck.plannedKg) },
            ...(stage === 'arrival' ? [{ key: 'loaded', label: '装车净重', children: formatTons(truck.loadedNetKg) }] : []),
          ]}
        />
      ) : null}
      {stage === 'arrival' ? (
        <Alert type="info" showIcon style={{ marginBottom: 16 }} message={`到货净重与装车净重之差超过合理途损 ${truck?.transitLossPct ?? 0}% 的，将标记为超途损。`} />
      ) : null}
      <ProFormText
        name="ticketNo"
        label="磅单号"
        placeholder="磅单上的编号"
        rules={[{ required: true, message: '请输入磅单号' }, { pattern: TICKET_NO_PATTERN, message: '磅单号为 4–30 位字母、数字或 -' }]}
      />
      <ProFormText name="gross" label="毛重（吨）" placeholder="如 55.32" rules={[tonsRule('毛重')]} fieldProps={{ onBlur: fillNet, inputMode: 'decimal' }} />
      <ProFormText name="tare" label="皮重（吨）" placeholder="如 15.30" rules={[tonsRule('皮重')]} fieldProps={{ onBlur: fillNet, inputMode: 'decimal' }} />
      <ProFormText name="net" label="净重（吨）" placeholder="毛重 − 皮重" rules={[tonsRule('净重')]} fieldProps={{ inputMode: 'decimal' }} />
      <ProFormDateTimePicker name="weighedAt" label="过磅时间" rules={[{ required: true, message: '请选择过磅时间' }]} fieldProps={{ style: { width: '100%' } }} />
      <ProForm.Item name="photo" label="磅单照片" rules={[{ required: true, message: '请上传磅单照片' }]}>
        <Upload visibility="private" accept=".jpg,.jpeg,.png" />
      </ProForm.Item>
    </GuardedModalForm>
  );
}
