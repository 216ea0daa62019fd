import { ERRORS, FIELD_LABELS } from '@coalx/shared';
import { inArray } from 'drizzle-orm';
import { auditLogs } from './db/schema/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn } from './test/factories';
import { createTestApp, type TestApp } from './test/test-app';

/**
 * Walks the OpenAPI document and sends every operation what a hostile or careless client sends: NUL bytes, 1 MB
 * strings, wrong types, arrays for objects, ±1e308, missing and unknown fields, without a token and as a trader
 * and an operator. No answer may be a 5xx; every refusal is the envelope with a Chinese message that names no
 * English field.
 */

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
}
interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header';
  schema?: JsonSchema;
}
interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  body: JsonSchema | null;
  multipart: boolean;
}
interface Probe {
  what: string;
  url: string;
  payload?: unknown;
  rawPayload?: string | Buffer;
  contentType?: string;
}

const NUL = 'a\u0000b';
/** Half of a surrogate pair: JSON carries it as \ud800 (refused before any handler runs, so nothing is stored), PostgreSQL's json refuses it (issue 27 item 2). */
const LONE_SURROGATE = '影子\ud800';
const ILL_FORMED_MESSAGE = '请求参数有误，包含无法识别的字符';
const MEGA_STRING = 'x'.repeat(1000 * 1000); // just inside the 1 MiB body limit, so the schema has to refuse it
const CATALOGUE_MESSAGES = new Set<string>(Object.values(ERRORS).map((entry) => entry.message));

function operations(doc: { paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: JsonSchema }> } }>> }) {
  const result: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const content = op.requestBody?.content ?? {};
      result.push({
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        body: content['application/json']?.schema ?? null,
        multipart: Boolean(content['multipart/form-data']) || path.endsWith('/common/upload'),
      });
    }
  }
  return result;
}

/** The first alternative that is not null: what a well-meaning client would send. */
function concrete(schema: JsonSchema): JsonSchema {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return concrete(alternatives.find((s) => s.type !== 'null') ?? alternatives[0]!);
  if (schema.allOf?.length === 1) return concrete(schema.allOf[0]!);
  return schema;
}
function typeOf(schema: JsonSchema): string | undefined {
  const s = concrete(schema);
  if (Array.isArray(s.type)) return s.type.find((t) => t !== 'null');
  if (s.type) return s.type;
  if (s.properties) return 'object';
  return undefined;
}

/** A plausible value of the schema: the mutations start from something that passes most rules. */
function sample(schema: JsonSchema): unknown {
  const s = concrete(schema);
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  if (s.default !== undefined) return s.default;
  switch (typeOf(s)) {
    case 'string':
      return 'a1';
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return s.items ? [sample(s.items)] : [];
    case 'object':
      return Object.fromEntries(Object.entries(s.properties ?? {}).map(([key, value]) => [key, sample(value)]));
    default:
      return 'a1';
  }
}

/** Every field of a body schema with its path, nested objects included. */
function fields(schema: JsonSchema, prefix: string[] = []): { path: string[]; schema: JsonSchema; required: boolean }[] {
  const s = concrete(schema);
  const result: { path: string[]; schema: JsonSchema; required: boolean }[] = [];
  for (const [key, value] of Object.entries(s.properties ?? {})) {
    const path = [...prefix, key];
    result.push({ path, schema: value, required: s.required?.includes(key) ?? false });
    if (typeOf(value) === 'object') result.push(...fields(value, path));
  }
  return result;
}

function withValue(base: unknown, path: string[], value: unknown, remove = false): unknown {
  const copy = structuredClone(base) as Record<string, unknown>;
  let target = copy;
  for (const key of path.slice(0, -1)) {
    if (typeof target[key] !== 'object' || target[key] === null) target[key] = {};
    target = target[key] as Record<string, unknown>;
  }
  const last = path[path.length - 1]!;
  if (remove) delete target[last];
  else target[last] = value;
  return copy;
}

function wrongTypeFor(schema: JsonSchema): unknown {
  switch (typeOf(schema)) {
    case 'string':
      return 12345;
    case 'object':
      return [1, 2];
    case 'array':
      return { a: 1 };
    default:
      return 'abc';
  }
}

function url(op: Operation, pathValue: string, query: Record<string, string>) {
  const path = op.path.replace(/\{[^}]+\}/g, pathValue);
  const search = new URLSearchParams(query).toString();
  return search ? `${path}?${search}` : path;
}

/** The hostile and careless requests for one operation. */
function probes(op: Operation): Probe[] {
  const list: Probe[] = [];
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const baseQuery = Object.fromEntries(queryParams.map((p) => [p.name, String(sample(p.schema ?? {}))]));
  const baseUrl = url(op, 'a1', baseQuery);
  if (op.path.includes('{')) {
    list.push({ what: 'NUL in path', url: url(op, encodeURIComponent(NUL), baseQuery) });
    list.push({ what: 'long path', url: url(op, 'x'.repeat(5000), baseQuery) });
  }
  for (const param of queryParams) {
    list.push({ what: `NUL in ?${param.name}`, url: url(op, 'a1', { ...baseQuery, [param.name]: NUL }) });
    list.push({ what: `1e308 in ?${param.name}`, url: url(op, 'a1', { ...baseQuery, [param.name]: '1e308' }) });
    list.push({ what: `-1e308 in ?${param.name}`, url: url(op, 'a1', { ...baseQuery, [param.name]: '-1e308' }) });
    list.push({ what: `long ?${param.name}`, url: url(op, 'a1', { ...baseQuery, [param.name]: 'x'.repeat(4000) }) });
  }
  if (queryParams.length) list.push({ what: 'unknown query parameter', url: url(op, 'a1', { ...baseQuery, zzUnknown: '1' }) });

  if (op.multipart) {
    list.push({ what: 'multipart without boundary', url: baseUrl, rawPayload: 'abc', contentType: 'multipart/form-data' });
    list.push({ what: 'multipart with a broken body', url: baseUrl, rawPayload: '--xx\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc', contentType: 'multipart/form-data; boundary=xx' });
    // a real PNG whose name carries a NUL byte: it reaches storage and the database
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32, 1)]);
    const part = (headers: string, body: Buffer | string) => Buffer.concat([Buffer.from(`--xx\r\n${headers}\r\n\r\n`), Buffer.from(body), Buffer.from('\r\n')]);
    list.push({
      what: 'multipart with NUL in the file name',
      url: baseUrl,
      rawPayload: Buffer.concat([part('Content-Disposition: form-data; name="file"; filename="a\u0000b.png"\r\nContent-Type: image/png', png), Buffer.from('--xx--\r\n')]),
      contentType: 'multipart/form-data; boundary=xx',
    });
    list.push({
      what: 'multipart with NUL in a field',
      url: baseUrl,
      rawPayload: Buffer.concat([part('Content-Disposition: form-data; name="scene"', NUL), part('Content-Disposition: form-data; name="file"; filename="a.png"', png), Buffer.from('--xx--\r\n')]),
      contentType: 'multipart/form-data; boundary=xx',
    });
    list.push({ what: 'JSON to an upload', url: baseUrl, payload: { file: 'a' } });
  }
  if (!op.body) {
    if (op.method === 'POST' || op.method === 'PUT') list.push({ what: 'unexpected body', url: baseUrl, payload: { zzUnknown: NUL } });
    return list;
  }

  const base = sample(op.body);
  list.push({ what: 'sample body', url: baseUrl, payload: base });
  list.push({ what: 'empty body', url: baseUrl, payload: {} });
  list.push({ what: 'array body', url: baseUrl, payload: [base] });
  list.push({ what: 'number body', url: baseUrl, rawPayload: '1e308', contentType: 'application/json' });
  list.push({ what: 'unknown field', url: baseUrl, payload: withValue(base, ['zzUnknown'], 1) });
  for (const field of fields(op.body)) {
    const name = field.path.join('.');
    const type = typeOf(field.schema);
    if (type === 'string' || type === undefined) {
      list.push({ what: `NUL in ${name}`, url: baseUrl, payload: withValue(base, field.path, NUL) });
      list.push({ what: `lone surrogate in ${name}`, url: baseUrl, payload: withValue(base, field.path, LONE_SURROGATE) });
      list.push({ what: `1 MB ${name}`, url: baseUrl, payload: withValue(base, field.path, MEGA_STRING) });
    }
    if (type === 'object') list.push({ what: `array for object ${name}`, url: baseUrl, payload: withValue(base, field.path, [base]) });
    list.push({ what: `wrong type ${name}`, url: baseUrl, payload: withValue(base, field.path, wrongTypeFor(field.schema)) });
    list.push({ what: `1e308 ${name}`, url: baseUrl, payload: withValue(base, field.path, 1e308) });
    list.push({ what: `-1e308 ${name}`, url: baseUrl, payload: withValue(base, field.path, -1e308) });
    if (field.required) list.push({ what: `missing ${name}`, url: baseUrl, payload: withValue(base, field.path, undefined, true) });
  }
  return list;
}

/** English field names of the operation, as words: none may appear in a message of ours. */
function fieldNames(op: Operation): string[] {
  const names = new Set(op.parameters.map((p) => p.name));
  if (op.body) for (const field of fields(op.body)) names.add(field.path[field.path.length - 1]!);
  return [...names].filter((name) => /^[A-Za-z_]\w*$/.test(name));
}

describe('OpenAPI fuzz: hostile input never breaks the server', () => {
  let t: TestApp;
  const tokens: Record<string, string | null> = {};
  beforeAll(async () => {
    t = await createTestApp('pglite', { bidRateLimit: 100000 });
    tokens.visitor = null;
    tokens.trader = (await signedIn(t.app, t.database.db, { role: 'trader' })).token;
    tokens.operator = (await signedIn(t.app, t.database.db, { role: 'operator' })).token;
  });
  afterAll(async () => t?.close());

  it('has a Chinese label for every request field, so no refusal needs the English name', () => {
    const ops = operations(t.app.swagger() as unknown as Parameters<typeof operations>[0]);
    const unlabelled = new Set(ops.flatMap(fieldNames).filter((name) => !FIELD_LABELS[name]));
    expect([...unlabelled]).toEqual([]);
  });

  it('answers every probe of every operation with a 2xx or an enveloped Chinese 4xx', async () => {
    const doc = t.app.swagger() as unknown as Parameters<typeof operations>[0];
    const ops = operations(doc);
    expect(ops.length).toBeGreaterThan(90);
    const failures: string[] = [];
    let requests = 0;
    let serverErrors = 0;
    // the labelled (state-changing) routes: each success among them must leave its audit row
    const labelled = new Set(t.app.auditTrail.writeRoutes.filter((r) => r.label).map((r) => `${r.method} ${r.url}`));
    const successfulWrites: { label: string; requestId: string }[] = [];
    for (const op of ops) {
      const routeKey = `${op.method} ${op.path.replace(/\{(\w+)\}/g, ':$1')}`;
      const names = fieldNames(op);
      for (const probe of probes(op)) {
        for (const [who, token] of Object.entries(tokens)) {
          const headers: Record<string, string> = {};
          if (token) headers['x-access-token'] = token;
          if (probe.contentType) headers['content-type'] = probe.contentType;
          const response = await t.app.inject({
            method: op.method as 'GET',
            url: probe.url,
            headers,
            ...(probe.rawPayload !== undefined ? { payload: probe.rawPayload } : probe.payload !== undefined ? { payload: probe.payload as object } : {}),
          });
          requests++;
          const label = `${op.method} ${op.path} [${probe.what}] as ${who}: ${response.statusCode}`;
          if (response.statusCode >= 500) {
            serverErrors++;
            failures.push(`${label} ${response.body.slice(0, 200)}`);
            continue;
          }
          if (probe.what.startsWith('lone surrogate') && (response.statusCode < 400 || (response.statusCode === 400 && response.json().message !== ILL_FORMED_MESSAGE))) {
            failures.push(`${label} a lone surrogate was not refused as ill-formed text: ${response.body.slice(0, 200)}`);
          }
          if (response.statusCode < 400) {
            if (token && labelled.has(routeKey)) successfulWrites.push({ label, requestId: String(response.headers['x-request-id']) });
            continue;
          }
          let body: Record<string, unknown>;
          try {
            body = response.json();
          } catch {
            failures.push(`${label} not JSON: ${response.body.slice(0, 100)}`);
            continue;
          }
          const message = String(body.message ?? '');
          if (body.success !== false || body.code !== response.statusCode || body.result !== null || typeof body.timestamp !== 'number') {
            failures.push(`${label} not the envelope: ${response.body.slice(0, 200)}`);
          } else if (!/[\u4e00-\u9fa5]/.test(message)) {
            failures.push(`${label} message not Chinese: ${message}`);
          } else if (!CATALOGUE_MESSAGES.has(message)) {
            const english = names.find((name) => new RegExp(`(?<![A-Za-z0-9_])${name}(?![A-Za-z0-9_])`).test(message));
            if (english) failures.push(`${label} names the field ${english}: ${message}`);
          }
        }
      }
    }
    await t.app.auditTrail.flush();
    const recorded = new Set<string>();
    for (let i = 0; i < successfulWrites.length; i += 500) {
      const ids = successfulWrites.slice(i, i + 500).map((w) => w.requestId);
      const rows = await t.database.db.select({ requestId: auditLogs.requestId }).from(auditLogs).where(inArray(auditLogs.requestId, ids));
      for (const row of rows) recorded.add(row.requestId);
    }
    const untraced = successfulWrites.filter((w) => !recorded.has(w.requestId)).map((w) => w.label);
    console.info(`OpenAPI fuzz: ${ops.length} operations, ${requests} requests, ${serverErrors} answers of 5xx, ${successfulWrites.length} successful writes, ${untraced.length} without an audit row`);
    expect(failures.slice(0, 40)).toEqual([]);
    expect(serverErrors).toBe(0);
    expect(untraced.slice(0, 20)).toEqual([]);
  }, 120_000);
});
