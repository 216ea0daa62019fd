import { useEffect, useState } from 'react';
import { Button, Input, Space, message } from 'antd';
import { MOBILE_PATTERN } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import { sendSmsCode } from '@/services/enterprise';

interface Props {
  value?: string;
  onChange?: (value: string) => void;
  /** Reads the mobile field of the form when the button is pressed. */
  getMobile: () => string | undefined;
  id?: string;
}

/** The SMS code field with its 获取验证码 button and the 60 s countdown the server enforces. */
export default function SmsCodeInput({ value, onChange, getMobile, id }: Props) {
  const [wait, setWait] = useState(0);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (wait <= 0) return;
    const timer = setTimeout(() => setWait((w) => w - 1), 1000);
    return () => clearTimeout(timer);
  }, [wait]);

  const send = async () => {
    const mobile = getMobile()?.trim();
    if (!mobile || !MOBILE_PATTERN.test(mobile)) {
      message.error('请先输入正确的 11 位手机号码');
      return;
    }
    setSending(true);
    try {
      const result = await sendSmsCode(mobile);
      message.success('验证码已发送，5 分钟内有效');
      setWait(result.resendIn);
    } catch (e) {
      message.error(errorMessage(e, '验证码发送失败，请稍后重试'));
      const seconds = /(\d+) 秒后/.exec(errorMessage(e, ''))?.[1];
      if (seconds) setWait(Number(seconds));
    } finally {
      setSending(false);
    }
  };

  return (
    <Space.Compact style={{ width: '100%' }}>
      <Input
        id={id}
        value={value}
        onChange={(e) => onChange?.(e.target.value.replace(/\D/g, '').slice(0, 6))}
        placeholder="6 位短信验证码"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
      />
      <Button onClick={send} loading={sending} disabled={wait > 0} style={{ minWidth: 120 }}>
        {wait > 0 ? `${wait} 秒后重发` : '获取验证码'}
      </Button>
    </Space.Compact>
  );
}
