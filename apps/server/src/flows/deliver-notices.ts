import { MESSAGE_CATEGORIES, formatDateTime } from '@coalx/shared';
import type { Db, Tx } from '../db/client';
import type { Clock } from '../lib/clock';
import { publish } from '../lib/events';
import {
  channelChoicesOf,
  claimNextEvent,
  enqueueDeliveries,
  insertMessages,
  markEventFailed,
  markEventProcessed,
  type DeliveryDraft,
  type MessageDraft,
} from '../modules/message/message.service';
import { enqueueWebhookDeliveries } from '../modules/webhook/webhook.service';
import { noticeRuleOf, recipientsOf, smsText, type Notice, type NoticePlan, type Recipient } from '../queries/notices/index';

export interface DispatchOptions {
  /** where links in e-mail point (config.publicUrl) */
  publicUrl: string;
  /** how many events one call handles at most (the rest wait for the next kick or sweep) */
  limit?: number;
}

export interface DispatchResult {
  processed: number;
  failed: number;
  messages: number;
  deliveries: number;
  webhooks: number;
}

/**
 * The dispatcher: turns each notifying event of the outbox (msg_event) into its messages, SMS and e-mail deliveries
 * and webhook deliveries, in one transaction per event that also marks it processed. Several processes run it at
 * once safely (each claims a different row, SKIP LOCKED); an event that fails is counted and tried again later, and
 * a message already made for a user is never made twice (unique on event and user).
 */
export async function dispatchNotices(db: Db, clock: Clock, options: DispatchOptions): Promise<DispatchResult> {
  const result: DispatchResult = { processed: 0, failed: 0, messages: 0, deliveries: 0, webhooks: 0 };
  const limit = options.limit ?? 200;
  const skipped = new Set<number>();
  while (result.processed + result.failed < limit) {
    let claimedId: number | null = null;
    try {
      const done = await db.transaction(async (tx) => {
        const event = await claimNextEvent(tx, [...skipped]);
        if (!event) return false;
        claimedId = event.id;
        const at = clock.now();
        const rule = noticeRuleOf(event.name);
        const plan = rule ? await rule(tx, event.payload, at) : null;
        if (plan) {
          const made = await carryOut(tx, event.eventKey, plan, at, options.publicUrl);
          result.messages += made.messages;
          result.deliveries += made.deliveries;
          result.webhooks += made.webhooks;
        }
        await markEventProcessed(tx, event.id, at);
        return true;
      });
      if (!done) break;
      result.processed++;
    } catch (err) {
      if (claimedId === null) throw err;
      skipped.add(claimedId);
      result.failed++;
      await markEventFailed(db, claimedId, err instanceof Error ? `${err.message}\n${err.stack ?? ''}` : String(err));
    }
  }
  return result;
}

async function carryOut(tx: Tx, eventKey: string, plan: NoticePlan, at: Date, publicUrl: string) {
  const drafts: MessageDraft[] = [];
  const recipients = new Map<number, Recipient>();
  const noticeOfDraft: Notice[] = [];
  for (const notice of plan.notices) {
    for (const recipient of await recipientsOf(tx, notice.to)) {
      recipients.set(recipient.userId, recipient);
      drafts.push({
        userId: recipient.userId,
        kind: notice.kind,
        category: notice.category,
        title: notice.title,
        content: notice.content,
        dueAt: notice.dueAt ?? null,
        link: notice.link ?? null,
        urgent: notice.urgent ?? false,
      });
      noticeOfDraft.push(notice);
    }
  }
  // one message per user and event: a user named by two notices of one event gets the first
  const seen = new Set<number>();
  const unique = drafts.map((d, i) => ({ draft: d, notice: noticeOfDraft[i]! })).filter(({ draft }) => !seen.has(draft.userId) && seen.add(draft.userId));
  const rows = await insertMessages(tx, eventKey, unique.map((u) => u.draft), at);
  const choices = await channelChoicesOf(tx, rows.map((r) => r.userId));
  const deliveries: DeliveryDraft[] = [];
  for (const row of rows) {
    const notice = unique.find((u) => u.draft.userId === row.userId)!.notice;
    const choice = choices.get(row.userId)!.channels[notice.category];
    const mobile = recipients.get(row.userId)?.mobile ?? '';
    if (row.urgent && choice.sms && mobile) deliveries.push({ messageId: row.id, channel: 'sms', address: mobile, subject: '', body: smsText(notice.sms ?? notice.title) });
    const email = choices.get(row.userId)!.email;
    if (choice.email && email) deliveries.push({ messageId: row.id, channel: 'email', address: email, subject: `【CoalX】${notice.title}`, body: emailBody(notice, publicUrl) });
  }
  const queued = await enqueueDeliveries(tx, deliveries, at);
  const webhooks = plan.webhook ? await enqueueWebhookDeliveries(tx, { eventKey, at, ...plan.webhook }) : 0;
  if (rows.length > 0) await publish(tx, 'message.created', { userIds: [...new Set(rows.map((r) => r.userId))], messageIds: rows.map((r) => r.id) });
  return { messages: rows.length, deliveries: queued, webhooks };
}

function emailBody(notice: Notice, publicUrl: string): string {
  return [
    notice.title,
    '',
    notice.content,
    ...(notice.dueAt ? ['', `截止时间：${formatDateTime(notice.dueAt)}`] : []),
    ...(notice.link ? ['', `前往处理：${publicUrl}${notice.link}`] : []),
    '',
    `消息类别：${MESSAGE_CATEGORIES[notice.category]}。如不希望接收此类邮件，请登录平台在「消息中心 › 通知设置」中关闭。`,
    '',
    'CoalX 煤炭现货交易平台',
  ].join('\n');
}
