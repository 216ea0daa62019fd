import { z } from 'zod';
import { safeString } from '../text';

/**
 * 消息中心 (issue 28): what the platform tells each person. A message is made from a domain event or a scheduled
 * reminder, once per event and user; it says what happened, what to do and by when, and links to the page where
 * it is done. Every message is in the app; SMS and e-mail carry them as each user chooses per category.
 */
export const MESSAGE_CATEGORIES = {
  trade: '交易',
  contract: '合同',
  delivery: '履约',
  settlement: '结算开票',
  longTerm: '长协',
  funds: '资金',
  account: '账户',
  todo: '待办审核',
} as const;
export type MessageCategory = keyof typeof MESSAGE_CATEGORIES;
export const MESSAGE_CATEGORY_KEYS = Object.keys(MESSAGE_CATEGORIES) as MessageCategory[];

/** The channels a user switches per category; 站内 is always on. */
export const MESSAGE_CHANNELS = { sms: '短信', email: '邮件' } as const;
export type MessageChannel = keyof typeof MESSAGE_CHANNELS;

/**
 * Defaults of a user who has chosen nothing: SMS on (it carries only the urgent messages: a contract to sign and its
 * deadline, payment due, an auction starting, won or lost, disputes), e-mail off (every message of the category
 * once switched on, to the address set in 个人设置).
 */
export const CHANNEL_DEFAULTS: Record<MessageChannel, boolean> = { sms: true, email: false };

/** The platform's sign that starts every SMS, and the length a single text message holds. */
export const SMS_SIGN = '【CoalX】';
export const SMS_MAX_LENGTH = 70;

const day = (label: string) =>
  safeString()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${label}格式应为 YYYY-MM-DD`)
    .refine((d) => {
      const date = new Date(`${d}T00:00:00Z`);
      return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === d;
    }, `${label}不是有效的日期`);

const categoryField = z.enum(MESSAGE_CATEGORY_KEYS as [MessageCategory, ...MessageCategory[]], { error: '消息类别不正确' });

/** 消息中心 list: newest first; dates are Asia/Shanghai days, both ends included. */
export const MessageQuerySchema = z.object({
  pageNo: z.coerce.number().int().min(1).max(100000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
  /** only unread ones */
  unread: z.enum(['true', 'false'], { error: '未读筛选只能是 true 或 false' }).optional(),
  category: categoryField.optional(),
  dateFrom: day('开始日期').optional(),
  dateTo: day('结束日期').optional(),
});
export type MessageQuery = z.infer<typeof MessageQuerySchema>;

export const MessageRecordSchema = z.object({
  id: z.number().int(),
  kind: safeString().describe('what happened, e.g. contract.to_sign'),
  category: categoryField,
  title: safeString(),
  /** what happened and what to do */
  content: safeString(),
  /** by when (ISO time), when there is a deadline */
  dueAt: safeString().nullable(),
  /** the page where it is done (a path of the web app) */
  link: safeString().nullable(),
  urgent: z.boolean(),
  read: z.boolean(),
  createdAt: safeString(),
});
export type MessageRecord = z.infer<typeof MessageRecordSchema>;

export const UnreadCountSchema = z.object({ count: z.number().int(), urgent: z.number().int() });
export type UnreadCount = z.infer<typeof UnreadCountSchema>;

/** Mark read: the listed ids (the reader's own; others' are ignored), or every unread one with `all`. */
export const MarkReadSchema = z
  .object({
    ids: z.array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER), { error: '消息编号不正确' }).max(200, '一次最多标记 200 条').optional(),
    all: z.boolean({ error: '全部已读只能是 true 或 false' }).optional(),
  })
  .refine((v) => v.all === true || (v.ids?.length ?? 0) > 0, { message: '请选择要标记为已读的消息' });
export type MarkReadInput = z.infer<typeof MarkReadSchema>;

export const MarkReadResultSchema = z.object({ marked: z.number().int(), unread: UnreadCountSchema });

/** One row of 个人设置 › 消息通知: a category and whether SMS and e-mail carry it. */
export const MessagePreferenceSchema = z.object({
  category: categoryField,
  sms: z.boolean({ error: '短信开关只能是开或关' }),
  email: z.boolean({ error: '邮件开关只能是开或关' }),
});
export type MessagePreference = z.infer<typeof MessagePreferenceSchema>;

export const MessageSettingsSchema = z.object({
  /** where e-mail goes ('' for none) */
  email: z.union([z.literal(''), safeString().trim().max(254, '邮箱地址过长').email('邮箱地址格式不正确')]),
  mobile: safeString().describe('the account mobile SMS goes to (read only here)'),
  preferences: z.array(MessagePreferenceSchema),
});
export type MessageSettings = z.infer<typeof MessageSettingsSchema>;

export const MessageSettingsInputSchema = z.object({
  email: z.union([z.literal(''), safeString().trim().max(254, '邮箱地址过长').email('邮箱地址格式不正确')]),
  preferences: z.array(MessagePreferenceSchema).max(MESSAGE_CATEGORY_KEYS.length, '消息类别过多'),
});
export type MessageSettingsInput = z.infer<typeof MessageSettingsInputSchema>;

/** What the per-user socket (`/ws/message`) pushes: the unread count, with the message that changed it when new. */
export type MessageSocketEvent =
  | { type: 'auth'; ok: boolean }
  | { type: 'unread'; unread: UnreadCount; message?: MessageRecord };

/**
 * Events a member's systems may subscribe to by webhook, each with its Chinese name. The delivered body is
 * `{ type, timestamp, data }`, `data` carrying the business numbers (Standard Webhooks' suggested shape).
 */
export const WEBHOOK_EVENT_TYPES = {
  'deal.created': '成交',
  'contract.created': '合同已生成',
  'contract.signed': '合同对方已签署',
  'contract.effective': '合同已生效',
  'contract.voided': '合同已作废',
  'order.paid': '订单已付款',
  'dispatch.dispatched': '车辆已派出',
  'dispatch.arrived': '车辆已到厂',
  'dispatch.signed': '车辆已签收',
  'dispatch.disputed': '到货异议',
  'statement.issued': '结算单待确认',
  'statement.confirmed': '结算单已确认',
  'invoice.registered': '发票待确认',
  'invoice.reversed': '发票已红冲',
  'calloff.created': '长协月度提货待确认',
  'auction.ended': '竞价结束',
  'funds.changed': '资金变动',
} as const;
export type WebhookEventType = keyof typeof WEBHOOK_EVENT_TYPES;
export const WEBHOOK_EVENT_TYPE_KEYS = Object.keys(WEBHOOK_EVENT_TYPES) as WebhookEventType[];
