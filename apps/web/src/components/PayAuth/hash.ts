import { bytesToHex, sha256 } from '@coalx/shared';

/**
 * The pay password never leaves the browser in clear (issue 4, spec §4): the server receives
 * SHA-256 hex of `${clientId}:${sixDigits}` and stores that with a memory-hard hash. Salting with the enterprise's
 * clientId keeps two enterprises with the same six digits from sending the same value.
 */
export const PAY_PASSWORD_PATTERN = /^\d{6}$/;

export function isPayPasswordDigits(digits: string): boolean {
  return PAY_PASSWORD_PATTERN.test(digits);
}

export async function hashPayPassword(clientId: string, digits: string): Promise<string> {
  if (!clientId) throw new Error('未获取到企业信息，请重新登录');
  if (!isPayPasswordDigits(digits)) throw new Error('支付密码为 6 位数字');
  const bytes = new TextEncoder().encode(`${clientId}:${digits}`);
  // crypto.subtle exists only in secure contexts (https, localhost); a plain-http intranet deployment falls back to
  // the small pure implementation in shared, which gives the same digest.
  const subtle = globalThis.crypto?.subtle;
  if (subtle) return bytesToHex(new Uint8Array(await subtle.digest('SHA-256', bytes)));
  return bytesToHex(sha256(bytes));
}

/** The fallback digest (shared with the bid log's verification), re-exported for this form's test. */
export { sha256 };
