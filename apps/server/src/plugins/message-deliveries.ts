import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { deliverDueMessages, type DeliveryRound } from '../modules/message/delivery-worker';
import { createMailer, type Mailer } from '../modules/message/email';

declare module 'fastify' {
  interface FastifyInstance {
    /** The SMS and e-mail delivery worker of this process (README "消息通知"). */
    messageDeliveries: MessageDeliveries;
  }
}

export interface MessageDeliveries {
  /** null when SMTP_URL is not set */
  readonly mailer: Mailer | null;
  /** One round now, awaited (tests, whose interval is 0); joins a round already running rather than overlapping it. */
  run(): Promise<DeliveryRound>;
  /** Asks for a round soon, without waiting; a no-op when DELIVERY_INTERVAL_MS is 0 (tests call run()). */
  kick(): void;
}

/**
 * Sends the SMS and e-mail deliveries (msg_delivery) every DELIVERY_INTERVAL_MS, and at once when kicked after new
 * messages commit, through the app's SMS provider and, when SMTP_URL is set, an SMTP mailer. Rounds never overlap
 * within a process: a kick during a round runs one more round after it, so rows committed meanwhile are not left
 * for the next tick. Other processes run their own rounds; the worker's claims keep them apart (delivery-worker.ts).
 */
async function messageDeliveries(app: FastifyInstance) {
  const { smtpUrl, mailFrom, deliveryIntervalMs } = app.config;
  const mailer = smtpUrl ? createMailer({ smtpUrl, from: mailFrom }) : null;
  let running: Promise<DeliveryRound> | null = null;
  let again = false;
  let closing = false;

  const round = async (): Promise<DeliveryRound> => {
    try {
      return await deliverDueMessages(app.db, app.clock, { sms: app.smsProvider, mailer, log: app.log });
    } catch (err) {
      app.log.error({ err }, 'message delivery round failed');
      return { sent: 0, retried: 0, failed: 0 };
    }
  };
  const run = (): Promise<DeliveryRound> => {
    running ??= (async () => {
      try {
        let result = await round();
        while (again && !closing) {
          again = false;
          result = await round();
        }
        return result;
      } finally {
        running = null;
      }
    })();
    return running;
  };

  app.decorate('messageDeliveries', {
    mailer,
    run,
    kick() {
      if (deliveryIntervalMs <= 0 || closing) return;
      if (running) again = true;
      else void run();
    },
  } satisfies MessageDeliveries);

  const timer = deliveryIntervalMs > 0 ? setInterval(() => void (running ?? run()), deliveryIntervalMs) : null;
  timer?.unref();
  app.addHook('onClose', async () => {
    closing = true;
    if (timer) clearInterval(timer);
    // a round in flight finishes its sends and marks before the database closes
    await running;
    mailer?.close();
  });
}

export default fp(messageDeliveries, { name: 'message-deliveries' });

/** After new messages commit (the notice dispatcher): send their SMS and e-mail now rather than at the next tick. */
export function kickMessageDeliveries(app: FastifyInstance) {
  app.messageDeliveries.kick();
}

/** One delivery round now, awaited: what tests call, their DELIVERY_INTERVAL_MS being 0. */
export function runMessageDeliveries(app: FastifyInstance): Promise<DeliveryRound> {
  return app.messageDeliveries.run();
}
