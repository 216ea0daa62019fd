import type { MessageCategory, MessageQuery } from '@coalx/shared';

/** 未读 / 全部: the tabs above the list (全部 first: read ones are looked up again for their deadlines). */
export type ReadScope = 'all' | 'unread';
export const SCOPE_TABS: { key: ReadScope; label: string }[] = [
  { key: 'all', label: '全部消息' },
  { key: 'unread', label: '未读消息' },
];

export interface MessageFilters {
  scope: ReadScope;
  category?: MessageCategory | null;
  /** Asia/Shanghai days, YYYY-MM-DD */
  dateFrom?: string | null;
  dateTo?: string | null;
}

/** The list call's query from the page's filters (empty ones left out). */
export function messageQuery(filters: MessageFilters, pageNo: number, pageSize: number): Partial<MessageQuery> {
  const query: Partial<MessageQuery> = { pageNo, pageSize };
  if (filters.scope === 'unread') query.unread = 'true';
  if (filters.category) query.category = filters.category;
  if (filters.dateFrom) query.dateFrom = filters.dateFrom;
  if (filters.dateTo) query.dateTo = filters.dateTo;
  return query;
}

/** The unread tab's label with its count, e.g. '未读消息 (3)'. */
export function scopeLabel(scope: ReadScope, unreadCount: number | null | undefined): string {
  const label = SCOPE_TABS.find((t) => t.key === scope)!.label;
  return scope === 'unread' && unreadCount ? `${label} (${unreadCount > 99 ? '99+' : unreadCount})` : label;
}
