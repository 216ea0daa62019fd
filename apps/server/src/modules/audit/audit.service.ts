import { AUDIT_COUNT_LIMIT, AUDIT_EXPORT_LIMIT, formatDateTime, toWellFormedText, type AuditLogFilter, type AuditLogQuery, type AuditLogRecord } from '@coalx/shared';
import { and, count, desc, eq, gte, ilike, inArray, lt, type SQL } from 'drizzle-orm';
import { queryPrepared, type Db, type Tx } from '../../db/client';
import { auditLogs, type AuditLog, type NewAuditLog } from '../../db/schema/index';
import { enterpriseNames } from '../enterprise/enterprise.service';

/** A stored body larger than this keeps only its beginning: the trail is for reading, not for replaying uploads. */
const MAX_BODY_CHARS = 16_000;

/**
 * The body as it is stored: already redacted by the caller; cut to a readable size; NUL characters (a refused
 * request may carry them, and PostgreSQL's jsonb cannot hold them) shown as U+FFFD.
 */
/**
 * A JSON replacer that makes any text storable: NUL and lone surrogates (which PostgreSQL's jsonb refuses) become
 * U+FFFD, in values and keys. The request that carried them was refused; its audit row must still be written.
 */
function storable(_key: string, value: unknown): unknown {
  if (typeof value === 'string') return toWellFormedText(value.replaceAll('\u0000', '\ufffd'));
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [toWellFormedText(key.replaceAll('\u0000', '\ufffd')), item]));
  }
  return value;
}

/** Text of a record (an object's id, a refusal's code) as it can be stored whatever the client sent. */
export function storableText(value: string): string {
  return storable('', value) as string;
}

export function boundedBody(body: unknown): unknown {
  if (body === undefined) return null;
  const text = JSON.stringify(body, storable);
  if (text === undefined) return null;
  return JSON.parse(text.length > MAX_BODY_CHARS ? JSON.stringify({ 内容过长已截断: text.slice(0, 2000) }) : text);
}

/**
 * What kind of thing a route acts on, by its path (the longest prefix wins). A route may name its object itself
 * (`request.auditObject`); this covers the rest.
 */
const OBJECT_TYPE_PREFIXES: [prefix: string, type: string][] = [
  ['/api/funds/withdraw', '出金'],
  ['/api/funds/admin/withdraw', '出金'],
  ['/api/funds/depositIn', '入金'],
  ['/api/funds/admin/depositIn', '入金'],
  ['/api/funds/payPassword', '支付密码'],
  ['/api/operation/enterprises', '企业'],
  ['/api/operation/funds', '资金对账'],
  ['/api/bidApply', '竞价'],
  ['/api/bidEnroll', '竞价'],
  ['/api/bidRecord', '竞价'],
  ['/api/auction', '竞价'],
  ['/api/addListedApply', '挂牌'],
  ['/api/listedAnswerApply', '挂牌'],
  ['/api/listedRecord/answerOrdersDeal', '摘牌'],
  ['/api/listing', '挂牌'],
  ['/api/longTerm/callOff', '月度调运'],
  ['/api/longTerm', '长协'],
  ['/api/contract-template', '合同模板'],
  ['/api/order', '订单'],
  ['/api/delivery/dispatch', '派车单'],
  ['/api/delivery/order', '订单'],
  ['/api/delivery/quality-report', '化验单'],
  ['/api/settlement', '结算单'],
  ['/api/invoice/order', '订单'],
  ['/api/invoice', '发票'],
  ['/api/freight', '运费结算单'],
  ['/api/statistics/daily-reports', '交易日报'],
  ['/api/driver', '司机'],
  ['/api/contract', '合同'],
  ['/api/sign', '签章'],
  ['/api/ukey', '数字证书'],
  ['/api/banner', '轮播图'],
  ['/api/content', '公告'],
  ['/api/tradeHome/recommend', '推荐交易'],
  ['/api/commoditymarketindex', '价格指数'],
  ['/api/common/upload', '文件'],
  ['/product', '产品'],
  ['/sys/enterprise/member', '企业成员'],
  ['/sys/enterprise', '企业'],
  ['/sys/switch', '系统开关'],
  ['/sys/user', '用户'],
  ['/sys/role', '角色'],
  ['/sys/dict', '数据字典'],
  ['/sys/param', '系统参数'],
  ['/sys/holiday', '节假日'],
];
const OBJECT_TYPES = [...OBJECT_TYPE_PREFIXES].sort(([a], [b]) => b.length - a.length);

/** The body or path fields that name the object acted on, in the order they are tried. */
const ID_FIELDS = ['tradeId', 'contractId', 'id', 'orderId', 'callOffId', 'deviceId', 'userId', 'roleId', 'code'] as const;

export function objectTypeOf(routePath: string, apiPrefix: string): string {
  const path = routePath.startsWith(apiPrefix) ? routePath.slice(apiPrefix.length) : routePath;
  return OBJECT_TYPES.find(([prefix]) => path.startsWith(prefix))?.[1] ?? '';
}

export function objectIdOf(params: unknown, body: unknown, resultId: unknown): string {
  for (const source of [params, body]) {
    if (!source || typeof source !== 'object') continue;
    for (const field of ID_FIELDS) {
      const value = (source as Record<string, unknown>)[field];
      // a refused request's id may hold a NUL, which a text column refuses
      if (typeof value === 'string' || typeof value === 'number') return String(value).replaceAll('\u0000', '\ufffd').slice(0, 60);
    }
  }
  return typeof resultId === 'string' || typeof resultId === 'number' ? String(resultId) : '';
}

// Enterprise names are copied into every row; they change rarely, so one lookup per enterprise per minute.
const NAME_CACHE_MS = 60_000;
const nameCaches = new WeakMap<Db, Map<number, { name: string; at: number }>>();

async function enterpriseNameOf(db: Db | Tx, enterpriseId: number | null | undefined): Promise<string> {
  if (!enterpriseId) return '';
  let nameCache = nameCaches.get(db);
  if (!nameCache) nameCaches.set(db, (nameCache = new Map()));
  const cached = nameCache.get(enterpriseId);
  if (cached && Date.now() - cached.at < NAME_CACHE_MS) return cached.name;
  const name = (await enterpriseNames(db, [enterpriseId])).get(enterpriseId) ?? '';
  if (nameCache.size > 10_000) nameCache.clear();
  nameCache.set(enterpriseId, { name, at: Date.now() });
  return name;
}

/** A row to write; `roleId` names the actor's real role (its name is stored in `role`). */
export type AuditEntry = Omit<NewAuditLog, 'id' | 'enterpriseName'> & { roleId?: number };

/** Appends one row; the enterprise name is filled in from the id. */
export async function recordAudit(db: Db, entry: AuditEntry, naming?: AuditNaming): Promise<void> {
  await recordAudits(db, [entry], naming);
}

/**
 * How rows name what they speak of, as SQL over the row `r` of the insert (its object id in `x.id` when numeric):
 * the object's business number (HT…, DD…, a plate, a username) per object type, and the actor's real role name.
 * These read other modules' tables, so the read model above the modules supplies them (queries/audit-naming.ts).
 */
export interface AuditNaming {
  objectNumbers: readonly (readonly [objectType: string, lookup: string])[];
  roleName: string;
}

const statements = new WeakMap<AuditNaming, { name: string; text: string }>();

/**
 * Appends rows in one statement (the audit trail writes requests in groups); enterprise names filled in from ids.
 * The rows travel as one JSON array, so the statement's text is the same for any number of rows and is prepared
 * once (db/client.ts); a column a row leaves out gets the table's default. With a naming, the statement names the
 * object by its business number where the route gave an internal id, and the actor by the real role's name (a
 * custom role, not its base role), as they are at the moment of the action.
 */
function insertStatement(naming: AuditNaming | undefined): { name: string; text: string } {
  const cached = naming && statements.get(naming);
  if (cached) return cached;
  const numbers = naming?.objectNumbers.length
    ? `CASE r."objectType" ${naming.objectNumbers.map(([type, lookup]) => `WHEN '${type.replaceAll("'", "''")}' THEN (${lookup})`).join(' ')} END`
    : 'NULL::text';
  const statement = {
    name: naming ? 'coalx_insert_audit_rows_named_v1' : 'coalx_insert_audit_rows_v2',
    text: `
    INSERT INTO sys_audit_log (at, user_id, username, enterprise_id, enterprise_name, role, action, method, route, object_type, object_id,
      changes, body, result, error_code, status_code, ip, request_id)
    SELECT COALESCE(r.at, now()), r."userId", COALESCE(r.username, ''), r."enterpriseId", COALESCE(r."enterpriseName", ''),
      COALESCE(${naming ? `(${naming.roleName})` : 'NULL::text'}, r.role, ''),
      r.action, r.method, r.route, COALESCE(r."objectType", ''), COALESCE(number.value, r."objectId", ''), r.changes, r.body, r.result,
      COALESCE(r."errorCode", ''), r."statusCode", COALESCE(r.ip, ''), COALESCE(r."requestId", '')
    FROM json_to_recordset($1::json) AS r(at timestamptz, "userId" bigint, username text, "enterpriseId" bigint, "enterpriseName" text, role text,
      "roleId" int, action text, method text, route text, "objectType" text, "objectId" text, changes jsonb, body jsonb, result text,
      "errorCode" text, "statusCode" int, ip text, "requestId" text)
    CROSS JOIN LATERAL (SELECT CASE WHEN r."objectId" ~ '^[0-9]{1,18}$' THEN r."objectId"::bigint END AS id) AS x
    LEFT JOIN LATERAL (SELECT ${numbers} AS value) AS number ON true`,
  };
  if (naming) statements.set(naming, statement);
  return statement;
}

export async function recordAudits(db: Db | Tx, entries: readonly AuditEntry[], naming?: AuditNaming): Promise<void> {
  if (!entries.length) return;
  const names = await Promise.all(entries.map((entry) => enterpriseNameOf(db, entry.enterpriseId)));
  await queryPrepared(db, insertStatement(naming), [JSON.stringify(entries.map((entry, i) => ({ ...entry, enterpriseName: names[i]! })))]);
}

/** `ILIKE` pattern for "contains", with the user's % and _ taken literally. */
const contains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
// dates are Shanghai calendar days
const dayStart = (d: string) => new Date(`${d}T00:00:00+08:00`);
const nextDay = (d: string) => new Date(dayStart(d).getTime() + 24 * 3600 * 1000);

function auditWhere(filter: AuditLogFilter): SQL | undefined {
  return and(
    filter.username ? ilike(auditLogs.username, contains(filter.username)) : undefined,
    filter.enterpriseName ? ilike(auditLogs.enterpriseName, contains(filter.enterpriseName)) : undefined,
    // the page picks the action from the trail's labels: one label, read from its own index
    filter.action ? eq(auditLogs.action, filter.action) : undefined,
    filter.objectType ? eq(auditLogs.objectType, filter.objectType) : undefined,
    filter.objectId ? ilike(auditLogs.objectId, contains(filter.objectId)) : undefined,
    filter.result ? eq(auditLogs.result, filter.result) : undefined,
    filter.dateFrom ? gte(auditLogs.at, dayStart(filter.dateFrom)) : undefined,
    filter.dateTo ? lt(auditLogs.at, nextDay(filter.dateTo)) : undefined,
  );
}

export function presentAuditLog(row: AuditLog): AuditLogRecord {
  return {
    id: row.id,
    at: formatDateTime(row.at),
    userId: row.userId,
    username: row.username,
    enterpriseId: row.enterpriseId,
    enterpriseName: row.enterpriseName,
    role: row.role,
    action: row.action,
    method: row.method,
    route: row.route,
    objectType: row.objectType,
    objectId: row.objectId,
    changes: row.changes ?? null,
    body: row.body ?? null,
    result: row.result === 'success' ? 'success' : 'refused',
    errorCode: row.errorCode,
    statusCode: row.statusCode,
    ip: row.ip,
    requestId: row.requestId,
  };
}

/**
 * The trail grows by every request, so its list counts at most AUDIT_COUNT_LIMIT rows (the page says "超过" then and
 * asks for a narrower search); the page's rows are found by id from the index first, so a deep page skips index
 * entries rather than rows.
 */
export async function listAuditLogs(db: Db, query: AuditLogQuery) {
  const where = auditWhere(query);
  const offset = (query.pageNo - 1) * query.pageSize;
  const [counted, page] = await Promise.all([
    db.select({ n: count() }).from(db.select({ id: auditLogs.id }).from(auditLogs).where(where).limit(AUDIT_COUNT_LIMIT + 1).as('counted')),
    db.select({ id: auditLogs.id }).from(auditLogs).where(where).orderBy(desc(auditLogs.id)).limit(query.pageSize).offset(offset),
  ]);
  const ids = page.map((r) => r.id);
  const rows = ids.length ? await db.select().from(auditLogs).where(inArray(auditLogs.id, ids)).orderBy(desc(auditLogs.id)) : [];
  const n = Number(counted[0]?.n ?? 0);
  return { records: rows.map(presentAuditLog), total: Math.min(n, AUDIT_COUNT_LIMIT), totalCapped: n > AUDIT_COUNT_LIMIT, current: query.pageNo, size: query.pageSize };
}

export async function auditLogsForExport(db: Db, filter: AuditLogFilter): Promise<AuditLogRecord[]> {
  const rows = await db.select().from(auditLogs).where(auditWhere(filter)).orderBy(desc(auditLogs.id)).limit(AUDIT_EXPORT_LIMIT);
  return rows.map(presentAuditLog);
}

/** Every object type the trail names, for the search form's choices. */
export function auditObjectTypes(): string[] {
  return [...new Set(OBJECT_TYPES.map(([, type]) => type))].sort((a, b) => a.localeCompare(b, 'zh-CN'));
}
