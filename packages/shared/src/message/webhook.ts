import { z } from 'zod';
import { PageQuerySchema, pageSchema } from '../api';
import { safeString } from '../text';
import { WEBHOOK_EVENT_TYPE_KEYS, WEBHOOK_EVENT_TYPES, type WebhookEventType } from './schemas';

/**
 * 推送接口 (issue 28 item 4): an enterprise admin registers endpoints of the enterprise's own systems (ERP, dispatch);
 * each event the enterprise takes part in and an endpoint subscribes to is POSTed there, signed by the Standard
 * Webhooks scheme with the endpoint's secret, at least once, retried with backoff.
 */

/** Attempts of one delivery in all (the first and four retries), and the first retry's wait; each next one doubles. */
export const WEBHOOK_MAX_ATTEMPTS = 5;
export const WEBHOOK_RETRY_BASE_MS = 10_000;
/** A receiver has this long to answer. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** An endpoint failing without a single success for this long is switched off and its admins told. */
export const WEBHOOK_DISABLE_AFTER_MS = 24 * 60 * 60 * 1000;
/** Endpoints one enterprise may register. */
export const WEBHOOK_MAX_ENDPOINTS = 20;
export const WEBHOOK_AUTO_DISABLED_REASON = '连续失败超过一天，已自动停用';

/** The wait before the retry that follows the n-th failed attempt (n ≥ 1): 10 s, 20 s, 40 s, 80 s. */
export function webhookRetryDelayMs(failedAttempts: number): number {
  return WEBHOOK_RETRY_BASE_MS * 2 ** Math.max(0, failedAttempts - 1);
}

export const WEBHOOK_DELIVERY_STATES = { pending: '待发送', succeeded: '成功', failed: '失败' } as const;
export type WebhookDeliveryState = keyof typeof WEBHOOK_DELIVERY_STATES;
const DELIVERY_STATE_KEYS = Object.keys(WEBHOOK_DELIVERY_STATES) as [WebhookDeliveryState, ...WebhookDeliveryState[]];

/** An http(s) address, up to 2000 characters; whether it may be reached (no private address) the server decides. */
export const WebhookUrlSchema = safeString({ error: '请输入推送地址' })
  .trim()
  .min(1, '请输入推送地址')
  .max(2000, '推送地址不超过 2000 个字符')
  .superRefine((value, ctx) => {
    const problem = webhookUrlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** What is wrong with an address as written (null: nothing), before any name is resolved. */
export function webhookUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return '推送地址格式不正确，应以 http:// 或 https:// 开头';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return '推送地址只能使用 http 或 https 协议';
  if (url.username || url.password) return '推送地址不能包含用户名或密码';
  if (!url.hostname) return '推送地址缺少主机名';
  return null;
}

const EventTypeSchema = z.enum(WEBHOOK_EVENT_TYPE_KEYS as [WebhookEventType, ...WebhookEventType[]], { error: '事件类型不正确' });

const EndpointFields = {
  url: WebhookUrlSchema,
  description: safeString({ error: '说明应为文字' }).trim().max(100, '说明不超过 100 个字').default(''),
  eventTypes: z
    .array(EventTypeSchema, { error: '请选择推送的事件' })
    .min(1, '请至少选择一个推送的事件')
    .max(WEBHOOK_EVENT_TYPE_KEYS.length, '事件类型过多')
    .transform((types) => [...new Set(types)]),
  enabled: z.boolean({ error: '启用状态只能是开或关' }).default(true),
};

const IdField = z.number({ error: '编号不正确' }).min(1, '编号不正确').max(Number.MAX_SAFE_INTEGER, '编号不正确').int('编号不正确');

export const WebhookEndpointInputSchema = z.object(EndpointFields);
export type WebhookEndpointInput = z.infer<typeof WebhookEndpointInputSchema>;

export const WebhookEndpointEditSchema = z.object({ id: IdField, ...EndpointFields });
export type WebhookEndpointEditInput = z.infer<typeof WebhookEndpointEditSchema>;

export const WebhookIdSchema = z.object({ id: IdField });
export type WebhookIdInput = z.infer<typeof WebhookIdSchema>;

/** The last failed attempt of an endpoint (最近失败). */
export const WebhookLastFailureSchema = z.object({
  at: safeString(),
  statusCode: z.number().int().nullable(),
  error: safeString().nullable(),
  eventType: safeString(),
});

/** An endpoint as its list shows it: never with its secret, which is shown once when made or rotated. */
export const WebhookEndpointRecordSchema = z.object({
  id: z.number().int(),
  url: safeString(),
  description: safeString(),
  eventTypes: z.array(safeString()),
  enabled: z.boolean(),
  /** why the platform switched it off ('' when enabled or switched off by its admin) */
  disabledReason: safeString(),
  /** since when it has been failing without a success (null: its last attempt succeeded or none failed) */
  failingSince: safeString().nullable(),
  lastFailure: WebhookLastFailureSchema.nullable(),
  createdAt: safeString(),
  updatedAt: safeString(),
});
export type WebhookEndpointRecord = z.infer<typeof WebhookEndpointRecordSchema>;

/** The answer of 新增 and 重新生成密钥: the endpoint with its secret, this once. */
export const WebhookEndpointWithSecretSchema = WebhookEndpointRecordSchema.extend({
  secret: safeString().describe('whsec_ + base64 of the key: verify deliveries with it (Standard Webhooks libraries)'),
});
export type WebhookEndpointWithSecret = z.infer<typeof WebhookEndpointWithSecretSchema>;

export const WebhookDeliveryQuerySchema = PageQuerySchema.extend({
  endpointId: z.coerce.number({ error: '推送接口编号不正确' }).min(1, '推送接口编号不正确').max(Number.MAX_SAFE_INTEGER, '推送接口编号不正确').int('推送接口编号不正确'),
  state: z.enum(DELIVERY_STATE_KEYS, { error: '推送状态不正确' }).optional(),
});
export type WebhookDeliveryQuery = z.infer<typeof WebhookDeliveryQuerySchema>;

export const WebhookAttemptSchema = z.object({
  id: z.number().int(),
  at: safeString(),
  statusCode: z.number().int().nullable(),
  error: safeString().nullable(),
  durationMs: z.number().int(),
});
export type WebhookAttempt = z.infer<typeof WebhookAttemptSchema>;

export const WebhookDeliveryRecordSchema = z.object({
  id: z.number().int(),
  endpointId: z.number().int(),
  /** the `webhook-id` header: the same on every attempt, so a receiver can drop repeats */
  messageId: safeString(),
  eventType: safeString(),
  eventName: safeString(),
  state: z.enum(DELIVERY_STATE_KEYS),
  stateText: safeString(),
  /** attempts made so far */
  attempts: z.number().int(),
  nextAttemptAt: safeString().nullable(),
  lastStatusCode: z.number().int().nullable(),
  lastError: safeString().nullable(),
  deliveredAt: safeString().nullable(),
  createdAt: safeString(),
  /** the JSON body sent on every attempt */
  body: safeString(),
  /** every attempt, newest first */
  attemptLog: z.array(WebhookAttemptSchema),
});
export type WebhookDeliveryRecord = z.infer<typeof WebhookDeliveryRecordSchema>;
export const WebhookDeliveryPageSchema = pageSchema(WebhookDeliveryRecordSchema);
export type WebhookDeliveryPage = z.infer<typeof WebhookDeliveryPageSchema>;

export const WebhookEventTypeRecordSchema = z.object({ type: safeString(), name: safeString() });
export type WebhookEventTypeRecord = z.infer<typeof WebhookEventTypeRecordSchema>;

/** The catalogue in its declared order, for the page's checkboxes. */
export function webhookEventTypeList(): WebhookEventTypeRecord[] {
  return WEBHOOK_EVENT_TYPE_KEYS.map((type) => ({ type, name: WEBHOOK_EVENT_TYPES[type] }));
}
