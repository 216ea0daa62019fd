import { defineStateMachine, type StateOf } from '../state-machine';

/**
 * A key device (数字证书 / UKey): applied for, issued by the platform CA, renewed with a new key, revoked. The server
 * moves it only through this table (lib/transition.ts); the web shows the labels.
 */
export const UkeyDeviceStates = defineStateMachine({
  label: '数字证书状态',
  states: { pending: '待审批', active: '已启用', renewing: '更新待审批', rejected: '已驳回', revoked: '已注销' },
  moves: {
    /** the enterprise admin approves a request, or an admin's own request carries the pay password */
    issue: { from: ['pending'], to: 'active', event: 'ukey.device_issued' },
    reject: { from: ['pending'], to: 'rejected', event: 'ukey.device_rejected' },
    /** a trader asks for a new key on a working device; the old certificate works until the new one is issued */
    requestRenewal: { from: ['active'], to: 'renewing', event: 'ukey.renewal_requested' },
    renew: { from: ['active', 'renewing'], to: 'active', event: 'ukey.device_renewed' },
    rejectRenewal: { from: ['renewing'], to: 'active', event: 'ukey.renewal_rejected' },
    /** 删除: a waiting request is withdrawn, a working device's certificate goes on the revocation list */
    revoke: { from: ['pending', 'active', 'renewing'], to: 'revoked', event: 'ukey.device_revoked' },
  },
});
export type UkeyDeviceState = StateOf<typeof UkeyDeviceStates>;
export const UKEY_DEVICE_STATES = UkeyDeviceStates.states;

/**
 * A certificate is valid until revoked (a revocation is a dated fact with a reason, as in the CRL); 'expired' is read
 * from the clock, never stored.
 */
export const UKEY_CERT_STATES = { valid: '有效', expired: '已过期', revoked: '已吊销' } as const;
export type UkeyCertState = keyof typeof UKEY_CERT_STATES;

/** Why a certificate was revoked (RFC 5280 reason names; the CRL carries the code). */
export const UKEY_REVOKE_REASONS = {
  unspecified: '其他原因',
  keyCompromise: '密钥泄露或丢失',
  superseded: '证书已更新',
  cessationOfOperation: '停止使用',
} as const;
export type UkeyRevokeReason = keyof typeof UKEY_REVOKE_REASONS;
