import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chainBidLog, type AuctionBidLog } from '@coalx/shared';
import BidLogVerifyPage from './index';

const TRADE = 'JJ202611220001';
const entries = chainBidLog(TRADE, [
  { seq: 1, bidder: '竞买人1', price: 65_000, at: '2026-11-22T02:10:00.000Z' },
  { seq: 2, bidder: '竞买人2', price: 65_500, at: '2026-11-22T02:20:00.123Z' },
  { seq: 3, bidder: '竞买人1', price: 66_000, at: '2026-11-22T02:59:00.456Z' },
]);
const good: AuctionBidLog = { tradeId: TRADE, tradeType: 2, productName: '动力煤 4500', entries, finalHash: entries[2]!.hash, deal: { bidder: '竞买人1', price: 66_000 } };

const served = vi.hoisted(() => ({ log: null as AuctionBidLog | null }));
vi.mock('@/services/auction', () => ({ getAuctionBidLog: vi.fn(async () => served.log) }));

afterEach(cleanup);

function renderPage(search = `?tradeId=${TRADE}`) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[`/bidLog/verify${search}`]}>
        <BidLogVerifyPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('公开出价记录验证', () => {
  it('recomputes a served log in the browser: ✔ on every row, the winner and the final hash', async () => {
    served.log = good;
    renderPage();
    const verdict = await screen.findByTestId('bid-log-verdict', undefined, { timeout: 8000 });
    expect(verdict.textContent).toContain('验证通过');
    expect(screen.getAllByTestId('bid-log-status-ok')).toHaveLength(3);
    expect(screen.getByTestId('bid-log-winner').textContent).toContain('竞买人1 · 660.00 元/吨');
    expect(screen.getByTestId('bid-log-recomputed').textContent).toContain(good.finalHash);
  }, 60_000);

  it('a changed price shows where the chain breaks', async () => {
    served.log = { ...good, entries: good.entries.map((e) => (e.seq === 2 ? { ...e, price: 65_400 } : e)) };
    renderPage();
    const verdict = await screen.findByTestId('bid-log-verdict', undefined, { timeout: 8000 });
    expect(verdict.textContent).toContain('验证未通过');
    expect(verdict.textContent).toContain('链条断在第 2 行（序号 2）');
    expect(screen.getAllByTestId('bid-log-status-ok')).toHaveLength(1);
    expect(screen.getAllByTestId('bid-log-status-broken')).toHaveLength(1);
    expect(screen.getAllByTestId('bid-log-status-unverified')).toHaveLength(1);
  }, 60_000);

  it('a long log opens on the page of the broken row', async () => {
    const long = chainBidLog(TRADE, Array.from({ length: 25 }, (_, i) => ({ seq: i + 1, bidder: `竞买人${1 + (i % 2)}`, price: 65_000 + i * 100, at: new Date(Date.UTC(2026, 10, 22, 2, i)).toISOString() })));
    served.log = { tradeId: TRADE, tradeType: 2, entries: long.map((e) => (e.seq === 23 ? { ...e, price: e.price + 1 } : e)), finalHash: long[24]!.hash };
    renderPage();
    await screen.findByTestId('bid-log-verdict', undefined, { timeout: 8000 });
    expect(screen.getAllByTestId('bid-log-status-broken')).toHaveLength(1);
    expect(screen.getAllByTestId('bid-log-status-ok')).toHaveLength(2); // rows 21 and 22 of page 2
    expect(screen.getAllByTestId('bid-log-status-unverified')).toHaveLength(2);
  }, 60_000);

  it('verifies a pasted log offline, and refuses bad JSON in Chinese', async () => {
    served.log = null;
    renderPage('');
    const paste = screen.getByTestId('bid-log-paste');
    fireEvent.change(paste, { target: { value: '{"tradeId":' } });
    fireEvent.click(screen.getByRole('button', { name: '验证粘贴的记录' }));
    expect(await screen.findByText('不是有效的 JSON，请粘贴从本平台下载或接口返回的出价记录')).toBeTruthy();
    const removed = { ...good, entries: good.entries.filter((e) => e.seq !== 2) };
    fireEvent.change(paste, { target: { value: JSON.stringify(removed) } });
    fireEvent.click(screen.getByRole('button', { name: '验证粘贴的记录' }));
    const verdict = await screen.findByTestId('bid-log-verdict');
    expect(within(verdict).getByText(/链条断在第 2 行（序号 3）/)).toBeTruthy();
  }, 60_000);
});
