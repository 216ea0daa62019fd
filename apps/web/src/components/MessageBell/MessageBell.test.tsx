import '@ant-design/v5-patch-for-react-19';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { message as toast, notification } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MessageRecord } from '@coalx/shared';
import { messageChannel } from '@/hooks/useMessageChannel';
import { MemoryRouter, Route, Routes } from 'react-router';
import MessageBell from '.';
import BellPanel from './BellPanel';
import { noticeKey, showUrgentNotice } from './urgent-notice';

const api = vi.hoisted(() => ({
  list: vi.fn(),
  markRead: vi.fn(),
}));
vi.mock('@/services/message', () => ({
  listMessages: api.list,
  markRead: api.markRead,
  getUnreadCount: vi.fn(async () => ({ count: 0, urgent: 0 })),
}));

const record = (id: number, over: Partial<MessageRecord> = {}): MessageRecord => ({
  id,
  kind: 'contract.to_sign',
  category: 'contract',
  title: '待签署合同',
  content: '合同 HT2026050100001 已生成，请在截止时间前完成签署。',
  dueAt: '2026-05-02T02:00:00.000Z',
  link: '/contract/sign?id=12',
  urgent: true,
  read: false,
  createdAt: '2026-05-01T02:00:00.000Z',
  ...over,
});

afterEach(async () => {
  cleanup();
  notification.destroy();
  toast.destroy();
  vi.clearAllMocks();
  vi.restoreAllMocks();
  // the notices' and the panel's close animations and unmounts are scheduled, not done at once: let them run while
  // the test window still exists (React work after it is gone fails the whole run)
  await new Promise((resolve) => setTimeout(resolve, 400));
});

function renderPanel(count: number) {
  const onNavigate = vi.fn();
  const onFollow = vi.fn();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <BellPanel unread={{ count, urgent: 1 }} version={0} onNavigate={onNavigate} onFollow={onFollow} />
    </QueryClientProvider>,
  );
  return { onNavigate, onFollow };
}

describe('the bell’s panel', () => {
  it('lists the latest unread messages with 查看, and 查看全部 opens 我的消息', async () => {
    api.list.mockResolvedValue({ records: [record(7), record(8, { title: '付款到期提醒', urgent: false })], total: 2, current: 1, size: 5 });
    const { onNavigate, onFollow } = renderPanel(2);
    expect(await screen.findByText('付款到期提醒')).toBeTruthy();
    expect(api.list).toHaveBeenCalledWith({ unread: 'true', pageNo: 1, pageSize: 5 });
    expect(screen.getByText('2 条未读')).toBeTruthy();
    expect(screen.getAllByText('紧急')).toHaveLength(1);
    expect(screen.getAllByText('2026-05-01 10:00')).toHaveLength(2);
    fireEvent.click(screen.getAllByRole('button', { name: '查看' })[0]!);
    expect(onFollow).toHaveBeenCalledWith(expect.objectContaining({ id: 7 }));
    fireEvent.click(screen.getByRole('button', { name: '查看全部' }));
    expect(onNavigate).toHaveBeenCalledWith('/message/list');
  });

  it('全部已读 marks every one and shows the new count on the bell at once', async () => {
    api.list.mockResolvedValue({ records: [record(7)], total: 1, current: 1, size: 5 });
    api.markRead.mockResolvedValue({ marked: 1, unread: { count: 0, urgent: 0 } });
    const success = vi.spyOn(toast, 'success').mockImplementation(() => undefined as never);
    renderPanel(1);
    await screen.findByText('待签署合同');
    fireEvent.click(screen.getByRole('button', { name: '全部已读' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('已将 1 条消息标为已读'));
    expect(api.markRead).toHaveBeenCalledWith({ all: true });
    expect(messageChannel.getState().unread).toEqual({ count: 0, urgent: 0 });
  });

  it('says so when nothing is unread, with 全部已读 off', async () => {
    api.list.mockResolvedValue({ records: [], total: 0, current: 1, size: 5 });
    renderPanel(0);
    expect(await screen.findByText('暂无未读消息')).toBeTruthy();
    expect((screen.getByRole('button', { name: '全部已读' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

/** Every media query answers `wide`: antd's breakpoints see a desk (true) or a phone (false). */
function screenWide(wide: boolean) {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        matches: wide,
        media: query,
        onchange: null,
        addListener: () => {},
        removeListener: () => {},
        addEventListener: () => {},
        removeEventListener: () => {},
        dispatchEvent: () => false,
      }) as unknown as MediaQueryList,
  );
}

function renderBell() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/workbench']}>
        <Routes>
          <Route path="/workbench" element={<MessageBell />} />
          <Route path="/contract/sign" element={<p>合同签署页</p>} />
          <Route path="/message/list" element={<p>我的消息页</p>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('the bell', () => {
  it('opens its panel on a click, and 查看 goes to the message’s page and marks it read', async () => {
    screenWide(true);
    api.list.mockResolvedValue({ records: [record(7)], total: 1, current: 1, size: 5 });
    api.markRead.mockResolvedValue({ marked: 1, unread: { count: 0, urgent: 0 } });
    renderBell();
    fireEvent.click(screen.getByTestId('message-bell'));
    expect(await screen.findByText('待签署合同')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '查看' }));
    expect(await screen.findByText('合同签署页')).toBeTruthy();
    await waitFor(() => expect(api.markRead).toHaveBeenCalledWith({ ids: [7] }));
  });

  it('on a phone opens 我的消息 instead of a panel the screen has no room for', async () => {
    screenWide(false);
    renderBell();
    fireEvent.click(screen.getByTestId('message-bell'));
    expect(await screen.findByText('我的消息页')).toBeTruthy();
    expect(api.list).not.toHaveBeenCalled();
  });
});

describe('the browser notice of an urgent message', () => {
  it('shows what happened, by when, and 去处理 follows the message and closes the notice', async () => {
    const follow = vi.fn();
    act(() => showUrgentNotice(record(9), follow));
    expect(await screen.findByText('合同 HT2026050100001 已生成，请在截止时间前完成签署。')).toBeTruthy();
    expect(screen.getByText('截止时间：2026-05-02 10:00')).toBeTruthy();
    // the same message told again (a reconnect) is one notice
    act(() => showUrgentNotice(record(9), follow));
    await waitFor(() => expect(document.querySelectorAll('[data-testid="message-notice"]')).toHaveLength(1));
    const close = vi.spyOn(notification, 'destroy');
    fireEvent.click(screen.getByRole('button', { name: '去处理' }));
    expect(follow).toHaveBeenCalledWith(expect.objectContaining({ id: 9, link: '/contract/sign?id=12' }));
    expect(close).toHaveBeenCalledWith(noticeKey(9));
  });
});
