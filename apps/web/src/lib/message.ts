import { formatDateTime, MESSAGE_CATEGORIES, type MessageCategory, type MessageRecord } from '@coalx/shared';

/** The 消息中心's texts and rules shared by the bell, the browser notice and 我的消息 (pure, tested alone). */

export const MESSAGE_LIST_PATH = '/message/list';

/**
 * Where a message's 去处理 goes: its link when it is a path of this app; anything else (another site, a
 * protocol-relative or script address) goes to the list instead, so a message can never send a trader away.
 */
export function messageTarget(link: string | null | undefined): string {
  if (!link || !link.startsWith('/') || link.startsWith('//') || link.includes('\\')) return MESSAGE_LIST_PATH;
  return link;
}

export function categoryName(category: MessageCategory | string): string {
  return MESSAGE_CATEGORIES[category as MessageCategory] ?? category;
}

/** 'YYYY-MM-DD HH:mm' in Asia/Shanghai: the seconds say nothing to a trader reading a notice. */
export function messageTime(iso: string | null | undefined): string {
  const full = formatDateTime(iso);
  return full === '-' ? full : full.slice(0, 16);
}

export type DueState = 'none' | 'open' | 'soon' | 'overdue';

/** SOON_MS before its deadline an unread message is marked 即将到期. */
export const SOON_MS = 4 * 3_600_000;

/** Whether a message's deadline is far, near (within 4 hours) or past; a read message is never urged. */
export function dueState(message: Pick<MessageRecord, 'dueAt' | 'read'>, now: number = Date.now()): DueState {
  if (!message.dueAt) return 'none';
  const due = new Date(message.dueAt).getTime();
  if (Number.isNaN(due) || message.read) return 'open';
  if (due <= now) return 'overdue';
  return due - now <= SOON_MS ? 'soon' : 'open';
}

/** The badge's tooltip: how many unread and how many of them urgent. */
export function unreadSummary(unread: { count: number; urgent: number } | null): string {
  if (!unread || unread.count === 0) return '消息中心：没有未读消息';
  return unread.urgent > 0 ? `消息中心：${unread.count} 条未读，其中 ${unread.urgent} 条紧急` : `消息中心：${unread.count} 条未读`;
}
