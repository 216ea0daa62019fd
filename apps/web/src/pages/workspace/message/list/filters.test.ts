import { describe, expect, it } from 'vitest';
import { messageQuery, scopeLabel } from './filters';

describe('我的消息 filters', () => {
  it('sends only the filters set', () => {
    expect(messageQuery({ scope: 'all' }, 1, 10)).toEqual({ pageNo: 1, pageSize: 10 });
    expect(messageQuery({ scope: 'unread', category: 'contract', dateFrom: '2026-05-01', dateTo: '2026-05-31' }, 3, 20)).toEqual({
      pageNo: 3,
      pageSize: 20,
      unread: 'true',
      category: 'contract',
      dateFrom: '2026-05-01',
      dateTo: '2026-05-31',
    });
    expect(messageQuery({ scope: 'all', category: null, dateFrom: null, dateTo: null }, 1, 10)).toEqual({ pageNo: 1, pageSize: 10 });
  });

  it('counts the unread ones on their tab', () => {
    expect(scopeLabel('all', 5)).toBe('全部消息');
    expect(scopeLabel('unread', 0)).toBe('未读消息');
    expect(scopeLabel('unread', 5)).toBe('未读消息 (5)');
    expect(scopeLabel('unread', 120)).toBe('未读消息 (99+)');
  });
});
