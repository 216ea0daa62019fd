import { CONTRACT_REMINDERS, CONTRACT_RULES } from './contract';
import type { NoticeRule, Reminder } from './types';

export type { Audience, Notice, NoticePlan, NoticeRule, Reminder } from './types';
export { recipientsOf, type Recipient } from './audience';
export { smsText } from './text';

/**
 * Who hears what (issue 28 item 2): each notifying event, published or scheduled, and the rule that says who is told
 * what. An event named here is written to the outbox in its own transaction (plugins/notifications.ts).
 */
export const NOTICE_RULES: Readonly<Record<string, NoticeRule>> = {
  ...CONTRACT_RULES,
};

export function noticeRuleOf(name: string): NoticeRule | undefined {
  return Object.hasOwn(NOTICE_RULES, name) ? NOTICE_RULES[name] : undefined;
}

/** The scheduled reminders (each records an event named in NOTICE_RULES, once per key). */
export const REMINDERS: readonly Reminder[] = [...CONTRACT_REMINDERS];
