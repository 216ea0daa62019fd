/**
 * Key devices (数字证书 / UKey) and their certificates: the states and the moves between them. The server moves a
 * device only along these edges; the web shows the labels.
 */
export const UKEY_DEVICE_STATES = {
  pending: '待审批',
  active: '已启用',
  renewing: '更新待审批',
  rejected: '已驳回',
  revoked: '已注销',
} as const;
export type UkeyDeviceState = keyof typeof UKEY_DEVICE_STATES;

/** event name → [from states, to state] */
export const UKEY_DEVICE_TRANSITIONS = {
  /** the enterprise admin approves a request, or an admin's own request carries the pay password */
  issue: { from: ['pending'], to: 'active' },
  reject: { from: ['pending'], to: 'rejected' },
  /** a trader asks for a new key on a working device; the old certificate works until the new one is issued */
  request_renewal: { from: ['active'], to: 'renewing' },
  renew: { from: ['active', 'renewing'], to: 'active' },
  reject_renewal: { from: ['renewing'], to: 'active' },
  /** 删除: a pending request is withdrawn, a working device's certificate is revoked */
  revoke: { from: ['pending', 'active', 'renewing'], to: 'revoked' },
} as const satisfies Record<string, { from: readonly UkeyDeviceState[]; to: UkeyDeviceState }>;
export type UkeyDeviceEvent = keyof typeof UKEY_DEVICE_TRANSITIONS;

export function canMoveDevice(from: UkeyDeviceState, event: UkeyDeviceEvent): boolean {
  return (UKEY_DEVICE_TRANSITIONS[event].from as readonly string[]).includes(from);
}

/** A certificate is valid until revoked; 'expired' is read from the clock, never stored. */
export const UKEY_CERT_STATES = { valid: '有效', expired: '已过期', revoked: '已吊销' } as const;
export type UkeyCertState = keyof typeof UKEY_CERT_STATES;
export const UKEY_CERT_TRANSITIONS = {
  revoke: { from: ['valid'], to: 'revoked' },
} as const;

/** Why a certificate was revoked (RFC 5280 reason names; the CRL carries the code). */
export const UKEY_REVOKE_REASONS = {
  unspecified: '其他原因',
  keyCompromise: '密钥泄露或丢失',
  superseded: '证书已更新',
  cessationOfOperation: '停止使用',
} as const;
export type UkeyRevokeReason = keyof typeof UKEY_REVOKE_REASONS;
