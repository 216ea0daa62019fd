import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ListingForm from './ListingForm';

const calls = vi.hoisted(() => ({ save: vi.fn() }));
vi.mock('@/services/listing', () => ({
  listProducts: vi.fn(async () => [
    { stockCode: 'DLM5500', stockName: '动力煤 5500', category: '动力煤', quality: { qnet: 5500, mt: 12, st: 0.8, ad: 18, vdaf: 28 }, enabled: true },
  ]),
  saveListing: calls.save,
}));
vi.mock('@/components/TradeForm/DeliveryAreaCascader', () => ({ default: () => <input aria-label="交收地区" /> }));

afterEach(cleanup);

function renderForm(tradeType: 0 | 1 = 0) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ListingForm tradeType={tradeType} onSaved={() => undefined} />
    </QueryClientProvider>,
  );
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('ListingForm', () => {
  it('labels the price by trade type (spec §4)', () => {
    renderForm(1);
    expect(screen.getByLabelText('采购价格')).toBeTruthy();
    cleanup();
    renderForm(0);
    expect(screen.getByLabelText('销售价格')).toBeTruthy();
  }, 60_000);

  it('refuses min > max > quantity and bad money before anything is sent', async () => {
    renderForm();
    type('挂牌数量', '1000');
    type('最小摘牌量', '600');
    type('最大摘牌量', '1200');
    type('销售价格', '800.123');
    fireEvent.click(screen.getByRole('button', { name: '提交审核' }));
    await screen.findByText('最大摘牌量不能大于挂牌数量', undefined, { timeout: 8000 });
    expect(await screen.findByText('最多 2 位小数', undefined, { timeout: 8000 })).toBeTruthy();
    type('最大摘牌量', '500');
    await screen.findByText('最小摘牌量不能大于最大摘牌量', undefined, { timeout: 8000 });
    await waitFor(() => expect(screen.queryByText('最大摘牌量不能大于挂牌数量')).toBeNull());
    expect(calls.save).not.toHaveBeenCalled();
  }, 60_000);
});
