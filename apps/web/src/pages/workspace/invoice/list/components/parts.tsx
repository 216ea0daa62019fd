import { Tag } from 'antd';
import { INVOICE_STATUS } from '@coalx/shared';

const COLOR: Record<string, string> = { pending: 'orange', confirmed: 'green', reversed: 'default', red: 'red' };

export function InvoiceStatusTag({ status }: { status: string }) {
  return (
    <Tag color={COLOR[status] ?? 'default'} data-status={status}>
      {(INVOICE_STATUS as Record<string, string>)[status] ?? status}
    </Tag>
  );
}

/** Shanghai's today as YYYY-MM-DD (invoice dates are calendar days there). */
export const shanghaiToday = () => new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);

/** Yuan as typed (a number with at most two places) → integer fen. */
export const toFen = (yuanValue: number | undefined | null) => (typeof yuanValue === 'number' && Number.isFinite(yuanValue) ? Math.round(yuanValue * 100) : 0);
