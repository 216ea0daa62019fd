import { eq } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../config';
import type { Database } from '../db/client';
import { messageDeliveries, smsOutbox } from '../db/schema/index';
import { ManualClock } from '../lib/clock';
import { startSmtpServer, type TestSmtpServer } from '../test/smtp';
import { outboxProvider, type SmsProvider } from '../modules/sms/sms.provider';
import { openTestDatabase } from '../test/test-app';
import messageDeliveriesPlugin, { kickMessageDeliveries, runMessageDeliveries } from './message-deliveries';

/**
 * The plugin on an app of its own (the platform's app.ts wires it with the rest): the database, clock, config and
 * SMS provider it reads are decorated as buildApp decorates them.
 */
describe('message deliveries plugin', () => {
  let database: Database;
  let smtp: TestSmtpServer;
  const clock = new ManualClock();
  let messageId = 0;

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    await smtp?.close();
    await database?.close();
  });

  async function appWith(overrides: Partial<Config>, smsProvider: SmsProvider = outboxProvider): Promise<FastifyInstance> {
    const app = Fastify();
    app.decorate('db', database.db);
    app.decorate('clock', clock);
    app.decorate('config', { ...loadConfig({}), ...overrides });
    app.decorate('smsProvider', smsProvider);
    await app.register(messageDeliveriesPlugin);
    await app.ready();
    return app;
  }
  async function addDelivery(channel: 'sms' | 'email', address: string) {
    const [row] = await database.db
      .insert(messageDeliveries)
      .values({ messageId: ++messageId, channel, address, subject: '结算单待确认', body: '结算单 JS001 待确认。', nextAttemptAt: clock.now(), createdAt: clock.now() })
      .returning();
    return row!;
  }
  /** The outbox behind a slow gateway: sends wait until the test lets them go. */
  function slowGateway() {
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const provider: SmsProvider = {
      name: 'slow-outbox',
      async send(db, sendClock, message) {
        entered();
        await gate;
        await outboxProvider.send(db, sendClock, message);
      },
    };
    return { provider, inside, release };
  }
  const stateOf = async (id: number) => (await database.db.select({ state: messageDeliveries.state }).from(messageDeliveries).where(eq(messageDeliveries.id, id)))[0]!.state;

  it('with DELIVERY_INTERVAL_MS=0 a round runs when asked, with the app’s SMS provider and a mailer from SMTP_URL', async () => {
    const app = await appWith({ deliveryIntervalMs: 0, smtpUrl: smtp.url, mailFrom: 'CoalX <noreply@coalx.example>' });
    try {
      expect(app.messageDeliveries.mailer?.from).toBe('CoalX <noreply@coalx.example>');
      const sms = await addDelivery('sms', '13900000001');
      const email = await addDelivery('email', 'plugin@example.com');
      kickMessageDeliveries(app); // no timer, no kicks: tests drive the rounds
      expect(await runMessageDeliveries(app)).toEqual({ sent: 2, retried: 0, failed: 0 });
      expect([await stateOf(sms.id), await stateOf(email.id)]).toEqual(['sent', 'sent']);
      expect(await database.db.select().from(smsOutbox).where(eq(smsOutbox.mobile, '13900000001'))).toHaveLength(1);
      expect(smtp.received.map((m) => m.envelopeTo)).toContainEqual(['plugin@example.com']);
    } finally {
      await app.close();
    }
  });

  it('a kick starts a round at once, and closing the app waits for it', async () => {
    const gateway = slowGateway();
    // an interval far beyond the test: only the kick can send
    const app = await appWith({ deliveryIntervalMs: 3_600_000, smtpUrl: null }, gateway.provider);
    const sms = await addDelivery('sms', '13900000002');
    const email = await addDelivery('email', 'nobody@example.com');
    expect(app.messageDeliveries.mailer).toBeNull();
    kickMessageDeliveries(app);
    await gateway.inside;
    let closed = false;
    const closing = app.close().then(() => (closed = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed, 'close waits for the send in flight').toBe(false);
    gateway.release();
    await closing;
    expect(await stateOf(sms.id)).toBe('sent');
    // no SMTP_URL: e-mail fails for good, saying why
    expect(await stateOf(email.id)).toBe('failed');
  });

  it('a kick during a round runs one more round after it', async () => {
    const gateway = slowGateway();
    const app = await appWith({ deliveryIntervalMs: 3_600_000, smtpUrl: null }, gateway.provider);
    try {
      const first = await addDelivery('sms', '13900000003');
      const running = runMessageDeliveries(app);
      await gateway.inside;
      // written and kicked while the round is sending what it claimed before
      const second = await addDelivery('sms', '13900000004');
      kickMessageDeliveries(app);
      gateway.release();
      await running;
      expect(await stateOf(first.id)).toBe('sent');
      // the running round's promise settles only after the extra round it owed the kick
      expect(await stateOf(second.id)).toBe('sent');
    } finally {
      await app.close();
    }
  });
});
