import { bigint, bigserial, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { tstz } from './columns';
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
  uploadedBy: bigint('uploaded_by', { mode: 'number' }).notNull().references(() => users.id),
  createdAt: tstz('created_at').notNull().defaultNow(),
});
