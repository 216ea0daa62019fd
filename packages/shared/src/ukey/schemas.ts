import { z } from 'zod';
import { PayPasswordHashSchema } from '../funds/schemas';
import { UKEY_ACTIONS, type UkeyAction } from './signing';
import { UKEY_REVOKE_REASONS, type UkeyRevokeReason } from './states';

const NO_CONTROL = /^[^\u0000-\u001f\u007f]*$/;

export const UkeyDeviceNameSchema = z
  .string({ error: '请输入设备名称' })
  .trim()
  .min(2, '设备名称至少 2 个字')
  .max(30, '设备名称不超过 30 个字')
  .regex(NO_CONTROL, '设备名称含有不可见字符');

/** A PKCS#10 request, base64 of its DER (the browser makes it with its own key). */
export const CsrSchema = z
  .string({ error: '缺少证书请求' })
  .max(8000, '证书请求过长')
  .regex(/^[A-Za-z0-9+/=\s]+$/, '证书请求格式不正确');

const DeviceIdSchema = z.number({ error: '请选择设备' }).int('设备编号不正确').positive('设备编号不正确');

export const UkeyApplySchema = z.strictObject({
  deviceName: UkeyDeviceNameSchema,
  csr: CsrSchema,
  /** The enterprise admin's own request is approved at once with the pay password. */
  payPassword: PayPasswordHashSchema.optional(),
});
export const UkeyRenewSchema = z.strictObject({ deviceId: DeviceIdSchema, csr: CsrSchema, payPassword: PayPasswordHashSchema.optional() });
export const UkeyDeviceIdSchema = z.strictObject({ deviceId: DeviceIdSchema });
export const UkeyRejectSchema = z.strictObject({
  deviceId: DeviceIdSchema,
  reason: z.string({ error: '请输入驳回原因' }).trim().min(2, '请输入驳回原因').max(100, '原因不超过 100 字').regex(NO_CONTROL, '原因含有不可见字符'),
});
export const UkeyRevokeSchema = z.strictObject({
  deviceId: DeviceIdSchema,
  reason: z.enum(Object.keys(UKEY_REVOKE_REASONS) as [UkeyRevokeReason, ...UkeyRevokeReason[]], { error: '请选择注销原因' }),
});
export const UkeyCertificateQuerySchema = z.strictObject({ deviceId: DeviceIdSchema.optional() });
export const UkeyChallengeRequestSchema = z.strictObject({
  action: z.enum(Object.keys(UKEY_ACTIONS) as [UkeyAction, ...UkeyAction[]], { error: '不支持签名的操作' }),
  payloadHash: z.string().regex(/^[0-9a-f]{64}$/, '内容摘要格式不正确'),
});

export const UkeyCertificateSchema = z.object({
  id: z.number(),
  deviceId: z.number(),
  serialNumber: z.string(),
  subject: z.string(),
  issuer: z.string(),
  notBefore: z.string(),
  notAfter: z.string(),
  fingerprint: z.string().describe('SHA-256 of the DER, hex with colons'),
  keyId: z.string().describe('SHA-256 hex of the public key (SPKI): the browser finds its key by it'),
  status: z.enum(['valid', 'expired', 'revoked']),
  revokedAt: z.string().nullable(),
  revokeReason: z.string().nullable(),
  userName: z.string(),
  createdAt: z.string(),
});
export const UkeyDeviceSchema = z.object({
  id: z.number(),
  name: z.string(),
  status: z.enum(['pending', 'active', 'renewing', 'rejected', 'revoked']),
  userId: z.number(),
  userName: z.string().describe('real name (username)'),
  mine: z.boolean().describe('the device belongs to the caller'),
  requestedAt: z.string(),
  pendingKeyId: z.string().nullable().describe('key of the request waiting for approval'),
  rejectReason: z.string().nullable(),
  revokedAt: z.string().nullable(),
  revokeReason: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  certificate: UkeyCertificateSchema.nullable(),
});
export const UkeyDeviceListSchema = z.object({ records: z.array(UkeyDeviceSchema), canApprove: z.boolean() });
export const UkeyChallengeSchema = z.object({
  id: z.string(),
  action: z.string(),
  payloadHash: z.string(),
  nonce: z.string(),
  expiresAt: z.string(),
  text: z.string().describe('the exact UTF-8 text the key signs'),
});

export type UkeyDevice = z.infer<typeof UkeyDeviceSchema>;
export type UkeyCertificate = z.infer<typeof UkeyCertificateSchema>;
export type UkeyChallenge = z.infer<typeof UkeyChallengeSchema>;
export type UkeyApply = z.infer<typeof UkeyApplySchema>;
