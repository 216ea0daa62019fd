/**
 * The signing service's shared contract: which fields of each money action the key signs, how they are hashed, and
 * the wording of the single-use challenge text the key signs (server and browser build the same bytes).
 */
export const UKEY_ACTIONS = {
  withdrawal: { label: '出金', fields: ['amount', 'remark', 'requestId'] },
  auction_enrol: { label: '竞价报名', fields: ['tradeId', 'requestId'] },
  listing_subscribe: { label: '摘牌', fields: ['tradeId', 'quantity', 'requestId'] },
  trade_deposit: { label: '交易保证金', fields: ['tradeId', 'requestId'] },
  order_pay: { label: '支付货款', fields: ['orderId', 'requestId'] },
  statement_confirm: { label: '确认结算', fields: ['statementId'] },
  call_off_confirm: { label: '确认月度调运', fields: ['callOffId'] },
} as const;
export type UkeyAction = keyof typeof UKEY_ACTIONS;
export const isUkeyAction = (value: string): value is UkeyAction => Object.hasOwn(UKEY_ACTIONS, value);

export const UKEY_CHALLENGE_TTL_MS = 5 * 60 * 1000;
export const UKEY_NO_LOCAL_KEY = '本机未安装数字证书，请先申请或在已安装证书的电脑上操作';

/** The signed fields of an action's request, in a fixed order, as one JSON text (missing fields are null). */
export function ukeyPayloadText(action: UkeyAction, input: Record<string, unknown>): string {
  const fields = UKEY_ACTIONS[action].fields as readonly string[];
  return JSON.stringify(fields.map((f) => [f, input[f] ?? null]));
}

export async function sha256Hex(text: string | Uint8Array<ArrayBuffer>): Promise<string> {
  const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text;
  const digest = await globalThis.crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export function ukeyPayloadHash(action: UkeyAction, input: Record<string, unknown>): Promise<string> {
  return sha256Hex(ukeyPayloadText(action, input));
}

export interface UkeyChallengeFields {
  id: string;
  action: UkeyAction;
  payloadHash: string;
  nonce: string;
  expiresAt: string;
}

/** The exact text the key signs (UTF-8): a person reading it sees what they agree to. */
export function ukeyChallengeText(c: UkeyChallengeFields): string {
  return [
    'CoalX 数字证书签名',
    `编号: ${c.id}`,
    `操作: ${UKEY_ACTIONS[c.action].label} (${c.action})`,
    `内容摘要 SHA-256: ${c.payloadHash}`,
    `随机数: ${c.nonce}`,
    `有效期至: ${c.expiresAt}`,
  ].join('\n');
}

/** `ukeySignature` of a money request: challenge id, device id and the raw ECDSA r||s signature in base64url. */
export function encodeUkeySignature(s: { challengeId: string; deviceId: number; signature: string }): string {
  return `${s.challengeId}.${s.deviceId}.${s.signature}`;
}
export function decodeUkeySignature(text: string): { challengeId: string; deviceId: number; signature: string } | null {
  const m = /^([0-9a-f-]{36})\.(\d{1,15})\.([A-Za-z0-9_-]{40,200})$/.exec(text);
  if (!m) return null;
  return { challengeId: m[1]!, deviceId: Number(m[2]), signature: m[3]! };
}
