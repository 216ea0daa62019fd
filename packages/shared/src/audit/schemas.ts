import { z } from 'zod';
import { safeString } from '../text';

/** How an audited request ended: done, or refused (by a rule, a policy or validation) with its error code. */
export const AUDIT_RESULT = { success: '成功', refused: '拒绝' } as const;
export type AuditResult = keyof typeof AUDIT_RESULT;

/** A calendar day: the pattern, and a real date (2026-13-01 matches the pattern but is no day). */
const day = (label: string) =>
  safeString()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${label}格式应为 YYYY-MM-DD`)
    .refine((d) => {
      const date = new Date(`${d}T00:00:00Z`);
      return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === d;
    }, `${label}不是有效的日期`);
const filterText = (max: number, label: string) => safeString().trim().max(max, `${label}过长`).optional();

/** 操作日志 search: every filter optional; dates are Asia/Shanghai days, both ends included. */
export const AuditLogFilterSchema = z.object({
  username: filterText(50, '用户名'),
  enterpriseName: filterText(100, '企业名称'),
  action: filterText(50, '操作'),
  objectType: filterText(30, '对象类型'),
  objectId: filterText(60, '对象编号'),
  result: z.enum(['success', 'refused'], { error: '结果只能是成功或拒绝' }).optional(),
  dateFrom: day('开始日期').optional(),
  dateTo: day('结束日期').optional(),
});
export type AuditLogFilter = z.infer<typeof AuditLogFilterSchema>;

export const AuditLogQuerySchema = AuditLogFilterSchema.extend({
  pageNo: z.coerce.number().int().min(1).max(100000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type AuditLogQuery = z.infer<typeof AuditLogQuerySchema>;

/** One row of the trail as the page shows it; `changes` is `{ field: [before, after] }`. */
export const AuditLogRecordSchema = z.object({
  id: z.number(),
  at: safeString().describe('ISO time'),
  userId: z.number().nullable(),
  username: safeString(),
  enterpriseId: z.number().nullable(),
  enterpriseName: safeString(),
  role: safeString(),
  action: safeString(),
  method: safeString(),
  route: safeString(),
  objectType: safeString(),
  objectId: safeString(),
  changes: z.record(z.string(), z.tuple([z.unknown(), z.unknown()])).nullable(),
  body: z.unknown().nullable(),
  result: z.enum(['success', 'refused']),
  errorCode: safeString(),
  statusCode: z.number(),
  ip: safeString(),
  requestId: safeString(),
});
export type AuditLogRecord = z.infer<typeof AuditLogRecordSchema>;

/** At most this many rows in one Excel export (the newest first); the page says so when there are more. */
export const AUDIT_EXPORT_LIMIT = 10_000;
/** The audit list counts up to this many rows; beyond, it says 超过 and asks for a narrower search. */
export const AUDIT_COUNT_LIMIT = 10_000;
