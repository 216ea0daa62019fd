import { useState } from 'react';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Input } from 'antd';
import { Link, useLocation, useNavigate } from 'react-router';
import type { LoginInput } from '@coalx/shared';
import { loadDictionaries } from '@/app/dict';
import { pathAfterLogin } from '@/app/guard';
import { errorMessage } from '@/app/request';
import { session } from '@/app/session';
import { login } from '@/services/auth';

const FEATURES = [
  { title: '挂牌交易', text: '固定价格挂牌销售与采购，在线摘牌、即时确认' },
  { title: '竞价交易', text: '公开竞价、延时竞价，服务器统一计时，公平透明' },
  { title: '资金监管', text: '保证金冻结与释放全程留痕，资金安全可追溯' },
  { title: '履约结算', text: '合同签署、物流过磅、按实结算与开票一站完成' },
];

/** Sign-in (spec §2 /user/login): plain antd Form, the server's Chinese message on failure. */
export default function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onFinish = async (values: LoginInput) => {
    setSubmitting(true);
    setError(null);
    try {
      const result = await login({ username: values.username.trim(), password: values.password });
      session.signIn(result.token, result.userInfo, result.enterPriseInfo);
      void loadDictionaries();
      navigate(pathAfterLogin(location.search, result.userInfo.isFirstLogin === '1'), { replace: true });
    } catch (e) {
      setError(errorMessage(e, '登录失败，请稍后重试'));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <div className="coalx-login">
      <div className="coalx-login-inner">
        <section className="coalx-login-intro">
          <h1>CoalX 煤炭现货交易平台</h1>
          <p className="coalx-login-lead">服务煤矿、贸易商与电厂的一站式煤炭现货交易与履约服务平台</p>
          <ul className="coalx-login-features">
            {FEATURES.map((f) => (
              <li key={f.title}>
                <strong>{f.title}</strong>
                <span>{f.text}</span>
              </li>
            ))}
          </ul>
        </section>
        <section className="coalx-login-card">
          <h2>账户登录</h2>
          <p className="coalx-login-card-sub">欢迎回来，请使用交易账号登录</p>
          {error && <Alert className="coalx-login-error" type="error" showIcon message={error} role="alert" />}
          <Form<LoginInput> layout="vertical" size="large" requiredMark={false} onFinish={onFinish} autoComplete="on">
            <Form.Item name="username" rules={[{ required: true, whitespace: true, message: '请输入用户名' }]}>
              <Input prefix={<UserOutlined />} placeholder="用户名" autoComplete="username" maxLength={64} />
            </Form.Item>
            <Form.Item name="password" rules={[{ required: true, message: '请输入密码' }]}>
              <Input.Password prefix={<LockOutlined />} placeholder="密码" autoComplete="current-password" maxLength={128} />
            </Form.Item>
            <Form.Item style={{ marginBottom: 12 }}>
              <Button type="primary" htmlType="submit" block loading={submitting}>
                登录
              </Button>
            </Form.Item>
          </Form>
          <div className="coalx-login-links">
            <span>还没有账号？</span>
            <Link to="/user/register">企业注册</Link>
          </div>
        </section>
      </div>
    </div>
  );
}
