import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import OfferModal from './OfferModal';

const calls = vi.hoisted(() => ({ save: vi.fn(), preview: vi.fn() }));
vi.mock('@/services/listing', () => ({
  listProducts: vi.fn(async () => [
    { stockCode: 'DLM5500', stockName: '动力煤 5500', category: '动力煤', quality: { qnet: 5500, mt: 12, st: 0.8, ad: 18, vdaf: 28 }, enabled: true },
  ]),
}));
vi.mock('@/services/longTerm', () => ({
  LONG_TERM_KEYS: { preview: (q: unknown) => ['longTerm', 'preview', q] },
  saveOffer: calls.save,
  previewPrice: calls.preview,
}));
vi.mock('@/components/TradeForm/DeliveryAreaCascader', () => ({ default: () => <input aria-label="交收地区" /> }));

afterEach(cleanup);

function renderModal() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <OfferModal open onClose={() => undefined} onSaved={() => undefined} />
    </QueryClientProvider>,
  );
}

describe('OfferModal', () => {
  it('plans a year from this month, 统一填写 fills every month, and nothing is sent while the form is incomplete', async () => {
    renderModal();
    const table = await screen.findByTestId('lt-plan-table', undefined, { timeout: 15_000 });
    expect(within(table).getAllByPlaceholderText('计划量')).toHaveLength(12);
    fireEvent.change(screen.getByLabelText('统一计划量'), { target: { value: '10000.5' } });
    fireEvent.click(screen.getByRole('button', { name: '统一填写' }));
    await waitFor(() => expect(screen.getByTestId('lt-plan-total').textContent).toContain('120,006.00 吨'));
    fireEvent.click(screen.getByRole('button', { name: /^发\s?布$/ }));
    expect(await screen.findByText('请选择产品', undefined, { timeout: 8000 })).toBeTruthy();
    expect(await screen.findByText('请输入基准价', undefined, { timeout: 8000 })).toBeTruthy();
    expect(calls.save).not.toHaveBeenCalled();
    // the preview waits for a complete pricing
    expect(calls.preview).not.toHaveBeenCalled();
    expect(screen.getByTestId('lt-price-preview').textContent).toContain('填写定价与合同开始月份后');
  }, 60_000);
});
