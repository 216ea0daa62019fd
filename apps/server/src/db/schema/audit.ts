import { bigint, bigserial, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { tstz } from './columns';

/** Before/after of the fields a request changed: `{ field: [before, after] }`. */
export type AuditChanges = Record<string, [unknown, unknown]>;

/**
 * 操作日志: one row per audited request (plugins/audit-trail.ts), written after the response. Append-only: a trigger
 * (added by hand to the migration) refuses UPDATE and DELETE. Who acted is copied, not referenced, so the row still
 * reads the same after a user or an enterprise is renamed.
 */
export const auditLogs = pgTable(
  'sys_audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: tstz('at').notNull().defaultNow(),
    userId: bigint('user_id', { mode: 'number' }),
    username: text('username').notNull().default(''),
    enterpriseId: bigint('enterprise_id', { mode: 'number' }),
    enterpriseName: text('enterprise_name').notNull().default(''),
    role: text('role').notNull().default(''),
    /** The route's Chinese label: 出金申请, 出价, 挂牌审核通过, … */
    action: text('action').notNull(),
    method: text('method').notNull(),
    route: text('route').notNull(),
    objectType: text('object_type').notNull().default(''),
    objectId: text('object_id').notNull().default(''),
    changes: jsonb('changes').$type<AuditChanges>(),
    /** The request body with passwords, tokens and signatures masked. */
    body: jsonb('body'),
    /** success | refused */
    result: text('result').notNull(),
    /** The refusal's snake_case code (errors.ts), empty on success. */
    errorCode: text('error_code').notNull().default(''),
    statusCode: integer('status_code').notNull(),
    ip: text('ip').notNull().default(''),
    requestId: text('request_id').notNull().default(''),
  },
  (t) => [
    index('sys_audit_log_at_idx').on(t.at),
    index('sys_audit_log_user_idx').on(t.userId, t.at),
    index('sys_audit_log_enterprise_idx').on(t.enterpriseId, t.at),
    // the search by one action (出价, 挂牌…), newest first
    index('sys_audit_log_action_idx').on(t.action, t.id),
  ],
);

export type AuditLog = typeof auditLogs.$inferSelect;
export type NewAuditLog = typeof auditLogs.$inferInsert;
