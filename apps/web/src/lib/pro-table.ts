/** Helpers of the workspace's ProTables. */
import { LIST_COUNT_LIMIT } from '@coalx/shared';

/** A code → text map as a ProTable valueEnum. */
export const enumOf = (map: Record<string, string>) => Object.fromEntries(Object.entries(map).map(([k, text]) => [k, { text }]));

/**
 * ProTable's paging settings for the workspace (spec: 10 a page). A list counts up to LIST_COUNT_LIMIT rows, so a
 * total that reaches it is a lower bound: the page says so and asks for a narrower search.
 */
export const WS_PAGINATION = {
  pageSize: 10,
  showSizeChanger: false,
  showTotal: (total: number) => (total >= LIST_COUNT_LIMIT ? `至少 ${total} 条，请缩小查询范围` : `共 ${total} 条`),
};

/** ProTable params → a trimmed query (empty strings dropped, numbers from selects). */
export function cleanParams(p: Record<string, unknown>, numeric: string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(p)) {
    if (k === 'current' || k === 'pageSize' || v === undefined || v === null || v === '') continue;
    out[k] = numeric.includes(k) ? Number(v) : typeof v === 'string' ? v.trim() : v;
  }
  return out;
}
