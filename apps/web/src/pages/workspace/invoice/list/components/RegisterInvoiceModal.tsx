import { ProForm, ProFormDatePicker, ProFormDependency, ProFormDigit, ProFormRadio, ProFormSelect, ProFormText } from '@ant-design/pro-components';
import { Alert, Button, Descriptions, Form, message } from 'antd';
import {
  CONTRACT_VAT_RATE,
  INVOICE_KINDS,
  INVOICE_MEDIA,
  UPLOAD_EXTENSIONS,
  invoiceAmountProblem,
  invoiceNumberProblem,
  invoiceSplitOf,
  invoiceTaxOf,
  type InvoiceCreate,
  type InvoiceKind,
  type InvoiceMedium,
} from '@coalx/shared';
import { errorMessage } from '@/app/request';
import GuardedModalForm from '@/components/GuardedModalForm';
import Money, { yuan } from '@/components/Money';
import { confirmMoney } from '@/components/MoneyConfirm';
import Upload from '@/components/Upload';
import { registerInvoice, type InvoiceDue } from '@/services/invoice';
import { shanghaiToday, toFen } from './parts';

interface Values {
  kind: InvoiceKind;
  medium: InvoiceMedium;
  code?: string;
  number: string;
  issuedOn: string;
  amount: number;
  tax: number;
  file: string;
}

/**
 * 登记发票: kind, medium, code and number (the shared rules by medium and kind), date, the amount without tax and the
 * tax as printed (proposed as amount × the contract's rate, half up; the tax system's rounding allows ±0.01 元). The
 * total may not exceed what is left to invoice, to the fen, and is shown before anything is saved.
 */
export default function RegisterInvoiceModal({ due, onClose, onDone }: { due: InvoiceDue | null; onClose: () => void; onDone: () => void }) {
  const [form] = Form.useForm<Values>();
  const remaining = due?.remaining ?? 0;
  const rate = due?.rate ?? CONTRACT_VAT_RATE;

  /** the amount and tax that make exactly the remaining total at the contract's rate */
  const fillRemaining = () => {
    const { amount, tax } = invoiceSplitOf(remaining, rate);
    form.setFieldsValue({ amount: amount / 100, tax: tax / 100 });
  };

  /** The code or number checked by the shared rule (medium and kind), reported on the field it concerns. */
  const numberRule = (path: 'code' | 'number') => ({
    validator: async () => {
      const v = form.getFieldsValue(['kind', 'medium', 'code', 'number']);
      const problem = invoiceNumberProblem(v.medium, v.medium === 'paper' ? (v.code ?? '').trim() : '', (v.number ?? '').trim(), v.kind);
      if (problem?.path === path) throw new Error(problem.message);
    },
  });
  const taxRule = {
    validator: async () => {
      const amount = toFen(form.getFieldValue('amount'));
      const tax = toFen(form.getFieldValue('tax'));
      const problem = amount > 0 ? invoiceAmountProblem(amount, rate, tax, amount + tax) : null;
      if (problem) throw new Error(problem.message);
    },
  };

  return (
    <GuardedModalForm<Values>
      title={`登记发票：订单 ${due?.orderNo ?? ''}`}
      open={!!due}
      form={form}
      onOpenChange={(open) => (open ? undefined : onClose())}
      width={680}
      layout="horizontal"
      labelCol={{ span: 6 }}
      wrapperCol={{ span: 16 }}
      dateFormatter="string"
      initialValues={{ kind: 'special', medium: 'digital', issuedOn: shanghaiToday() }}
      onValuesChange={(changed: Partial<Values>) => {
        // a new amount proposes its tax; a tax typed from the invoice stays
        if ('amount' in changed) form.setFieldsValue({ tax: invoiceTaxOf(toFen(changed.amount), rate) / 100 });
      }}
      modalProps={{ destroyOnHidden: true, maskClosable: false }}
      submitter={{ searchConfig: { submitText: '登记', resetText: '取消' } }}
      onFinish={async (v) => {
        const amount = toFen(v.amount);
        const tax = toFen(v.tax);
        const body = {
          kind: v.kind,
          medium: v.medium,
          code: v.medium === 'paper' ? (v.code ?? '').trim() : '',
          number: v.number.trim(),
          issuedOn: v.issuedOn,
          amount,
          rate: rate as InvoiceCreate['rate'],
          tax,
          total: amount + tax,
          file: v.file,
        };
        const ok = await confirmMoney({
          title: '确认登记发票',
          rows: [
            { label: '发票号码', value: body.number },
            { label: '不含税金额', value: yuan(amount) },
            { label: `税额（${rate}%）`, value: yuan(tax) },
            { label: '价税合计', value: yuan(body.total), strong: true },
            { label: '结算金额尚未开票', value: yuan(remaining) },
          ],
          next: '登记后等待买方确认收票；发票全部确认且价税合计等于结算金额后，订单完成。',
          okText: '确认登记',
        });
        if (!ok) return false;
        try {
          await registerInvoice(due!.orderId, body);
          message.success('发票已登记，待买方确认');
          onDone();
          return true;
        } catch (error) {
          message.error(errorMessage(error));
          return false;
        }
      }}
    >
      {due ? (
        <Descriptions size="small" column={2} bordered style={{ marginBottom: 16 }}>
          <Descriptions.Item label="结算单号">{due.settlementNo}</Descriptions.Item>
          <Descriptions.Item label="买方">{due.buyerName}</Descriptions.Item>
          <Descriptions.Item label="结算金额">
            <Money fen={due.settled} strong />
          </Descriptions.Item>
          <Descriptions.Item label="已开票">
            <Money fen={due.invoiced} />
          </Descriptions.Item>
          <Descriptions.Item label="尚需开票" span={2}>
            <Money fen={remaining} strong /> <Button type="link" size="small" onClick={fillRemaining} data-testid="invoice-fill-remaining">按尚需开票金额填写</Button>
          </Descriptions.Item>
        </Descriptions>
      ) : null}
      <ProFormSelect name="kind" label="发票类型" allowClear={false} options={Object.entries(INVOICE_KINDS).map(([value, label]) => ({ value, label }))} rules={[{ required: true, message: '请选择发票类型' }]} />
      <ProFormRadio.Group name="medium" label="发票介质" options={Object.entries(INVOICE_MEDIA).map(([value, label]) => ({ value, label }))} rules={[{ required: true, message: '请选择发票介质' }]} />
      <ProFormDependency name={['medium']}>
        {({ medium }) =>
          medium === 'paper' ? (
            <>
              <ProFormText
                name="code"
                label="发票代码"
                placeholder="专票 10 位，普票 10 位或 12 位数字"
                dependencies={['kind']}
                rules={[{ required: true, message: '请输入发票代码' }, numberRule('code')]}
              />
              <ProFormText name="number" label="发票号码" placeholder="8 位数字" rules={[{ required: true, message: '请输入发票号码' }, numberRule('number')]} />
            </>
          ) : (
            <ProFormText name="number" label="发票号码" placeholder="数电发票 20 位数字" rules={[{ required: true, message: '请输入发票号码' }, numberRule('number')]} />
          )
        }
      </ProFormDependency>
      <ProFormDatePicker name="issuedOn" label="开票日期" fieldProps={{ style: { width: '100%' } }} rules={[{ required: true, message: '请选择开票日期' }]} />
      <ProFormDigit name="amount" label="不含税金额 (元)" min={0.01} max={10_000_000_000} fieldProps={{ precision: 2, style: { width: '100%' } }} rules={[{ required: true, message: '请输入不含税金额' }]} />
      <ProForm.Item label="税率" extra="合同约定的增值税税率，发票税率须与之一致">
        <span data-testid="invoice-rate">{rate}%</span>
      </ProForm.Item>
      <ProFormDigit
        name="tax"
        label="税额 (元)"
        min={0}
        max={10_000_000_000}
        dependencies={['amount']}
        fieldProps={{ precision: 2, style: { width: '100%' } }}
        rules={[{ required: true, message: '请输入税额' }, taxRule]}
      />
      <ProFormDependency name={['amount', 'tax']}>
        {({ amount, tax }) => {
          const total = toFen(amount) + toFen(tax);
          return (
            <ProForm.Item label="价税合计">
              <span data-testid="invoice-computed">
                税额 <Money fen={toFen(tax)} /> ，价税合计 <Money fen={total} strong />
              </span>
              {toFen(amount) > 0 && total > remaining ? <Alert style={{ marginTop: 8 }} type="warning" showIcon message={`价税合计超过尚需开票金额 ${yuan(remaining)}`} /> : null}
            </ProForm.Item>
          );
        }}
      </ProFormDependency>
      <ProForm.Item name="file" label="发票文件" rules={[{ required: true, message: '请上传发票文件' }]} extra="PDF 或 JPG/PNG 图片（OFD 版式文件请另存为 PDF 后上传）">
        <Upload visibility="private" accept={UPLOAD_EXTENSIONS.join(',')} listType="text" />
      </ProForm.Item>
    </GuardedModalForm>
  );
}
