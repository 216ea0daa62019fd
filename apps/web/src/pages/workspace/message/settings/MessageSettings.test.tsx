import '@ant-design/v5-patch-for-react-19';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { message as toast } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MessageSettings } from '@coalx/shared';
import MessageSettingsPage from '.';

const api = vi.hoisted(() => ({ get: vi.fn(), save: vi.fn() }));
vi.mock('@/services/message', () => ({ getMessageSettings: api.get, saveMessageSettings: api.save }));

const SAVED: MessageSettings = {
  email: '',
  mobile: '13800000001',
  preferences: [{ category: 'funds', sms: false, email: false }],
};

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  vi.restoreAllMocks();
});

function renderPage() {
  api.get.mockResolvedValue(SAVED);
  api.save.mockImplementation(async (input: { email: string; preferences: MessageSettings['preferences'] }) => ({ ...SAVED, ...input }));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MessageSettingsPage />
    </QueryClientProvider>,
  );
}

const save = () => fireEvent.click(screen.getByRole('button', { name: /^保\s*存$/ }));

describe('通知设置', () => {
  it('shows the account mobile read only, 站内消息 always on and one row per category with its switches', async () => {
    renderPage();
    expect(await screen.findByDisplayValue('13800000001')).toBeTruthy();
    expect((screen.getByDisplayValue('13800000001') as HTMLInputElement).readOnly).toBe(true);
    expect(screen.getAllByText('始终开启')).toHaveLength(8);
    expect(screen.getByText(/短信只发送紧急消息（待签合同及截止、付款到期、竞价开始、竞价结果、争议）/)).toBeTruthy();
    expect(screen.getByRole('switch', { name: '资金短信' }).getAttribute('aria-checked')).toBe('false');
    expect(screen.getByRole('switch', { name: '合同短信' }).getAttribute('aria-checked')).toBe('true');
  });

  it('refuses a malformed address and e-mail switched on without one, and sends nothing', async () => {
    renderPage();
    const email = await screen.findByPlaceholderText('如：zhangsan@example.com');
    fireEvent.click(screen.getByRole('switch', { name: '交易邮件' }));
    save();
    expect(await screen.findByText('开启邮件通知前，请先填写接收邮箱')).toBeTruthy();
    fireEvent.change(email, { target: { value: 'zhangsan@' } });
    save();
    expect(await screen.findByText('邮箱地址格式不正确')).toBeTruthy();
    expect(api.save).not.toHaveBeenCalled();
  });

  it('saves the address and every row, and says 保存成功', async () => {
    const success = vi.spyOn(toast, 'success').mockImplementation(() => undefined as never);
    renderPage();
    fireEvent.change(await screen.findByPlaceholderText('如：zhangsan@example.com'), { target: { value: ' zhangsan@jinbei-coal.cn ' } });
    fireEvent.click(screen.getByRole('switch', { name: '交易邮件' }));
    fireEvent.click(screen.getByRole('switch', { name: '合同短信' }));
    save();
    await waitFor(() => expect(success).toHaveBeenCalledWith('保存成功'));
    const [input] = api.save.mock.calls[0]!;
    expect(input.email).toBe('zhangsan@jinbei-coal.cn');
    expect(input.preferences).toHaveLength(8);
    expect(input.preferences.find((p: { category: string }) => p.category === 'trade')).toEqual({ category: 'trade', sms: true, email: true });
    expect(input.preferences.find((p: { category: string }) => p.category === 'contract')).toEqual({ category: 'contract', sms: false, email: false });
    expect(input.preferences.find((p: { category: string }) => p.category === 'funds')).toEqual({ category: 'funds', sms: false, email: false });
  });
});
