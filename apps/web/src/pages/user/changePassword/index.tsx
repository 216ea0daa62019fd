import { useState } from 'react';
import { LockOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Form, Input, message } from 'antd';
import { useNavigate } from 'react-router';
import { NewPasswordSchema, PASSWORD_MISMATCH_TEXT, PASSWORD_RULE_TEXT, type UpdatePasswordInput } from '@coalx/shared';
import { HOME_PATH } from '@/app/guard';
import { errorMessage } from '@/app/request';
import { isFirstLogin, session, useSession } from '@/app/session';
import { updatePassword } from '@/services/auth';

/** Change password (spec §2/§4/§5); a first login must pass here before anything else. */
export default function ChangePasswordPage() {
  const navigate = useNavigate();
  const s = useSession();
  const first = isFirstLogin(s);
  const [form] = Form.useForm<UpdatePasswordInput>();
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onFinish = async (values: UpdatePasswordInput) => {
    setSubmitting(true);
    setError(null);
    try {
      await updatePassword(values);
      const { userInfo } = session.get();
      if (userInfo) session.setUserInfo({ ...userInfo, isFirstLogin: '0' });
      message.success('密码修改成功');
      navigate(HOME_PATH, { replace: true });
    } catch (e) {
      setError(errorMessage(e, '密码修改失败，请稍后重试'));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <div className="coalx-form-page">
      <Card className="coalx-form-card" variant="borderless" title="修改密码">
        {first && (
          <Alert
            className="coalx-form-alert"
            type="warning"
            showIcon
            message="首次登录，请先修改初始密码"
            description="为保障账户与交易安全，修改密码后方可使用平台的其他功能。"
          />
        )}
        {error && <Alert className="coalx-form-alert" type="error" showIcon message={error} role="alert" />}
        <Form<UpdatePasswordInput> form={form} layout="vertical" onFinish={onFinish} requiredMark>
          <Form.Item label="原密码" name="oldPassword" rules={[{ required: true, message: '请输入原密码' }]}>
            <Input.Password prefix={<LockOutlined />} placeholder="请输入原密码" autoComplete="current-password" />
          </Form.Item>
          <Form.Item
            label="新密码"
            name="password"
            extra={PASSWORD_RULE_TEXT}
            rules={[
              { required: true, message: '请输入新密码' },
              {
                validator: (_, value: string | undefined) => {
                  if (!value) return Promise.resolve();
                  const parsed = NewPasswordSchema.safeParse(value);
                  return parsed.success ? Promise.resolve() : Promise.reject(new Error(parsed.error.issues[0]?.message ?? PASSWORD_RULE_TEXT));
                },
              },
            ]}
          >
            <Input.Password prefix={<LockOutlined />} placeholder="请输入新密码" autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            label="确认新密码"
            name="confirmPassword"
            dependencies={['password']}
            rules={[
              { required: true, message: '请再次输入新密码' },
              ({ getFieldValue }) => ({
                validator: (_, value: string | undefined) =>
                  !value || getFieldValue('password') === value ? Promise.resolve() : Promise.reject(new Error(PASSWORD_MISMATCH_TEXT)),
              }),
            ]}
          >
            <Input.Password prefix={<LockOutlined />} placeholder="请再次输入新密码" autoComplete="new-password" />
          </Form.Item>
          <Form.Item style={{ marginBottom: 0 }}>
            <Button type="primary" htmlType="submit" block size="large" loading={submitting}>
              确认修改
            </Button>
          </Form.Item>
        </Form>
      </Card>
    </div>
  );
}
