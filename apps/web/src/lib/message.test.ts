import { describe, expect, it } from 'vitest';
import { dueState, MESSAGE_LIST_PATH, messageTarget, messageTime, SOON_MS, unreadSummary } from './message';

describe('message links', () => {
  it('goes to a path of this app, and to the list for anything else', () => {
    expect(messageTarget('/contract/sign?id=12')).toBe('/contract/sign?id=12');
    expect(messageTarget(null)).toBe(MESSAGE_LIST_PATH);
    expect(messageTarget('')).toBe(MESSAGE_LIST_PATH);
    expect(messageTarget('https://example.com/x')).toBe(MESSAGE_LIST_PATH);
    expect(messageTarget('//example.com/x')).toBe(MESSAGE_LIST_PATH);
    expect(messageTarget('/\\example.com')).toBe(MESSAGE_LIST_PATH);
    expect(messageTarget('javascript:alert(1)')).toBe(MESSAGE_LIST_PATH);
  });
});

describe('message times', () => {
  it('shows Asia/Shanghai minutes whatever the viewer’s zone', () => {
    expect(messageTime('2026-05-01T02:03:59.000Z')).toBe('2026-05-01 10:03');
    expect(messageTime(null)).toBe('-');
    expect(messageTime('not a time')).toBe('-');
  });

  it('urges an unread message 4 hours before its deadline and marks it overdue after; never a read one', () => {
    const due = Date.parse('2026-05-01T10:00:00Z');
    const unread = { dueAt: '2026-05-01T10:00:00Z', read: false };
    expect(dueState({ dueAt: null, read: false }, due)).toBe('none');
    expect(dueState(unread, due - SOON_MS - 1)).toBe('open');
    expect(dueState(unread, due - SOON_MS)).toBe('soon');
    expect(dueState(unread, due)).toBe('overdue');
    expect(dueState({ ...unread, read: true }, due + 1)).toBe('open');
  });
});

describe('bell summary', () => {
  it('says how many are unread and how many of them are urgent', () => {
    expect(unreadSummary(null)).toBe('消息中心：没有未读消息');
    expect(unreadSummary({ count: 0, urgent: 0 })).toBe('消息中心：没有未读消息');
    expect(unreadSummary({ count: 3, urgent: 0 })).toBe('消息中心：3 条未读');
    expect(unreadSummary({ count: 3, urgent: 2 })).toBe('消息中心：3 条未读，其中 2 条紧急');
  });
});
