import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { timestamps, tstz } from './columns';
import { enterprises } from './enterprise';

/**
 * A key device (数字证书): one key pair of one user, made in a browser (or later a USB key), certified by the
 * platform CA. States in packages/shared/src/ukey/states.ts. A request waiting for approval keeps its PKCS#10 here.
 */
export const ukeyDevices = pgTable(
  'ukey_device',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    enterpriseId: bigint('enterprise_id', { mode: 'number' }).notNull().references(() => enterprises.id),
    userId: bigint('user_id', { mode: 'number' }).notNull().references(() => users.id),
    name: text('name').notNull(),
    status: text('status').notNull(),
    /** base64 DER of the PKCS#10 waiting for the enterprise admin (apply or renewal), and its key's SHA-256 */
    pendingCsr: text('pending_csr'),
    pendingKeyId: text('pending_key_id'),
    requestedAt: tstz('requested_at').notNull(),
    currentCertificateId: bigint('current_certificate_id', { mode: 'number' }),
    rejectReason: text('reject_reason'),
    decidedBy: bigint('decided_by', { mode: 'number' }).references(() => users.id),
    revokedAt: tstz('revoked_at'),
    revokeReason: text('revoke_reason'),
    lastUsedAt: tstz('last_used_at'),
    ...timestamps,
  },
  (t) => [
    index('ukey_device_enterprise_idx').on(t.enterpriseId),
    check('ukey_device_status', sql`${t.status} IN ('pending', 'active', 'renewing', 'rejected', 'revoked')`),
  ],
);
export type UkeyDeviceRow = typeof ukeyDevices.$inferSelect;
export type NewUkeyDeviceRow = typeof ukeyDevices.$inferInsert;

/** Every certificate the CA issued; a renewed device keeps its old ones (revoked as superseded). */
export const ukeyCertificates = pgTable(
  'ukey_certificate',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deviceId: bigint('device_id', { mode: 'number' }).notNull().references(() => ukeyDevices.id),
    enterpriseId: bigint('enterprise_id', { mode: 'number' }).notNull().references(() => enterprises.id),
    userId: bigint('user_id', { mode: 'number' }).notNull().references(() => users.id),
    /** hex, as X.509 prints it */
    serialNumber: text('serial_number').notNull(),
    subject: text('subject').notNull(),
    issuer: text('issuer').notNull(),
    notBefore: tstz('not_before').notNull(),
    notAfter: tstz('not_after').notNull(),
    /** SHA-256 of the certificate DER (hex) and of its public key SPKI (hex) */
    fingerprint: text('fingerprint').notNull(),
    keyId: text('key_id').notNull(),
    /** base64 DER */
    der: text('der').notNull(),
    revokedAt: tstz('revoked_at'),
    revokeReason: text('revoke_reason'),
    issuedBy: bigint('issued_by', { mode: 'number' }).references(() => users.id),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('ukey_certificate_serial_uq').on(t.serialNumber), index('ukey_certificate_device_idx').on(t.deviceId)],
);
export type UkeyCertificateRow = typeof ukeyCertificates.$inferSelect;
export type NewUkeyCertificateRow = typeof ukeyCertificates.$inferInsert;

/** Single-use challenges of the signing service: the action, its payload hash, 5 minutes, used once. */
export const ukeyChallenges = pgTable(
  'ukey_challenge',
  {
    id: text('id').primaryKey(),
    userId: bigint('user_id', { mode: 'number' }).notNull().references(() => users.id),
    enterpriseId: bigint('enterprise_id', { mode: 'number' }).notNull().references(() => enterprises.id),
    action: text('action').notNull(),
    payloadHash: text('payload_hash').notNull(),
    nonce: text('nonce').notNull(),
    expiresAt: tstz('expires_at').notNull(),
    usedAt: tstz('used_at'),
    deviceId: bigint('device_id', { mode: 'number' }).references(() => ukeyDevices.id),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [index('ukey_challenge_user_idx').on(t.userId, t.createdAt)],
);
