import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { tstz } from './columns';
import { enterprises } from './enterprise';
import { fileObjects } from './files';

/**
 * A PDF prepared for one signature, waiting for the browser's key: the prepared bytes (in file storage), the
 * byte range and the signed attributes the key must sign. Single use: `used_at` is set by the one completion
 * that wins, and a session is void after `expires_at`.
 */
export const signSessions = pgTable(
  'sign_session',
  {
    id: uuid('id').primaryKey(),
    enterpriseId: bigint('enterprise_id', { mode: 'number' }).notNull().references(() => enterprises.id),
    userId: bigint('user_id', { mode: 'number' }).notNull().references(() => users.id),
    /** the key device whose certificate signs */
    deviceId: bigint('device_id', { mode: 'number' }).notNull(),
    certificateDer: text('certificate_der').notNull(),
    fileName: text('file_name').notNull(),
    /** what the signature is for: '' for a file signed on 签章管理, 'contract:<id>' for a contract */
    purpose: text('purpose').notNull().default(''),
    /** the prepared PDF, in file storage */
    preparedKey: text('prepared_key').notNull(),
    /** the four numbers of /ByteRange, space separated */
    byteRange: text('byte_range').notNull(),
    signedAttributesDer: text('signed_attributes_der').notNull(),
    signingTime: tstz('signing_time').notNull(),
    reason: text('reason').notNull(),
    signatureIndex: integer('signature_index').notNull(),
    expiresAt: tstz('expires_at').notNull(),
    usedAt: tstz('used_at'),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [index('sign_session_user_idx').on(t.userId, t.createdAt)],
);
export type SignSession = typeof signSessions.$inferSelect;
export type NewSignSession = typeof signSessions.$inferInsert;

/** A PDF the enterprise signed on 签章管理: who, with which certificate, when, and the signed file. */
export const signedDocuments = pgTable(
  'signed_document',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    sessionId: uuid('session_id').notNull().unique().references(() => signSessions.id),
    enterpriseId: bigint('enterprise_id', { mode: 'number' }).notNull().references(() => enterprises.id),
    userId: bigint('user_id', { mode: 'number' }).notNull().references(() => users.id),
    deviceId: bigint('device_id', { mode: 'number' }).notNull(),
    fileId: bigint('file_id', { mode: 'number' }).notNull().references(() => fileObjects.id),
    fileName: text('file_name').notNull(),
    sha256: text('sha256').notNull(),
    /** as they were at signing: the certificate's holder, the account, the enterprise's registered name */
    signerName: text('signer_name').notNull(),
    signerUsername: text('signer_username').notNull(),
    enterpriseName: text('enterprise_name').notNull(),
    certificateSerial: text('certificate_serial').notNull(),
    reason: text('reason').notNull(),
    signatureIndex: integer('signature_index').notNull(),
    signedAt: tstz('signed_at').notNull(),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [index('signed_document_enterprise_idx').on(t.enterpriseId, t.signedAt), check('signed_document_index_positive', sql`${t.signatureIndex} >= 1`)],
);
export type SignedDocumentRow = typeof signedDocuments.$inferSelect;
