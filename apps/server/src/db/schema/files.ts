import { bigint, bigserial, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { bytea, tstz } from './columns';
import { enterprises } from './enterprise';
import { users } from './auth';

/** Uploaded files; the bytes live in the file storage under `storageKey`. */
export const fileObjects = pgTable('file_object', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  storageKey: text('storage_key').notNull().unique(),
  originalName: text('original_name').notNull(),
  contentType: text('content_type').notNull(),
  size: integer('size').notNull(),
  sha256: text('sha256').notNull(),
  /** 'public' (banners, announcement PDFs) or 'private' (licences, vouchers). */
  visibility: text('visibility').notNull(),
  ownerEnterpriseId: bigint('owner_enterprise_id', { mode: 'number' }).references(() => enterprises.id),
  /** Null for a visitor's registration attachment, until the registration claims it for its enterprise. */
  uploadedBy: bigint('uploaded_by', { mode: 'number' }).references(() => users.id),
  /** Why it was uploaded: '' by a signed-in user, 'register' by a visitor registering an enterprise. */
  scene: text('scene').notNull().default(''),
  createdAt: tstz('created_at').notNull().defaultNow(),
});

export type FileObject = typeof fileObjects.$inferSelect;
export type NewFileObject = typeof fileObjects.$inferInsert;

/**
 * File bytes on PostgreSQL (DatabaseFileStorage), so every server process of one database serves every file; on
 * PGlite they stay in DATA_DIR/files. Keyed like the disk: a file_object's storage_key, or a generated PDF's key.
 */
export const storedFiles = pgTable('stored_file', {
  key: text('key').primaryKey(),
  bytes: bytea('bytes').notNull(),
  size: integer('size').notNull(),
  sha256: text('sha256').notNull(),
  createdAt: tstz('created_at').notNull().defaultNow(),
});

export type StoredFile = typeof storedFiles.$inferSelect;
