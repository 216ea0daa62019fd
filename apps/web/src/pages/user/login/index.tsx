import { useState, type FormEvent } from 'react';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Alert, Button } from 'antd';
// the two inputs themselves, not antd's Input family (TextArea, Search, OTP): every visitor loads this page
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
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

type FieldErrors = Partial<Record<keyof LoginInput, string>>;

function validate(values: LoginInput): FieldErrors {
  const errors: FieldErrors = {};
  if (!values.username.trim()) errors.username = '请输入用户名';
  if (!values.password) errors.password = '请输入密码';
  return errors;
}

/**
 * Sign-in (spec §2 /user/login), the server's Chinese message on failure. Two fields checked by hand rather than
 * with antd's Form: Form and its validator are a quarter of this page's JavaScript, and every visitor loads it.
 */
export default function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const [values, setValues] = useState<LoginInput>({ username: '', password: '' });
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const change = (field: keyof LoginInput, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    // a field's message goes once it is filled, as a form would clear it
    if (fieldErrors[field]) setFieldErrors((e) => ({ ...e, [field]: validate({ ...values, [field]: value })[field] }));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const errors = validate(values);
    setFieldErrors(errors);
    if (errors.username || errors.password) return;
    setSubmitting(true);
    setError(null);
    try {
      const result = await login({ username: values.username.trim(), password: values.password });
      session.signIn(result.token, result.userInfo, result.enterPriseInfo);
      void loadDictionaries(result.userInfo.dictVersion);
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
          <form className="coalx-login-form" onSubmit={onSubmit} autoComplete="on" noValidate>
            <div className="coalx-login-field">
              <Input
                size="large"
                prefix={<UserOutlined />}
                placeholder="用户名"
                autoComplete="username"
                maxLength={64}
                value={values.username}
                status={fieldErrors.username ? 'error' : undefined}
                aria-invalid={Boolean(fieldErrors.username)}
                onChange={(e) => change('username', e.target.value)}
              />
              {fieldErrors.username && <div className="coalx-login-field-error">{fieldErrors.username}</div>}
            </div>
            <div className="coalx-login-field">
              <Password
                size="large"
                prefix={<LockOutlined />}
                placeholder="密码"
                autoComplete="current-password"
                maxLength={128}
                value={values.password}
                status={fieldErrors.password ? 'error' : undefined}
                aria-invalid={Boolean(fieldErrors.password)}
                onChange={(e) => change('password', e.target.value)}
              />
              {fieldErrors.password && <div className="coalx-login-field-error">{fieldErrors.password}</div>}
            </div>
            <Button type="primary" size="large" htmlType="submit" block loading={submitting}>
              登录
            </Button>
          </form>
          <div className="coalx-login-links">
            <span>还没有账号？</span>
            <Link to="/user/register">企业注册</Link>
          </div>
        </section>
      </div>
    </div>
  );
}
