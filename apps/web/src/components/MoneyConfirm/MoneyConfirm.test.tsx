import '@ant-design/v5-patch-for-react-19';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Modal } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SystemSwitch } from '@coalx/shared';
import { session } from '@/app/session';
import { userWith } from '@/test/fixtures';
import { hashPayPassword, type PaymentAuth } from '@/components/PayAuth';
import { useMoneyAction } from '.';

const switches = vi.hoisted(() => ({ current: [] as SystemSwitch[] }));
vi.mock('@/services/system', () => ({ getSwitchList: vi.fn(async () => switches.current) }));
vi.mock('@/services/funds', () => ({ getPayPasswordStatus: vi.fn(async () => ({ isSet: true, lockedUntil: null })) }));

const CLIENT_ID = 'CX000001';
const set = (payPassword: '0' | '1') => {
  switches.current = [
    { code: 'PayPassword', content: payPassword, remark: '' },
    { code: 'UkeySwitch', content: '0', remark: '' },
  ];
};

/** A page with one money action (确认月度调运), through useMoneyAction; its outcome kept for the assertions. */
function harness(submit: (auth: PaymentAuth) => Promise<string>) {
  const outcome: { value?: string; settled: boolean; confirmed: boolean } = { settled: false, confirmed: false };
  function Page() {
    const { act, holder } = useMoneyAction();
    return (
      <>
        <button
          onClick={() =>
            void act(
              { title: '确认月度调运', rows: [{ label: '金额', value: '¥325,000.00', strong: true }], next: '确认即成交', okText: '确认成交' },
              submit,
              { action: 'call_off_confirm', payload: { callOffId: 9 }, title: '确认月度调运：请输入支付密码', onConfirmed: () => (outcome.confirmed = true) },
            ).then((value) => Object.assign(outcome, { value, settled: true }))
          }
        >
          确认
        </button>
        {holder}
      </>
    );
  }
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <Page />
    </QueryClientProvider>,
  );
  return outcome;
}

beforeEach(() => {
  localStorage.clear();
  session.reset();
  session.signIn('t', userWith({}), {
    organName: '华东电力',
    clientId: CLIENT_ID,
    creditCode: '',
    enterpriseType: '',
    auditStatus: '',
    legalPerson: '',
    contactName: '',
    contactMobile: '',
    address: '',
  });
});
afterEach(async () => {
  cleanup();
  Modal.destroyAll();
  document.body.innerHTML = '';
  // the modals' close animation and unmount are scheduled, not done at once: let them run while the window exists
  await new Promise((resolve) => setTimeout(resolve, 400));
});

describe('useMoneyAction', () => {
  it('cancelling the amount asks nothing more and sends nothing', async () => {
    set('1');
    const submit = vi.fn(async () => 'done');
    const outcome = harness(submit);
    fireEvent.click(screen.getByText('确认'));
    expect(await screen.findByText('¥325,000.00')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /取\s?消/ }));
    await waitFor(() => expect(outcome.settled).toBe(true));
    expect(outcome).toMatchObject({ value: undefined, confirmed: false });
    expect(submit).not.toHaveBeenCalled();
    expect(screen.queryByText('确认月度调运：请输入支付密码')).toBeNull();
  });

  it('with PayPassword on: the amount first, then the 支付密码, whose hash goes with the request', async () => {
    set('1');
    const submit = vi.fn(async (_auth: PaymentAuth) => 'done');
    const outcome = harness(submit);
    fireEvent.click(screen.getByText('确认'));
    fireEvent.click(await screen.findByRole('button', { name: '确认成交' }));
    expect(await screen.findByText('确认月度调运：请输入支付密码')).toBeTruthy();
    expect(outcome.confirmed).toBe(true);
    const cells = await screen.findAllByRole('textbox');
    fireEvent.input(cells[0]!, { target: { value: '246810' } });
    fireEvent.click(screen.getByText('确认支付').closest('button')!);
    await waitFor(() => expect(outcome.settled).toBe(true));
    expect(outcome.value).toBe('done');
    expect(submit).toHaveBeenCalledWith({ payPassword: await hashPayPassword(CLIENT_ID, '246810') });
  });

  it('with both switches off: the amount, then the request at once', async () => {
    set('0');
    const submit = vi.fn(async (_auth: PaymentAuth) => 'done');
    const outcome = harness(submit);
    fireEvent.click(screen.getByText('确认'));
    fireEvent.click(await screen.findByRole('button', { name: '确认成交' }));
    await waitFor(() => expect(outcome.settled).toBe(true));
    expect(submit).toHaveBeenCalledWith({});
  });
});
