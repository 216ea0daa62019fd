import { ProForm, ProFormDatePicker, ProFormDependency, ProFormRadio, ProFormText, ProFormTextArea } from '@ant-design/pro-components';
import { Alert, Form, message } from 'antd';
import { INVOICE_MEDIA, UPLOAD_EXTENSIONS, invoiceNumberProblem, type InvoiceMedium } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import GuardedModalForm from '@/components/GuardedModalForm';
import { yuan } from '@/components/Money';
import { confirmMoney } from '@/components/MoneyConfirm';
import Upload from '@/components/Upload';
import { reverseInvoice, type InvoiceView } from '@/services/invoice';
import { shanghaiToday } from './parts';

interface Values {
  medium: InvoiceMedium;
  code?: string;
  number: string;
  issuedOn: string;
  reason: string;
  file: string;
}

/**
 * 红冲: the red-letter invoice's own number, date and file, with the reason; its amounts and kind are the original's
 * (a red 专票's code has 10 digits, as the shared rule says).
 */
export default function ReverseInvoiceModal({ invoice, onClose, onDone }: { invoice: InvoiceView | null; onClose: () => void; onDone: () => void }) {
  const [form] = Form.useForm<Values>();
  /** The code or number checked by the shared rule for the reversed invoice's kind, reported on its field. */
  const numberRule = (path: 'code' | 'number') => ({
    validator: async () => {
      const v = form.getFieldsValue(['medium', 'code', 'number']);
      const problem = invoiceNumberProblem(v.medium, v.medium === 'paper' ? (v.code ?? '').trim() : '', (v.number ?? '').trim(), invoice?.kind);
      if (problem?.path === path) throw new Error(problem.message);
    },
  });
  return (
    <GuardedModalForm<Values>
      form={form}
      title={`红冲发票：${invoice?.number ?? ''}`}
      open={!!invoice}
      onOpenChange={(open) => (open ? undefined : onClose())}
      width={640}
      layout="horizontal"
      labelCol={{ span: 6 }}
      wrapperCol={{ span: 16 }}
      dateFormatter="string"
      initialValues={{ medium: invoice?.medium ?? 'digital', issuedOn: shanghaiToday() }}
      modalProps={{ destroyOnHidden: true, maskClosable: false }}
      submitter={{ searchConfig: { submitText: '红冲', resetText: '取消' } }}
      onFinish={async (v) => {
        const ok = await confirmMoney({
          title: '确认红冲发票',
          rows: [
            { label: '被红冲发票', value: invoice!.number },
            { label: '红字发票号码', value: v.number.trim() },
            { label: '红字价税合计', value: yuan(-invoice!.total), strong: true },
          ],
          next: '红冲后原发票不再计入开票金额，需重新登记发票，订单才能完成。',
          okText: '确认红冲',
        });
        if (!ok) return false;
        try {
          await reverseInvoice(invoice!.id, { ...v, code: v.medium === 'paper' ? (v.code ?? '').trim() : '', number: v.number.trim(), reason: v.reason.trim() });
          message.success('已红冲，请重新登记发票');
          onDone();
          return true;
        } catch (error) {
          message.error(errorMessage(error));
          return false;
        }
      }}
    >
      {invoice ? <Alert type="warning" showIcon style={{ marginBottom: 16 }} message={`将以红字发票冲销发票 ${invoice.number}（价税合计 ${yuan(invoice.total)}）`} /> : null}
      <ProFormRadio.Group name="medium" label="发票介质" options={Object.entries(INVOICE_MEDIA).map(([value, label]) => ({ value, label }))} rules={[{ required: true, message: '请选择发票介质' }]} />
      <ProFormDependency name={['medium']}>
        {({ medium }) =>
          medium === 'paper' ? (
            <>
              <ProFormText
                name="code"
                label="发票代码"
                placeholder={invoice?.kind === 'special' ? '10 位数字' : '10 位或 12 位数字'}
                rules={[{ required: true, message: '请输入发票代码' }, numberRule('code')]}
              />
              <ProFormText name="number" label="红字发票号码" placeholder="8 位数字" rules={[{ required: true, message: '请输入红字发票号码' }, numberRule('number')]} />
            </>
          ) : (
            <ProFormText name="number" label="红字发票号码" placeholder="数电发票 20 位数字" rules={[{ required: true, message: '请输入红字发票号码' }, numberRule('number')]} />
          )
        }
      </ProFormDependency>
      <ProFormDatePicker name="issuedOn" label="开票日期" fieldProps={{ style: { width: '100%' } }} rules={[{ required: true, message: '请选择开票日期' }]} />
      <ProFormTextArea name="reason" label="红冲原因" fieldProps={{ maxLength: 200, showCount: true }} rules={[{ required: true, min: 2, message: '红冲原因至少 2 个字' }]} />
      <ProForm.Item name="file" label="红字发票文件" rules={[{ required: true, message: '请上传红字发票文件' }]} extra="PDF 或 JPG/PNG 图片">
        <Upload visibility="private" accept={UPLOAD_EXTENSIONS.join(',')} listType="text" />
      </ProForm.Item>
    </GuardedModalForm>
  );
}
