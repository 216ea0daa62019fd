import type { AuditLogFilter, AuditLogQuery, AuditLogRecord } from '@coalx/shared';
import { requestResult, type PageResult } from '@/app/request';

/** 操作日志 calls (apps/server/src/modules/audit/audit.routes.ts is the contract). */

export type { AuditLogFilter, AuditLogRecord };

export interface AuditChoices {
  actions: string[];
  objectTypes: string[];
}

export const listAuditLogs = (params: Partial<AuditLogQuery>) =>
  requestResult<PageResult<AuditLogRecord>>('/sys/auditLog/list', { params: { ...params } });

export const getAuditChoices = () => requestResult<AuditChoices>('/sys/auditLog/choices');

/** Built by the server (it checks the export right), fetched with downloadWithToken. */
export const AUDIT_EXPORT_PATH = '/sys/auditLog/export';
