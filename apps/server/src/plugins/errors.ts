import { ERRORS, ILL_FORMED_REFUSAL, fieldLabel, isWellFormedText } from '@coalx/shared';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, badRequest } from '../errors';
import { isDatabaseUnavailable } from '../lib/db-errors';

/** How long a client waits before sending again a request refused while the database was away (a failover takes seconds). */
export const RETRY_AFTER_SECONDS = 2;

/** The envelope of a refusal (DESIGN.md §5). */
export function errorBody(status: number, error: string, message: string) {
  return { success: false, code: status, message, error, result: null, timestamp: Date.now() };
}

/** A schema issue as fastify-type-provider-zod hands it over: zod's issue fields straight in `params`. */
interface ValidationIssue {
  keyword?: string;
  message?: string;
  instancePath?: string;
  params?: { origin?: string; keys?: string[] };
}

/** Messages of `chineseIssueMessage` say what is wrong but not with which field: those get the label in front. */
const GENERIC_MESSAGE = /^(不能为空|不能包含空字符|应为|过长|过多|过大|过小|过短|至少|格式不正确|精度不正确|不在可选范围内)/;
const CONTEXT_NAMES: Record<string, string> = { body: '请求内容', querystring: '查询参数', params: '路径参数', headers: '请求头' };

/** zod checks `.int()` before `.max()`, so 1e20 first fails the safe-integer rule: that is a number too large. */
const isUnsafeInteger = (issue: ValidationIssue) => issue.keyword === 'too_big' && issue.params?.origin === 'int';

/** One Chinese sentence out of the schema issues: the field's Chinese label and what is wrong with it. */
export function describeValidation(issues: ValidationIssue[], context: string | undefined): string {
  const prefix = `${ERRORS.validation_failed.message}，`;
  if (issues.some((issue) => issue.keyword === 'unrecognized_keys')) return '请求包含不支持的字段';
  let first = issues[0];
  if (!first) return ERRORS.validation_failed.message;
  const path = (first.instancePath ?? '').split('/').filter(Boolean);
  if (isUnsafeInteger(first)) {
    const sameField = issues.find((issue) => issue !== first && issue.instancePath === first!.instancePath && !isUnsafeInteger(issue));
    first = sameField ?? { ...first, message: '过大' };
  }
  const message = first.message || '格式不正确';
  if (!GENERIC_MESSAGE.test(message)) return prefix + message;
  const label = path.length ? fieldLabel(path) : (CONTEXT_NAMES[context ?? ''] ?? null);
  return prefix + (label ?? '') + message;
}

/** The SQLSTATE of a PostgreSQL error, wrapped by Drizzle or not. */
function postgresErrorCode(err: unknown): string | null {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as never, depth++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return null;
}

/** Whether a lone surrogate hides anywhere in parsed input, keys included (bounded depth: bodies are bounded too). */
function holdsIllFormedText(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return !isWellFormedText(value);
  if (!value || typeof value !== 'object' || depth > 32) return false;
  if (Array.isArray(value)) return value.some((item) => holdsIllFormedText(item, depth + 1));
  return Object.entries(value).some(([key, item]) => !isWellFormedText(key) || holdsIllFormedText(item, depth + 1));
}

/** Maps every error to the envelope; 5xx details are logged, never sent. */
export function registerErrorHandling(app: FastifyInstance) {
  // every text field refuses ill-formed UTF-16, also where a schema says z.string() or takes any JSON: the same
  // 400 as safeString's, before any handler could store it or fail to record it
  app.addHook('preValidation', async (request) => {
    if (holdsIllFormedText(request.body) || holdsIllFormedText(request.query) || holdsIllFormedText(request.params)) {
      throw badRequest(`${ERRORS.validation_failed.message}，${ILL_FORMED_REFUSAL}`);
    }
  });
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof AppError) {
      if (err.status === 503) reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      return reply.status(err.status).send(errorBody(err.status, err.code, err.message));
    }
    if (isDatabaseUnavailable(err)) {
      // a restart or a failover: retry-safe, told apart from a refusal and from a fault of ours
      request.log.warn({ err: { message: err.message, code: err.code } }, 'database unavailable');
      reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      return reply.status(503).send(errorBody(503, 'busy_retry', ERRORS.busy_retry.message));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const message = describeValidation(err.validation as unknown as ValidationIssue[], err.validationContext);
      return reply.status(400).send(errorBody(400, 'validation_failed', message));
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err, issues: err.cause?.issues }, 'response does not match its schema');
      return reply.status(500).send(errorBody(500, 'internal', ERRORS.internal.message));
    }
    const sqlState = postgresErrorCode(err);
    if (sqlState === '23505') {
      // a unique key caught a double submit that got past the service's own check
      return reply.status(409).send(errorBody(409, 'conflict', '请勿重复提交，该操作已处理'));
    }
    if (sqlState === '23514') {
      return reply.status(422).send(errorBody(422, 'business_rule', '余额或数量不足，操作未执行'));
    }
    if (sqlState === '22021' || sqlState === '22P05') {
      // a NUL byte or a character the database cannot store that got past the schemas (safeString is the rule)
      request.log.warn({ err }, 'text refused by the database');
      return reply.status(400).send(errorBody(400, 'validation_failed', '请求参数有误，内容包含无法保存的字符'));
    }
    if (sqlState === '40001' || sqlState === '40P01') {
      return reply.status(409).send(errorBody(409, 'conflict', '操作冲突，请稍后重试'));
    }
    switch (err.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return reply.status(400).send(errorBody(400, 'invalid_json', ERRORS.invalid_json.message));
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
      case 'FST_REQ_FILE_TOO_LARGE':
        return reply.status(413).send(errorBody(413, 'body_too_large', ERRORS.body_too_large.message));
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
        return reply.status(415).send(errorBody(415, 'unsupported_media_type', ERRORS.unsupported_media_type.message));
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      case 'FST_PARTS_LIMIT':
      case 'FST_FILES_LIMIT':
      case 'FST_FIELDS_LIMIT':
        return reply.status(400).send(errorBody(400, 'validation_failed', ERRORS.validation_failed.message));
    }
    const status = err.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err }, 'unexpected error');
      return reply.status(500).send(errorBody(500, 'internal', ERRORS.internal.message));
    }
    if (status === 429) return reply.status(429).send(errorBody(429, 'too_many_requests', ERRORS.too_many_requests.message));
    // any other 4xx from a plugin: keep the status, give a Chinese message
    request.log.warn({ err }, 'request refused');
    return reply.status(status).send(errorBody(status, 'validation_failed', ERRORS.validation_failed.message));
  });
}
