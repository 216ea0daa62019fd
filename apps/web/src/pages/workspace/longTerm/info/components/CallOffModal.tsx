import { useMemo } from 'react';
import { ProFormDateRangePicker, ProFormText, ProFormTextArea } from '@ant-design/pro-components';
import { Descriptions, Form, message } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { formatPrice, formatTons, monthDays, monthText, tonsTextToKg } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import GuardedModalForm from '@/components/GuardedModalForm';
import Money from '@/components/Money';
import { confirmMoney } from '@/components/MoneyConfirm';
import { tonsRule } from '@/components/TradeForm/rules';
import { callOffAmount, callOffDayAllowed, callOffQuantityError } from '@/lib/long-term';
import { createCallOff, type LongTermDetail, type LongTermMonth } from '@/services/longTerm';

const DAY = 'YYYY-MM-DD';

interface Values {
  quantityTons?: string;
  deliveryDates?: [Dayjs | null, Dayjs | null] | null;
  note?: string;
}

/**
 * 发起本月调运 (the seller) / 申请本月调运 (the buyer): a quantity of the current month's remaining plan at the
 * month's price and delivery days within the month. The amount is confirmed before it is sent; the other side then
 * confirms, which makes the deal and its monthly contract.
 */
export default function CallOffModal({ detail, month, open, onClose, onDone }: { detail: LongTermDetail; month: LongTermMonth; open: boolean; onClose: () => void; onDone: (next: LongTermDetail) => void }) {
  const [form] = Form.useForm<Values>();
  const seller = detail.mySide === 'seller';
  const verb = seller ? '发起' : '申请';
  const today = dayjs().format(DAY);
  const { last } = monthDays(month.month);
  const quantityTons = Form.useWatch('quantityTons', form);
  const priceFen = month.price?.priceFen ?? null;
  const amount = useMemo(() => {
    const kg = tonsTextToKg(quantityTons);
    return kg !== null && kg > 0 && priceFen !== null ? { kg, fen: callOffAmount(priceFen, kg) } : null;
  }, [quantityTons, priceFen]);

  const quantityRule = {
    validator: (_: unknown, value: string | undefined) => {
      const kg = tonsTextToKg(value?.trim());
      // an empty or malformed quantity is tonsRule's to report
      if (kg === null) return Promise.resolve();
      const text = callOffQuantityError(kg, month.availableKg);
      return text ? Promise.reject(new Error(text)) : Promise.resolve();
    },
  };

  return (
    <GuardedModalForm<Values>
      title={`${verb}本月调运 · ${monthText(month.month)}`}
      form={form}
      open={open}
      onOpenChange={(o) => !o && onClose()}
      width={620}
      initialValues={{ deliveryDates: [dayjs(today < `${month.month}-01` ? `${month.month}-01` : today), dayjs(last)] }}
      modalProps={{ destroyOnHidden: true, maskClosable: false }}
      submitter={{ searchConfig: { submitText: '下一步', resetText: '取消' } }}
      onFinish={async (v) => {
        const kg = tonsTextToKg(v.quantityTons);
        const problem = callOffQuantityError(kg, month.availableKg);
        if (problem) {
          message.error(problem);
          return false;
        }
        // ProForm hands dates on as text; the picker's own value is read instead
        const picked = form.getFieldValue('deliveryDates') as Values['deliveryDates'];
        const [start, end] = [picked?.[0]?.format(DAY), picked?.[1]?.format(DAY)];
        if (!start || !end) {
          message.error('请选择交收日期');
          return false;
        }
        const ok = await confirmMoney({
          title: `确认${verb}本月调运`,
          rows: [
            { label: '长协', value: detail.dealNo },
            { label: '调运月份', value: monthText(month.month) },
            { label: '调运数量', value: formatTons(kg!) },
            { label: '本月价格', value: priceFen !== null ? formatPrice(priceFen) : '提交时按本月价格确定' },
            { label: '交收期', value: `${start} 至 ${end}` },
            { label: '金额', value: priceFen !== null ? <Money fen={callOffAmount(priceFen, kg!)} strong /> : '-', strong: true },
          ],
          next: seller
            ? '提交后等待买方确认；买方确认即成交，生成月度合同（双方在「合同管理」签署）与订单。确认前可撤回。'
            : '提交后等待卖方确认；卖方确认即成交，生成月度合同（双方在「合同管理」签署）与订单。确认前可撤回。',
          okText: `确认${verb}`,
        });
        if (!ok) return false;
        try {
          const next = await createCallOff(detail.id, { month: month.month, quantityKg: kg!, deliveryDateStart: start, deliveryDateEnd: end, note: v.note?.trim() ?? '' });
          message.success(seller ? '已发起，等待买方确认' : '已提交申请，等待卖方确认');
          onDone(next);
          return true;
        } catch (error) {
          message.error(errorMessage(error, '提交失败，请稍后重试'));
          return false;
        }
      }}
    >
      <Descriptions
        size="small"
        column={2}
        bordered
        style={{ marginBottom: 16 }}
        items={[
          { key: 'planned', label: '本月计划量', children: formatTons(month.plannedKg) },
          { key: 'available', label: '剩余可调运', children: <b data-testid="lt-calloff-available">{formatTons(month.availableKg)}</b> },
          { key: 'price', label: '本月价格', children: priceFen !== null ? formatPrice(priceFen) : '提交时确定' },
          { key: 'amount', label: '金额（参考）', children: amount ? <Money fen={amount.fen} strong /> : '-' },
        ]}
      />
      <ProFormText
        name="quantityTons"
        label="调运数量"
        placeholder={`不超过 ${formatTons(month.availableKg, false)}`}
        rules={[{ required: true, message: '请输入调运数量' }, tonsRule, quantityRule]}
        fieldProps={{ addonAfter: '吨', inputMode: 'decimal' }}
      />
      <ProFormDateRangePicker
        name="deliveryDates"
        label="交收日期"
        rules={[{ required: true, message: '请选择交收开始和结束日期' }]}
        fieldProps={{
          format: DAY,
          placeholder: ['交收开始日期', '交收结束日期'],
          style: { width: '100%' },
          disabledDate: (d: Dayjs) => !callOffDayAllowed(d.format(DAY), month.month, today),
        }}
        extra={`交收日期须在 ${monthText(month.month)} 内，且不早于今天`}
      />
      <ProFormTextArea name="note" label="说明" placeholder="选填，如车辆安排、装车要求" fieldProps={{ maxLength: 200, showCount: true, rows: 2 }} />
    </GuardedModalForm>
  );
}
