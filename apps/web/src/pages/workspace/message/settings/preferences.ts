import { CHANNEL_DEFAULTS, MESSAGE_CATEGORIES, MESSAGE_CATEGORY_KEYS, type MessageCategory, type MessagePreference } from '@coalx/shared';

/**
 * One row per category in the shared order, whatever the server sent (a category it has no row for yet takes the
 * defaults: SMS on, e-mail off).
 */
export function preferenceRows(saved: readonly MessagePreference[]): (MessagePreference & { name: string })[] {
  const byCategory = new Map(saved.map((p) => [p.category, p]));
  return MESSAGE_CATEGORY_KEYS.map((category) => ({
    category,
    name: MESSAGE_CATEGORIES[category],
    sms: byCategory.get(category)?.sms ?? CHANNEL_DEFAULTS.sms,
    email: byCategory.get(category)?.email ?? CHANNEL_DEFAULTS.email,
  }));
}

export function toggle(rows: readonly MessagePreference[], category: MessageCategory, channel: 'sms' | 'email', on: boolean): MessagePreference[] {
  return rows.map((r) => (r.category === category ? { ...r, [channel]: on } : r));
}

/** Why the settings cannot be saved as they are, or null: e-mail switched on needs an address to go to. */
export function settingsProblem(email: string, rows: readonly MessagePreference[]): string | null {
  if (!email.trim() && rows.some((r) => r.email)) return '开启邮件通知前，请先填写接收邮箱';
  return null;
}

/** The body of the save: the address trimmed and one row per category, nothing else. */
export function settingsInput(email: string, rows: readonly MessagePreference[]) {
  return { email: email.trim(), preferences: rows.map(({ category, sms, email: mail }) => ({ category, sms, email: mail })) };
}
