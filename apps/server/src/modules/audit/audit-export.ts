import { AUDIT_RESULT, ROLES, type AuditLogRecord } from '@coalx/shared';
import { excelWorkbook } from '../../lib/excel';

const roleName = (code: string) => ROLES[code as keyof typeof ROLES] ?? code;

/** The trail as an Excel workbook, times in Asia/Shanghai, changes as "field: before → after" lines. */
export async function auditWorkbook(rows: AuditLogRecord[]): Promise<Buffer> {
  const columns = [
    { header: '编号', key: 'id', width: 10 },
    { header: '时间', key: 'at', width: 20 },
    { header: '用户', key: 'username', width: 16 },
    { header: '角色', key: 'role', width: 14 },
    { header: '企业', key: 'enterpriseName', width: 28 },
    { header: '操作', key: 'action', width: 16 },
    { header: '对象类型', key: 'objectType', width: 12 },
    { header: '对象编号', key: 'objectId', width: 20 },
    { header: '结果', key: 'result', width: 8 },
    { header: '错误代码', key: 'errorCode', width: 20 },
    { header: '状态码', key: 'statusCode', width: 8 },
    { header: '变更内容', key: 'changes', width: 40 },
    { header: '请求', key: 'request', width: 40 },
    { header: 'IP 地址', key: 'ip', width: 16 },
    { header: '请求编号', key: 'requestId', width: 38 },
  ];
  return excelWorkbook(
    '操作日志',
    columns,
    rows.map((r) => ({
      ...r,
      role: roleName(r.role),
      result: AUDIT_RESULT[r.result],
      changes: Object.entries(r.changes ?? {})
        .map(([field, [before, after]]) => `${field}: ${JSON.stringify(before)} → ${JSON.stringify(after)}`)
        .join('\n'),
      request: `${r.method} ${r.route}`,
    })),
  );
}
