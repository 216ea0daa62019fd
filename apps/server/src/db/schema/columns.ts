import { customType, timestamp } from 'drizzle-orm/pg-core';

/** created_at / updated_at on every table, as timestamptz (DESIGN.md §4). */
export const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
};

export const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** bytea: node-postgres gives a Buffer, PGlite a Uint8Array; callers wrap it with Buffer.from when they need one. */
export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });
