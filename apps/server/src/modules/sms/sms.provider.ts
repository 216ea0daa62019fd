import type { Db, Tx } from '../../db/client';
import { smsOutbox } from '../../db/schema/index';
import type { Clock } from '../../lib/clock';

export interface SmsMessage {
  mobile: string;
  scene: string;
  content: string;
}

/** Delivers a text message. A real gateway (阿里云, 腾讯云 …) implements this once the platform has an SMS contract. */
export interface SmsProvider {
  readonly name: string;
  send(db: Db | Tx, clock: Clock, message: SmsMessage): Promise<void>;
}

/** The built-in provider: writes the message to sys_sms_outbox, which the operator reads in the back office. */
export const outboxProvider: SmsProvider = {
  name: 'outbox',
  async send(db, clock, message) {
    await db.insert(smsOutbox).values({ ...message, provider: 'outbox', createdAt: clock.now() });
  },
};
