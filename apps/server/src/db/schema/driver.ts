import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { tstz } from './columns';
import { enterprises } from './enterprise';
import { fileObjects } from './files';

/**
 * A driver with the vehicle he drives (运输信息 → 司机), registered by the enterprise that arranges transport. The
 * same person may serve several enterprises: each registers him (one row per enterprise and ID card number) and
 * each registration is audited. ID card number and photos are private to that enterprise and the trading centre.
 */
export const drivers = pgTable(
  'driver',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    enterpriseId: bigint('enterprise_id', { mode: 'number' }).notNull().references(() => enterprises.id),
    name: text('name').notNull(),
    /** 18 characters, check digit verified, upper-case X */
    idCardNo: text('id_card_no').notNull(),
    mobile: text('mobile').notNull(),
    licenceNo: text('licence_no').notNull(),
    /** 晋B12345, new-energy 晋BD12345 */
    plateNo: text('plate_no').notNull(),
    /** VEHICLE_TYPES key */
    vehicleType: text('vehicle_type').notNull(),
    ratedLoadKg: bigint('rated_load_kg', { mode: 'number' }).notNull(),
    idCardFileId: bigint('id_card_file_id', { mode: 'number' }).notNull().references(() => fileObjects.id),
    drivingLicenceFileId: bigint('driving_licence_file_id', { mode: 'number' }).notNull().references(() => fileObjects.id),
    vehicleLicenceFileId: bigint('vehicle_licence_file_id', { mode: 'number' }).notNull().references(() => fileObjects.id),
    status: text('status').notNull().default('pending'),
    auditNote: text('audit_note').notNull().default(''),
    auditedBy: bigint('audited_by', { mode: 'number' }).references(() => users.id),
    auditedAt: tstz('audited_at'),
    createdBy: bigint('created_by', { mode: 'number' }).notNull().references(() => users.id),
    createdAt: tstz('created_at').notNull().defaultNow(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('driver_enterprise_id_card_uq').on(t.enterpriseId, t.idCardNo),
    index('driver_enterprise_idx').on(t.enterpriseId, t.id),
    index('driver_pending_idx').on(t.id).where(sql`${t.status} = 'pending'`),
    index('driver_waiting_idx').on(t.status, t.enterpriseId).where(sql`${t.status} IN ('pending', 'rejected')`),
  ],
);

export type Driver = typeof drivers.$inferSelect;
export type NewDriver = typeof drivers.$inferInsert;
