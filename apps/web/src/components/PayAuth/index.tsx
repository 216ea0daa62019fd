import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { Alert, message, Modal, Space, Typography } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import type { SystemSwitch } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import { session } from '@/app/session';
import { getPayPasswordStatus, type PaymentAuth } from '@/services/funds';
import { getSwitchList } from '@/services/system';
import { hashPayPassword, isPayPasswordDigits } from './hash';
import { paymentAuthMode, type PaymentAuthMode } from './mode';
import SixDigitInput from './SixDigitInput';
import type { PaymentAuthOptions, PaymentSubmit, Pending } from './pending';
import UkeySignModal from './UkeySignModal';

export type { PaymentAuthOptions, PaymentSubmit, Pending } from './pending';

export { hashPayPassword, isPayPasswordDigits } from './hash';
export { paymentAuthMode, type PaymentAuthMode } from './mode';
export { newRequestId } from './request-id';
export { default as SixDigitInput } from './SixDigitInput';
export { signWithUkey, UKEY_NO_LOCAL_KEY } from './ukey';
export type { PaymentAuth } from '@/services/funds';

/**
 * The reusable payment-auth flow of spec §4 / issue 4. A money-moving action calls
 *
 *   const { run, holder } = usePaymentAuth();
 *   const result = await run((auth) => applyWithdrawal({ ...body, ...auth }), { action: 'withdrawal' });
 *   ...render {holder} somewhere in the page
 *
 * and `run` looks at the switches: UkeySwitch '1' → a modal shows the action and signs it with this browser's key
 * device (a challenge naming the action and the SHA-256 of `payload`), passed as `ukeySignature`;
 * else PayPassword '1' → a modal asks for the 6-digit pay password and passes its hash as `payPassword`; else the
 * submit step runs at once with `{}`.
 *
 * What `run` resolves with: submit's result, or undefined when the user cancels the password modal or the key
 * cannot sign (that is shown as a message). A refusal of submit without the modal (switches off, or UKey) rejects
 * `run`, so the caller shows it like any failed request. With the modal open, a refusal (wrong pay password,
 * locked, not enough balance…) is shown in the modal, which stays open for another try or a cancel.
 */

export const SWITCHES_QUERY_KEY = ['sys', 'switch', 'list'] as const;
export const PAY_PASSWORD_STATUS_QUERY_KEY = ['funds', 'payPassword', 'status'] as const;
/** Switches change rarely; a stale 'off' is corrected by the refusal retry in run(). */
const SWITCHES_STALE_MS = 30_000;


function modeFor(switches: SystemSwitch[], options: PaymentAuthOptions): PaymentAuthMode {
  if (!options.passwordOnly) return paymentAuthMode(switches);
  return switches.some((s) => s.code === 'PayPassword' && s.content === '1') ? 'password' : 'direct';
}

/** Server refusals meaning "the switches changed since you looked": fetch them again and ask. */
const AUTH_REQUIRED_MESSAGES = ['请输入支付密码', '请使用 UKey 签章确认本次操作'];

export function fetchSwitches(queryClient: QueryClient, fresh = false): Promise<SystemSwitch[]> {
  return queryClient.fetchQuery({
    queryKey: SWITCHES_QUERY_KEY,
    queryFn: getSwitchList,
    staleTime: fresh ? 0 : SWITCHES_STALE_MS,
  });
}

/** The switches for pages that show them (cached with the same key run() uses). */
export function useSwitches() {
  return useQuery({ queryKey: SWITCHES_QUERY_KEY, queryFn: getSwitchList, staleTime: SWITCHES_STALE_MS });
}


export function usePaymentAuth(): {
  run: <T>(submit: PaymentSubmit<T>, options?: PaymentAuthOptions) => Promise<T | undefined>;
  holder: ReactNode;
  /** The mode the last run used (for tests and for pages that label their button). */
  mode: PaymentAuthMode | null;
} {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<Pending | null>(null);
  const [mode, setMode] = useState<PaymentAuthMode | null>(null);
  const counter = useRef(0);
  const pendingRef = useRef<Pending | null>(null);
  pendingRef.current = pending;

  // A page that unmounts with the modal open resolves its caller with undefined rather than leaving it hanging.
  useEffect(() => () => pendingRef.current?.resolve(undefined), []);

  const ask = useCallback(
    <T,>(mode: Pending['mode'], submit: PaymentSubmit<T>, options: PaymentAuthOptions) =>
      new Promise<T | undefined>((resolve) => {
        counter.current += 1;
        setPending({ mode, submit, resolve: resolve as (value: unknown) => void, options, key: counter.current });
      }),
    [],
  );

  const withMode = useCallback(
    async <T,>(current: PaymentAuthMode, submit: PaymentSubmit<T>, options: PaymentAuthOptions): Promise<T | undefined> => {
      setMode(current);
      if (current === 'password' || current === 'ukey') return ask(current, submit, options);
      return submit({});
    },
    [ask],
  );

  const run = useCallback(
    async <T,>(submit: PaymentSubmit<T>, options: PaymentAuthOptions = {}): Promise<T | undefined> => {
      const first = modeFor(await fetchSwitches(queryClient), options);
      try {
        return await withMode(first, submit, options);
      } catch (error) {
        // An operator may have turned a switch on since we cached them: look again once.
        if (first === 'direct' && AUTH_REQUIRED_MESSAGES.includes(errorMessage(error, ''))) {
          const second = modeFor(await fetchSwitches(queryClient, true), options);
          if (second !== 'direct') return withMode(second, submit, options);
        }
        throw error;
      }
    },
    [queryClient, withMode],
  );

  const finish = useCallback((value: unknown) => {
    const current = pendingRef.current;
    pendingRef.current = null;
    setPending(null);
    current?.resolve(value);
  }, []);

  const holder = !pending ? null : pending.mode === 'ukey' ? (
    <UkeySignModal key={pending.key} pending={pending} onFinish={finish} />
  ) : (
    <PayPasswordModal key={pending.key} pending={pending} onFinish={finish} />
  );
  return { run, holder, mode };
}

function PayPasswordModal({ pending, onFinish }: { pending: Pending; onFinish: (value: unknown) => void }) {
  const queryClient = useQueryClient();
  const [digits, setDigits] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  // Only a hint (not set / locked); the server decides. Fetched fresh each time the modal opens.
  const status = useQuery({ queryKey: PAY_PASSWORD_STATUS_QUERY_KEY, queryFn: getPayPasswordStatus, staleTime: 0, retry: false });
  const notSet = status.data?.isSet === false;
  const lockedUntil = status.data?.lockedUntil ?? null;

  const confirm = async () => {
    if (submitting) return;
    if (!isPayPasswordDigits(digits)) {
      setError('请输入 6 位数字支付密码');
      return;
    }
    setSubmitting(true);
    setError(null);
    try {
      const payPassword = await hashPayPassword(session.get().companyInfo?.clientId ?? '', digits);
      const result = await pending.submit({ payPassword });
      onFinish(result);
    } catch (failure) {
      setError(errorMessage(failure));
      setDigits('');
      void queryClient.invalidateQueries({ queryKey: PAY_PASSWORD_STATUS_QUERY_KEY });
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Modal
      open
      title={
        <Space>
          <LockOutlined />
          {pending.options.title ?? '请输入支付密码'}
        </Space>
      }
      okText="确认支付"
      cancelText="取消"
      width={440}
      maskClosable={false}
      closable={!submitting}
      destroyOnHidden
      okButtonProps={{ loading: submitting, disabled: notSet || digits.length !== 6 }}
      cancelButtonProps={{ disabled: submitting }}
      onOk={() => void confirm()}
      onCancel={() => !submitting && onFinish(undefined)}
    >
      <div style={{ display: 'flex', flexDirection: 'column', gap: 16, padding: '8px 0' }}>
        {pending.options.description ? <div>{pending.options.description}</div> : null}
        {notSet ? (
          <Alert type="warning" showIcon message="尚未设置支付密码" description="请企业管理员先在「资金资产」中设置支付密码。" />
        ) : null}
        {lockedUntil && !error ? <Alert type="error" showIcon message={`支付功能已锁定至 ${lockedUntil}`} /> : null}
        <div style={{ display: 'flex', justifyContent: 'center' }}>
          <SixDigitInput
            autoFocus
            disabled={submitting || notSet}
            value={digits}
            onChange={(next) => {
              setDigits(next);
              if (error) setError(null);
            }}
            onEnter={() => void confirm()}
          />
        </div>
        <Typography.Text type="secondary" style={{ textAlign: 'center' }}>
          支付密码为 6 位数字，连续输错 5 次将锁定支付功能 30 分钟
        </Typography.Text>
        {error ? <Alert type="error" showIcon message={error} role="alert" /> : null}
      </div>
    </Modal>
  );
}
