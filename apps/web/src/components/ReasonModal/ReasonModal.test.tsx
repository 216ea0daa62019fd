import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { message } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OrderTerminateSchema } from '@coalx/shared';
import ReasonModal from '.';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function renderModal(confirm: () => Promise<boolean>) {
  const submit = vi.fn(async (values: { reason: string }) => ({ id: 7, reason: values.reason }));
  const onDone = vi.fn();
  const success = vi.spyOn(message, 'success').mockImplementation(() => undefined as never);
  render(
    <ReasonModal
      title="终止订单 · DD001"
      open
      onOpenChange={() => undefined}
      label="终止原因"
      minLength={2}
      schema={OrderTerminateSchema}
      confirm={confirm}
      submit={submit}
      done="订单已终止"
      failure="终止失败，请稍后重试"
      onDone={onDone}
    />,
  );
  return { submit, onDone, success };
}

const next = () => fireEvent.click(screen.getByRole('button', { name: /下一步/ }));

describe('ReasonModal', () => {
  it('refuses a missing or too short reason with the label’s own words, and sends nothing', async () => {
    const confirm = vi.fn(async () => true);
    const { submit } = renderModal(confirm);
    next();
    expect(await screen.findByText('请输入终止原因')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('终止原因'), { target: { value: '短' } });
    next();
    expect(await screen.findByText('终止原因至少 2 个字')).toBeTruthy();
    expect(confirm).not.toHaveBeenCalled();
    expect(submit).not.toHaveBeenCalled();
  }, 30_000);

  it('asks, then sends the checked values and says it is done; a cancelled confirmation sends nothing', async () => {
    let answer = false;
    const confirm = vi.fn(async () => answer);
    const { submit, onDone, success } = renderModal(confirm);
    fireEvent.change(screen.getByLabelText('终止原因'), { target: { value: '买方逾期未付款' } });
    next();
    await waitFor(() => expect(confirm).toHaveBeenCalledTimes(1));
    expect(submit).not.toHaveBeenCalled();
    answer = true;
    next();
    await waitFor(() => expect(onDone).toHaveBeenCalledWith({ id: 7, reason: '买方逾期未付款' }));
    expect(submit).toHaveBeenCalledWith({ reason: '买方逾期未付款' });
    expect(success).toHaveBeenCalledWith('订单已终止');
  }, 30_000);
});
