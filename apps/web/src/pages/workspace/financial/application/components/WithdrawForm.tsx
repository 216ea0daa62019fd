import { useRef } from 'react';
import { ProForm, ProFormTextArea } from '@ant-design/pro-components';
import GuardedModalForm from '@/components/GuardedModalForm';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Form, message, Skeleton, Space, Typography } from 'antd';
import { errorMessage } from '@/app/request';
import Money, { yuan } from '@/components/Money';
import { useMoneyAction } from '@/components/MoneyConfirm';
import { newRequestId } from '@/components/PayAuth';
import { applyWithdrawal, FUNDS_KEYS, getFundInfo, getSettlementAccount } from '@/services/funds';
import { amountRule, checkWithdrawAmount, fenToYuanInput } from '@/lib/amount';
import { groupAccountNo } from '@/components/funds/tags';
import AmountInput from './AmountInput';

interface Values {
  amount: string;
  remark?: string;
}

/**
 * 申请出金: to the enterprise's audited settlement account only; the amount is frozen at once and paid by the
 * trading centre. Goes through the pay-auth flow (pay password or UKey when the switches are on).
 */
export default function WithdrawForm({ open, onOpenChange, onDone }: { open: boolean; onOpenChange: (open: boolean) => void; onDone: () => void }) {
  const [form] = Form.useForm<Values>();
  const requestId = useRef(newRequestId());
  const { act, holder } = useMoneyAction();
  const fundInfo = useQuery({ queryKey: FUNDS_KEYS.info, queryFn: getFundInfo, enabled: open, staleTime: 0 });
  const account = useQuery({ queryKey: ['funds', 'settlementAccount'], queryFn: getSettlementAccount, enabled: open, retry: false });
  const available = fundInfo.data?.available;
  const noAccount = account.isSuccess && !account.data.bankAccountNo;

  return (
    <>
      <GuardedModalForm<Values>
        title="申请出金"
        open={open}
        form={form}
        onOpenChange={onOpenChange}
        width={560}
        layout="horizontal"
        labelCol={{ span: 6 }}
        wrapperCol={{ span: 17 }}
        modalProps={{ destroyOnHidden: true, maskClosable: false }}
        submitter={{ searchConfig: { submitText: '提交', resetText: '取消' }, submitButtonProps: { disabled: noAccount } }}
        onFinish={async (values) => {
          const amount = checkWithdrawAmount(values.amount, available);
          if (amount.error !== undefined) {
            message.error(amount.error);
            return false;
          }
          const body = { amount: amount.fen, remark: values.remark?.trim() ?? '', requestId: requestId.current };
          const bankAccount = account.data?.bankAccountNo ? `${account.data.bankName}（尾号 ${account.data.bankAccountNo.slice(-4)}）` : '企业结算账户';
          const confirmation = {
            title: '确认出金',
            rows: [
              { label: '出金金额', value: yuan(amount.fen), strong: true },
              { label: '收款账户', value: bankAccount },
              { label: '出金后可用资金', value: yuan((available ?? 0) - amount.fen) },
            ],
            next: '确认后该金额立即冻结，交易中心付款到上述账户后扣减；驳回则解冻回可用资金。',
            okText: '确定出金',
          };
          try {
            const result = await act(confirmation, (auth) => applyWithdrawal({ ...body, ...auth }), {
              action: 'withdrawal',
              payload: body,
              title: '出金 · 请输入支付密码',
              description: (
                <Descriptions column={1} size="small" bordered>
                  <Descriptions.Item label="出金金额">
                    <Money fen={amount.fen} strong />
                  </Descriptions.Item>
                  <Descriptions.Item label="收款账户">
                    {account.data?.bankAccountNo ? `${account.data.bankName}（尾号 ${account.data.bankAccountNo.slice(-4)}）` : '企业结算账户'}
                  </Descriptions.Item>
                </Descriptions>
              ),
            });
            if (result === undefined) return false; // cancelled (the amount or the password): the form stays open with its values
          } catch (error) {
            message.error(errorMessage(error));
            return false;
          }
          requestId.current = newRequestId();
          message.success('出金申请已提交，金额已冻结');
          onDone();
          return true;
        }}
      >
        <div className="coalx-account-box">
          <Typography.Text strong>收款账户（企业已审核的结算账户）</Typography.Text>
          {account.isLoading ? (
            <Skeleton active paragraph={{ rows: 2 }} title={false} />
          ) : account.isError ? (
            <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
              出金将汇入本企业在交易中心登记并审核通过的结算银行账户。
            </Typography.Paragraph>
          ) : (
            <Descriptions column={1} size="small" style={{ marginTop: 8 }}>
              <Descriptions.Item label="户名">{account.data?.accountName || '-'}</Descriptions.Item>
              <Descriptions.Item label="开户银行">{[account.data?.bankName, account.data?.bankBranch].filter(Boolean).join(' ') || '-'}</Descriptions.Item>
              <Descriptions.Item label="银行账号">{groupAccountNo(account.data?.bankAccountNo)}</Descriptions.Item>
            </Descriptions>
          )}
        </div>
        {noAccount ? <Alert type="warning" showIcon style={{ marginBottom: 16 }} message="企业尚未登记结算银行账户，请先完善企业信息" /> : null}
        <Form.Item label="可用余额">
          <Space>
            {fundInfo.isLoading ? <Skeleton.Input active size="small" /> : <Money fen={available ?? null} strong />}
            {available ? (
              <Button type="link" size="small" onClick={() => form.setFieldsValue({ amount: fenToYuanInput(available) })}>
                全部出金
              </Button>
            ) : null}
          </Space>
        </Form.Item>
        <ProForm.Item
          name="amount"
          label="出金金额"
          required
          rules={[amountRule((value) => checkWithdrawAmount(value, available))]}
          extra={available !== undefined ? `不超过可用余额 ${yuan(available)}；提交后该金额立即冻结，交易中心付款后扣减` : undefined}
        >
          <AmountInput placeholder="请输入出金金额" />
        </ProForm.Item>
        <ProFormTextArea name="remark" label="备注" placeholder="选填" fieldProps={{ maxLength: 200, showCount: true, rows: 2 }} />
      </GuardedModalForm>
      {holder}
    </>
  );
}
