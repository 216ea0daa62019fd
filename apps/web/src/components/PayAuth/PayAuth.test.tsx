import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SystemSwitch } from '@coalx/shared';
import { session } from '@/app/session';
import { userWith } from '@/test/fixtures';
import { hashPayPassword } from './hash';
import { usePaymentAuth, type PaymentAuth } from '.';

const switches = vi.hoisted(() => ({ current: [] as SystemSwitch[], calls: 0 }));
vi.mock('@/services/system', () => ({
  getSwitchList: vi.fn(async () => {
    switches.calls += 1;
    return switches.current;
  }),
}));
vi.mock('@/services/funds', () => ({ getPayPasswordStatus: vi.fn(async () => ({ isSet: true, lockedUntil: null })) }));
const ukey = vi.hoisted(() => ({
  sign: vi.fn<(action: string, payload: Record<string, unknown>, device: unknown) => Promise<string>>(),
  devices: vi.fn<() => Promise<unknown[]>>(),
}));
vi.mock('./ukey', () => ({
  signWithUkey: ukey.sign,
  usableUkeyDevices: ukey.devices,
  UKEY_NO_LOCAL_KEY: '本机未安装数字证书，请先申请或在已安装证书的电脑上操作',
}));
const LOCAL_DEVICE = { id: 7, name: '财务室电脑', certificate: { serialNumber: '0123456789abcdef', notAfter: '2027-11-23 10:00:00' } };

const set = (payPassword: '0' | '1', ukeySwitch: '0' | '1') => {
  switches.current = [
    { code: 'PayPassword', content: payPassword, remark: '' },
    { code: 'UkeySwitch', content: ukeySwitch, remark: '' },
  ];
};

const CLIENT_ID = 'CX000001';

/** A page with one money-moving button; `run`'s outcome is kept for the assertions. */
function harness(submit: (auth: PaymentAuth) => Promise<string>, extra: { passwordOnly?: boolean } = {}) {
  const outcome: { value?: string; settled: boolean; error?: unknown } = { settled: false };
  function Page() {
    const { run, holder } = usePaymentAuth();
    return (
      <>
        <button
          onClick={() =>
            run(submit, { action: 'withdrawal', payload: { amount: 100_000 }, description: '出金 ¥1,000.00', ...extra }).then(
              (value) => Object.assign(outcome, { value, settled: true }),
              (error) => Object.assign(outcome, { error, settled: true }),
            )
          }
        >
          出金
        </button>
        {holder}
      </>
    );
  }
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <Page />
    </QueryClientProvider>,
  );
  return outcome;
}

/** The modal's confirm button (its accessible name also holds the loading icon's label while sending). */
const okButton = () => screen.getByText('确认支付').closest('button')!;

async function typeDigits(digits: string) {
  const cells = await screen.findAllByRole('textbox');
  fireEvent.input(cells[0]!, { target: { value: digits } });
}

beforeEach(() => {
  localStorage.clear();
  session.reset();
  session.signIn('t', userWith({ FinancialApplication: ['query'] }), {
    organName: '晋北煤业',
    clientId: CLIENT_ID,
    creditCode: '',
    enterpriseType: '',
    auditStatus: '',
    legalPerson: '',
    contactName: '',
    contactMobile: '',
    address: '',
  });
  switches.calls = 0;
  ukey.sign.mockReset();
  ukey.devices.mockReset();
});
afterEach(cleanup);

describe('usePaymentAuth', () => {
  it('for an action signed with a certificate (passwordOnly) asks only for the pay password, even with UkeySwitch on', async () => {
    set('1', '1');
    const submit = vi.fn(async (_auth: PaymentAuth) => 'ok');
    const outcome = harness(submit, { passwordOnly: true });
    fireEvent.click(screen.getByText('出金'));
    await screen.findByText('请输入支付密码');
    await typeDigits('123456');
    fireEvent.click(okButton());
    await waitFor(() => expect(outcome.settled).toBe(true));
    expect(ukey.sign).not.toHaveBeenCalled();
    expect(submit).toHaveBeenCalledWith({ payPassword: await hashPayPassword(CLIENT_ID, '123456') });
  });

  it('for an action signed with a certificate runs at once when only UkeySwitch is on', async () => {
    set('0', '1');
    const submit = vi.fn(async () => 'ok');
    const outcome = harness(submit, { passwordOnly: true });
    fireEvent.click(screen.getByText('出金'));
    await waitFor(() => expect(outcome.settled).toBe(true));
    expect(submit).toHaveBeenCalledWith({});
    expect(ukey.sign).not.toHaveBeenCalled();
  });

  it('runs the submit step directly when both switches are off', async () => {
    set('0', '0');
    const submit = vi.fn(async () => 'ok');
    const outcome = harness(submit);
    fireEvent.click(screen.getByText('出金'));
    await waitFor(() => expect(outcome.settled).toBe(true));
    expect(submit).toHaveBeenCalledWith({});
    expect(outcome.value).toBe('ok');
    expect(screen.queryByText('请输入支付密码')).toBeNull();
  });

  it('with PayPassword on asks for the password first and sends its hash', async () => {
    set('1', '0');
    const submit = vi.fn(async (_auth: PaymentAuth) => 'ok');
    const outcome = harness(submit);
    fireEvent.click(screen.getByText('出金'));
    await screen.findByText('请输入支付密码');
    expect(screen.getByText('出金 ¥1,000.00')).toBeTruthy();
    expect(submit).not.toHaveBeenCalled();
    await typeDigits('123456');
    fireEvent.click(okButton());
    await waitFor(() => expect(outcome.settled).toBe(true));
    expect(submit).toHaveBeenCalledWith({ payPassword: await hashPayPassword(CLIENT_ID, '123456') });
    expect(outcome.value).toBe('ok');
    await waitFor(() => expect(screen.queryByText('请输入支付密码')).toBeNull());
  });

  it('shows a refusal in the modal and keeps it open; a later success closes it', async () => {
    set('1', '0');
    const submit = vi
      .fn<(auth: PaymentAuth) => Promise<string>>()
      .mockRejectedValueOnce({ success: false, code: 422, message: '支付密码错误，还可尝试 4 次', status: 422 })
      .mockResolvedValueOnce('ok');
    const outcome = harness(submit);
    fireEvent.click(screen.getByText('出金'));
    await typeDigits('111111');
    fireEvent.click(okButton());
    expect(await screen.findByText('支付密码错误，还可尝试 4 次')).toBeTruthy();
    expect(screen.getByText('请输入支付密码')).toBeTruthy();
    expect(outcome.settled).toBe(false);
    await typeDigits('123456');
    fireEvent.click(okButton());
    await waitFor(() => expect(outcome.value).toBe('ok'));
    expect(submit).toHaveBeenCalledTimes(2);
  });

  it('resolves undefined when the user cancels', async () => {
    set('1', '0');
    const submit = vi.fn(async () => 'ok');
    const outcome = harness(submit);
    fireEvent.click(screen.getByText('出金'));
    await screen.findByText('请输入支付密码');
    fireEvent.click(screen.getByRole('button', { name: /取\s*消/ }));
    await waitFor(() => expect(outcome.settled).toBe(true));
    expect(outcome.value).toBeUndefined();
    expect(submit).not.toHaveBeenCalled();
  });

  it('with UkeySwitch on shows the amount, then signs the action and its payload with the local key (even with PayPassword on)', async () => {
    set('1', '1');
    ukey.devices.mockResolvedValue([LOCAL_DEVICE]);
    ukey.sign.mockResolvedValue('SIGNED');
    const submit = vi.fn(async (_auth: PaymentAuth) => 'ok');
    const outcome = harness(submit);
    fireEvent.click(screen.getByText('出金'));
    expect(await screen.findByText('出金 ¥1,000.00')).toBeTruthy();
    expect(await screen.findByText(/财务室电脑/)).toBeTruthy();
    expect(submit).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: /签名并确认/ }));
    await waitFor(() => expect(outcome.settled).toBe(true));
    expect(ukey.sign).toHaveBeenCalledWith('withdrawal', { amount: 100_000 }, LOCAL_DEVICE);
    expect(submit).toHaveBeenCalledWith({ ukeySignature: 'SIGNED' });
    expect(outcome.value).toBe('ok');
    expect(screen.queryByText('请输入支付密码')).toBeNull();
  });

  it('says exactly that this computer has no certificate, and submits nothing', async () => {
    set('0', '1');
    ukey.devices.mockResolvedValue([]);
    const submit = vi.fn(async () => 'ok');
    const outcome = harness(submit);
    fireEvent.click(screen.getByText('出金'));
    expect(await screen.findByText('本机未安装数字证书，请先申请或在已安装证书的电脑上操作')).toBeTruthy();
    expect((screen.getByRole('button', { name: /签名并确认/ }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: /取\s*消/ }));
    await waitFor(() => expect(outcome.settled).toBe(true));
    expect(outcome.value).toBeUndefined();
    expect(submit).not.toHaveBeenCalled();
  });

  it('shows a refused signature in the modal and does not settle', async () => {
    set('0', '1');
    ukey.devices.mockResolvedValue([LOCAL_DEVICE]);
    ukey.sign.mockRejectedValue({ success: false, code: 422, message: '该数字证书已注销，请重新申请', status: 422 });
    const submit = vi.fn(async () => 'ok');
    const outcome = harness(submit);
    fireEvent.click(screen.getByText('出金'));
    await screen.findByText(/财务室电脑/);
    fireEvent.click(screen.getByRole('button', { name: /签名并确认/ }));
    expect(await screen.findByText('该数字证书已注销，请重新申请')).toBeTruthy();
    expect(outcome.settled).toBe(false);
    expect(submit).not.toHaveBeenCalled();
  });

  it('looks at the switches again when the server asks for a password the cache said was off', async () => {
    set('0', '0');
    const submit = vi
      .fn<(auth: PaymentAuth) => Promise<string>>()
      .mockRejectedValueOnce({ success: false, code: 422, message: '请输入支付密码', status: 422 })
      .mockResolvedValueOnce('ok');
    const outcome = harness(submit);
    fireEvent.click(screen.getByText('出金'));
    act(() => set('1', '0'));
    await screen.findByText('请输入支付密码');
    await typeDigits('123456');
    fireEvent.click(okButton());
    await waitFor(() => expect(outcome.value).toBe('ok'));
    expect(switches.calls).toBe(2);
  });

  it('passes other refusals of a direct submit to the caller', async () => {
    set('0', '0');
    const refusal = { success: false, code: 422, message: '可用余额不足', status: 422 };
    const outcome = harness(vi.fn(async () => Promise.reject(refusal)));
    fireEvent.click(screen.getByText('出金'));
    await waitFor(() => expect(outcome.settled).toBe(true));
    expect(outcome.error).toBe(refusal);
  });
});
