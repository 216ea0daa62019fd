import { useRef } from 'react';
import { ProForm, ProFormDatePicker, ProFormText, ProFormTextArea } from '@ant-design/pro-components';
import GuardedModalForm from '@/components/GuardedModalForm';
import { Alert, message } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { errorMessage } from '@/app/request';
import { confirmMoney } from '@/components/MoneyConfirm';
import { yuan } from '@/components/Money';
import { newRequestId } from '@/components/PayAuth';
import Upload from '@/components/Upload';
import { applyDepositIn } from '@/services/funds';
import { amountRule, parseYuanAmount } from '@/lib/amount';
import AmountInput from './AmountInput';

interface Values {
  amount: string;
  bankName: string;
  payerAccountNo: string;
  transferDate: string;
  voucherUrl: string;
  remark?: string;
}

/** 登记入金: the enterprise declares a bank transfer it made; the trading centre confirms it against the bank. */
export default function DepositInForm({ open, onOpenChange, onDone }: { open: boolean; onOpenChange: (open: boolean) => void; onDone: () => void }) {
  // one id per declaration: a double click or a retry after a lost answer registers it once
  const requestId = useRef(newRequestId());

  return (
    <GuardedModalForm<Values>
      title="登记入金"
      open={open}
      onOpenChange={onOpenChange}
      width={560}
      layout="horizontal"
      labelCol={{ span: 6 }}
      wrapperCol={{ span: 17 }}
      dateFormatter="string"
      modalProps={{ destroyOnHidden: true, maskClosable: false }}
      submitter={{ searchConfig: { submitText: '提交', resetText: '取消' } }}
      onFinish={async (values) => {
        const amount = parseYuanAmount(values.amount);
        if (amount.error !== undefined) {
          message.error(amount.error);
          return false;
        }
        const confirmed = await confirmMoney({
          title: '确认入金登记',
          rows: [
            { label: '转账金额', value: yuan(amount.fen), strong: true },
            { label: '付款银行', value: values.bankName.trim() },
            { label: '付款账号', value: `尾号 ${values.payerAccountNo.trim().slice(-4)}` },
            { label: '转账日期', value: values.transferDate },
          ],
          next: '确认后提交交易中心核对银行回单，核实到账后计入可用资金；金额与回单不符将被驳回。',
          okText: '确定登记',
        });
        if (!confirmed) return false;
        try {
          await applyDepositIn({
            amount: amount.fen,
            bankName: values.bankName.trim(),
            payerAccountNo: values.payerAccountNo.trim(),
            transferDate: values.transferDate,
            voucherUrl: values.voucherUrl,
            remark: values.remark?.trim() ?? '',
            requestId: requestId.current,
          });
        } catch (error) {
          message.error(errorMessage(error));
          return false;
        }
        requestId.current = newRequestId();
        message.success('入金申请已提交，等待交易中心确认');
        onDone();
        return true;
      }}
    >
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 20 }}
        message="请先从本企业银行账户向交易中心资金账户转账，再登记转账信息并上传银行回单；交易中心核实到账后入账。"
      />
      <ProForm.Item name="amount" label="转账金额" rules={[amountRule(parseYuanAmount)]} required>
        <AmountInput placeholder="请输入转账金额" />
      </ProForm.Item>
      <ProFormText
        name="bankName"
        label="付款银行"
        placeholder="如：中国工商银行朔州分行"
        fieldProps={{ maxLength: 60 }}
        rules={[{ required: true, whitespace: true, message: '请输入付款银行' }, { min: 2, message: '请输入付款银行' }]}
      />
      <ProFormText
        name="payerAccountNo"
        label="付款账号"
        placeholder="8-30 位数字"
        fieldProps={{ maxLength: 30, inputMode: 'numeric' }}
        rules={[
          { required: true, message: '请输入付款账号' },
          { pattern: /^\d{8,30}$/, message: '付款账号须为 8-30 位数字' },
        ]}
      />
      <ProFormDatePicker
        name="transferDate"
        label="转账日期"
        width="100%"
        fieldProps={{ disabledDate: (d: Dayjs) => d.isAfter(dayjs(), 'day'), style: { width: '100%' } }}
        placeholder="请选择转账日期"
        rules={[{ required: true, message: '请选择转账日期' }]}
      />
      <ProForm.Item name="voucherUrl" label="转账凭证" rules={[{ required: true, message: '请上传转账凭证' }]} extra="银行回单照片或截图，.jpg .png .jpeg">
        <Upload visibility="private" />
      </ProForm.Item>
      <ProFormTextArea name="remark" label="备注" placeholder="选填" fieldProps={{ maxLength: 200, showCount: true, rows: 2 }} />
    </GuardedModalForm>
  );
}
