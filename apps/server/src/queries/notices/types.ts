import type { MessageCategory, WebhookEventType } from '@coalx/shared';
import type { Db, Tx } from '../../db/client';
import type { Grant } from '../../lib/policy';

/**
 * Who hears a notice: the users of these enterprises whose role holds the grant (`contract-sign.edit`: the people who
 * may act on it; a list: any of them), or the trading centre's staff holding it, or named users.
 */
export type Audience = { enterpriseIds: number[]; grant: Grant } | { staffGrant: Grant } | { userIds: number[] };

/** One thing to tell: what happened, what to do, by when, and where it is done. */
export interface Notice {
  to: Audience;
  /** what happened, stable for tests and filters: `contract.to_sign` */
  kind: string;
  category: MessageCategory;
  title: string;
  /** what happened and what to do, in full sentences */
  content: string;
  dueAt?: Date | null;
  /** the web page where it is done */
  link?: string | null;
  /** urgent ones go by SMS (when the user keeps it on) and show as a browser notice */
  urgent?: boolean;
  /** the SMS text without the platform's sign (the title when absent); cut to fit one message */
  sms?: string;
}

/** What an event makes: messages, and the event members' systems hear by webhook. */
export interface NoticePlan {
  notices: Notice[];
  webhook?: { type: WebhookEventType; enterpriseIds: number[]; data: Record<string, unknown> };
}

/** Reads what an event concerns (inside the dispatcher's transaction) and says who is told what; null: nothing. */
export type NoticeRule = (tx: Tx, payload: Record<string, unknown>, at: Date) => Promise<NoticePlan | null>;

/**
 * A scheduled reminder: on each scheduler round, the things now due for it, each with the key that makes it fire
 * once (`contract.deadline_soon:12:<deadline>`: a deadline moved by an extension is a new reminder). The event it
 * records (`name`) has a rule in NOTICE_RULES like a published one.
 */
export interface Reminder {
  name: string;
  due(db: Db, now: Date): Promise<{ key: string; payload: Record<string, unknown> }[]>;
}
