import { SMS_MAX_LENGTH, SMS_SIGN } from '@coalx/shared';

const SHANGHAI_OFFSET_MS = 8 * 3600 * 1000;

/** A time for a text message: `11-28 16:00` in Asia/Shanghai. */
export function shortTime(at: Date): string {
  const d = new Date(at.getTime() + SHANGHAI_OFFSET_MS);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/**
 * The SMS as sent: the platform's sign, the text, and `详见平台消息` when it fits; cut with an ellipsis so that the whole
 * stays within one message (70 characters, counted as characters, not bytes).
 */
export function smsText(text: string): string {
  const tail = '，详见平台消息';
  const room = SMS_MAX_LENGTH - Array.from(SMS_SIGN).length;
  const chars = Array.from(text);
  if (chars.length + Array.from(tail).length <= room) return `${SMS_SIGN}${text}${tail}`;
  if (chars.length <= room) return `${SMS_SIGN}${text}`;
  return `${SMS_SIGN}${chars.slice(0, room - 1).join('')}…`;
}
