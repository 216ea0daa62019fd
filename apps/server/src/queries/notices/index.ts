import { ACCOUNT_REMINDERS, ACCOUNT_RULES } from './account';
import { CONTRACT_REMINDERS, CONTRACT_RULES } from './contract';
import { DELIVERY_REMINDERS, DELIVERY_RULES } from './delivery';
import { LONG_TERM_REMINDERS, LONG_TERM_RULES } from './long-term';
import { SETTLEMENT_RULES } from './settlement';
import { FUNDS_RULES } from './funds';
import { TRADE_REMINDERS, TRADE_RULES } from './trade';
import type { NoticeRule, Reminder } from './types';
import { WEBHOOK_RULES } from './webhook';

export type { Audience, Notice, NoticePlan, NoticeRule, Reminder } from './types';
export { recipientsOf, type Recipient } from './audience';
export { smsText } from './text';

/**
 * Who hears what (issue 28 item 2): each notifying event, published or scheduled, and the rule that says who is told
 * what. An event named here is written to the outbox in its own transaction (plugins/notifications.ts).
 */
export const NOTICE_RULES: Readonly<Record<string, NoticeRule>> = {
  ...CONTRACT_RULES,
  ...TRADE_RULES, ...FUNDS_RULES, ...ACCOUNT_RULES,
  ...DELIVERY_RULES, ...SETTLEMENT_RULES, ...LONG_TERM_RULES,
  ...WEBHOOK_RULES,
};

export function noticeRuleOf(name: string): NoticeRule | undefined {
  return Object.hasOwn(NOTICE_RULES, name) ? NOTICE_RULES[name] : undefined;
}

/** The scheduled reminders (each records an event named in NOTICE_RULES, once per key). */
export const REMINDERS: readonly Reminder[] = [...CONTRACT_REMINDERS, ...TRADE_REMINDERS, ...ACCOUNT_REMINDERS, ...DELIVERY_REMINDERS, ...LONG_TERM_REMINDERS];
