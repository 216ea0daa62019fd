import { useQuery } from '@tanstack/react-query';
import { ProFormDatePicker, ProFormSelect, ProFormText } from '@ant-design/pro-components';
import { Alert, Form, message } from 'antd';
import dayjs from 'dayjs';
import { PLAN_DATE_SLACK_DAYS, formatTons, tonsTextToKg } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import GuardedModalForm from '@/components/GuardedModalForm';
import { dispatchTruck, listDispatchDrivers, type DeliveryOrder, type DispatchView } from '@/services/delivery';
import { vehicleTypeText } from './parts';

interface Values {
  driverId: number;
  planned: string;
  planDate: string;
}

/** 派车: the transporting side sends one of its approved drivers for planned tons (within what is left). */
export default function DispatchModal({ order, open, onClose, onDone }: { order: DeliveryOrder; open: boolean; onClose: () => void; onDone: (truck: DispatchView) => void }) {
  const [form] = Form.useForm<Values>();
  const drivers = useQuery({ queryKey: ['delivery', 'drivers', order.id], queryFn: () => listDispatchDrivers(order.id), enabled: open });
  const driverId = Form.useWatch('driverId', form);
  const chosen = drivers.data?.find((d) => d.id === driverId);
  const first = dayjs(order.deliveryDateStart).subtract(PLAN_DATE_SLACK_DAYS, 'day');
  const last = dayjs(order.deliveryDateEnd).add(PLAN_DATE_SLACK_DAYS, 'day');
  const today = dayjs().format('YYYY-MM-DD');
  const defaultDay = today < first.format('YYYY-MM-DD') ? first.format('YYYY-MM-DD') : today > last.format('YYYY-MM-DD') ? last.format('YYYY-MM-DD') : today;
  return (
    <GuardedModalForm<Values>
      title={`派车：${order.orderNo}`}
      open={open}
      form={form}
      onOpenChange={(o) => !o && onClose()}
      width={600}
      layout="horizontal"
      labelCol={{ span: 6 }}
      wrapperCol={{ span: 16 }}
      dateFormatter="string"
      initialValues={{ planDate: defaultDay }}
      modalProps={{ destroyOnHidden: true, maskClosable: false }}
      submitter={{ searchConfig: { submitText: '确认派车', resetText: '取消' } }}
      onFinish={async (values) => {
        const plannedKg = tonsTextToKg(values.planned);
        if (plannedKg === null || plannedKg <= 0) {
          message.error('请输入计划装车量（吨）');
          return false;
        }
        try {
          const truck = await dispatchTruck({ orderId: order.id, driverId: values.driverId, plannedKg, planDate: values.planDate });
          message.success(`派车成功，派车单号 ${truck.dispatchNo}`);
          onDone(truck);
          return true;
        } catch (error) {
          message.error(errorMessage(error));
          return false;
        }
      }}
    >
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        message={`合同数量 ${formatTons(order.quantityKg)}（溢短装 ±${order.quantityTolerancePct}%，最多 ${formatTons(order.maxKg)}），已派 ${formatTons(order.plannedKg)}，剩余可派 ${formatTons(order.remainingKg)}。`}
      />
      <ProFormSelect
        name="driverId"
        label="司机车辆"
        placeholder={drivers.isLoading ? '加载中…' : '选择已审核通过的司机'}
        rules={[{ required: true, message: '请选择司机' }]}
        options={(drivers.data ?? []).map((d) => ({ value: d.id, label: `${d.plateNo}  ${d.name}  ${vehicleTypeText(d.vehicleType)}  核载 ${formatTons(d.ratedLoadKg)}` }))}
        fieldProps={{ showSearch: true, optionFilterProp: 'label', notFoundContent: '没有审核通过的司机，请先在「运输信息 → 司机车辆」登记并等待审核' }}
      />
      <ProFormText
        name="planned"
        label="计划装车量（吨）"
        placeholder={chosen ? `本车最多 ${formatTons(Math.min(chosen.maxPlannedKg, order.remainingKg), false)} 吨` : '如 35'}
        rules={[{ required: true, message: '请输入计划装车量' }]}
        fieldProps={{ inputMode: 'decimal' }}
      />
      <ProFormDatePicker
        name="planDate"
        label="计划装车日期"
        rules={[{ required: true, message: '请选择计划装车日期' }]}
        fieldProps={{ style: { width: '100%' }, disabledDate: (d: dayjs.Dayjs) => d.isBefore(first, 'day') || d.isAfter(last, 'day') }}
        extra={`合同交收期 ${order.deliveryDateStart} 至 ${order.deliveryDateEnd}（前后 ${PLAN_DATE_SLACK_DAYS} 天内可派车）`}
      />
    </GuardedModalForm>
  );
}
