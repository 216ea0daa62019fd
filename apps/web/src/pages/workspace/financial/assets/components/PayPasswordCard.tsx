import { useRef, useState } from 'react';
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { ProCard, ProForm } from '@ant-design/pro-components';
import GuardedModalForm from '@/components/GuardedModalForm';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Form, message, Tag, Typography } from 'antd';
import { errorMessage } from '@/app/request';
import { hasAction } from '@/app/access';
import { session, useSession } from '@/app/session';
import { hashPayPassword, PAY_PASSWORD_STATUS_QUERY_KEY, SixDigitInput, useSwitches } from '@/components/PayAuth';
import { getPayPasswordStatus, setPayPassword } from '@/services/funds';

interface PasswordForm {
  oldPassword?: string;
  password: string;
  confirm: string;
}

const sixDigits = { pattern: /^\d{6}$/, message: '请输入 6 位数字' };

/** Pay password status for everyone in the enterprise; set / change for the enterprise admin (issue 4). */
export default function PayPasswordCard() {
  const { userInfo } = useSession();
  // the enterprise admin sets it, with the grant the server asks (financial-assets.edit)
  const isAdmin = userInfo?.role?.code === 'enterprise_admin' && hasAction('financial-assets.edit', userInfo);
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: PAY_PASSWORD_STATUS_QUERY_KEY, queryFn: getPayPasswordStatus });
  const switches = useSwitches();
  const payPasswordOn = switches.data?.some((s) => s.code === 'PayPassword' && s.content === '1');
  const ukeyOn = switches.data?.some((s) => s.code === 'UkeySwitch' && s.content === '1');
  const [form] = Form.useForm<PasswordForm>();
  const [open, setOpen] = useState(false);
  const submitting = useRef(false);
  const isSet = status.data?.isSet ?? false;

  const submit = async (values: PasswordForm) => {
    if (submitting.current) return false;
    submitting.current = true;
    try {
      const clientId = session.get().companyInfo?.clientId ?? '';
      await setPayPassword({
        password: await hashPayPassword(clientId, values.password),
        oldPassword: isSet && values.oldPassword ? await hashPayPassword(clientId, values.oldPassword) : undefined,
      });
      message.success(isSet ? '支付密码已修改' : '支付密码已设置');
      await queryClient.invalidateQueries({ queryKey: PAY_PASSWORD_STATUS_QUERY_KEY });
      return true;
    } catch (error) {
      message.error(errorMessage(error));
      form.setFieldValue('oldPassword', '');
      await queryClient.invalidateQueries({ queryKey: PAY_PASSWORD_STATUS_QUERY_KEY });
      return false;
    } finally {
      submitting.current = false;
    }
  };

  return (
    <ProCard
      title={
        <span>
          <SafetyCertificateOutlined /> 支付密码
        </span>
      }
      headerBordered
      loading={status.isLoading}
      className="coalx-section-card"
      extra={
        isAdmin ? (
          <Button type="primary" ghost onClick={() => setOpen(true)}>
            {isSet ? '修改支付密码' : '设置支付密码'}
          </Button>
        ) : null
      }
    >
      <Descriptions column={{ xs: 1, sm: 3 }} size="small">
        <Descriptions.Item label="设置状态">{isSet ? <Tag color="success">已设置</Tag> : <Tag color="warning">未设置</Tag>}</Descriptions.Item>
        <Descriptions.Item label="交易中心验证">
          {ukeyOn ? <Tag color="purple">UKey 签章</Tag> : payPasswordOn ? <Tag color="blue">已开启支付密码</Tag> : <Tag>未开启</Tag>}
        </Descriptions.Item>
        <Descriptions.Item label="锁定状态">
          {status.data?.lockedUntil ? <Tag color="error">已锁定至 {status.data.lockedUntil}</Tag> : <Tag color="success">正常</Tag>}
        </Descriptions.Item>
      </Descriptions>
      <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
        支付密码为 6 位数字，用于出金、缴纳保证金等资金操作；连续输错 5 次将锁定支付功能 30 分钟。
        {isAdmin ? '' : '支付密码由企业管理员设置和修改。'}
      </Typography.Paragraph>
      {!isSet && payPasswordOn ? (
        <Alert
          style={{ marginTop: 12 }}
          type="warning"
          showIcon
          message="交易中心已开启支付密码验证，本企业尚未设置支付密码，出金和缴纳保证金将无法进行。"
        />
      ) : null}

      <GuardedModalForm<PasswordForm>
        title={isSet ? '修改支付密码' : '设置支付密码'}
        open={open}
        form={form}
        width={480}
        layout="vertical"
        modalProps={{ destroyOnHidden: true, maskClosable: false, onCancel: () => setOpen(false) }}
        onOpenChange={setOpen}
        submitter={{ searchConfig: { submitText: '确定', resetText: '取消' } }}
        onFinish={submit}
      >
        {isSet ? (
          <ProForm.Item name="oldPassword" label="原支付密码" rules={[{ required: true, message: '请输入原支付密码' }, sixDigits]}>
            <SixDigitInput aria-label="原支付密码" autoFocus />
          </ProForm.Item>
        ) : null}
        <ProForm.Item name="password" label={isSet ? '新支付密码' : '支付密码'} rules={[{ required: true, message: '请输入 6 位数字支付密码' }, sixDigits]}>
          <SixDigitInput aria-label="新支付密码" autoFocus={!isSet} />
        </ProForm.Item>
        <ProForm.Item
          name="confirm"
          label={isSet ? '确认新支付密码' : '确认支付密码'}
          dependencies={['password']}
          rules={[
            { required: true, message: '请再次输入支付密码' },
            {
              validator: async (_: unknown, value: string | undefined) => {
                if (value && value !== form.getFieldValue('password')) throw new Error('两次输入的密码不匹配!');
              },
            },
          ]}
        >
          <SixDigitInput aria-label="确认支付密码" />
        </ProForm.Item>
        <Typography.Text type="secondary">密码在浏览器中加密后发送，交易中心无法看到明文。</Typography.Text>
      </GuardedModalForm>
    </ProCard>
  );
}
