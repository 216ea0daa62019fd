import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { WebhookEndpoint } from '../db/schema/index';
import { deliverDueWebhooks, type WebhookDeliveryReport } from '../modules/webhook/delivery';

export interface WebhooksOptions {
  /** told once when an endpoint is switched off for failing a day (wired to its enterprise admins' message) */
  onEndpointDisabled?: (endpoint: WebhookEndpoint) => unknown;
}

declare module 'fastify' {
  interface FastifyInstance {
    webhookDeliveries: WebhookWorker;
  }
}

/**
 * Runs the delivery worker (modules/webhook/delivery.ts) in this process: one round at a time; a kick during a round
 * asks for one more round after it, so a delivery written meanwhile is not left for the next tick.
 */
export class WebhookWorker {
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly round: () => Promise<WebhookDeliveryReport>,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Starts a round now, or one more after the current one. */
  kick() {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await this.round();
        } catch (err) {
          this.onError(err);
        }
      } while (this.again && !this.stopped);
    })().finally(() => (this.running = null));
  }

  /** One round, awaited (tests, and callers that must know the deliveries went out). */
  run(): Promise<WebhookDeliveryReport> {
    return this.round();
  }

  /** No new rounds; resolves when the current one is over. */
  async stop() {
    this.stopped = true;
    await this.running;
  }
}

/**
 * Webhook deliveries of this process: every `deliveryIntervalMs` (never when 0: tests run rounds themselves) and
 * right after a kick (kickWebhookDeliveries, after the dispatcher's commit). Several processes on one database
 * share the work (the worker claims with SKIP LOCKED).
 */
async function webhooks(app: FastifyInstance, options: WebhooksOptions = {}) {
  const onEndpointDisabled =
    options.onEndpointDisabled ?? ((endpoint: WebhookEndpoint) => app.log.warn({ endpointId: endpoint.id, enterpriseId: endpoint.enterpriseId }, 'webhook endpoint disabled after failing for a day'));
  const worker = new WebhookWorker(
    () => deliverDueWebhooks(app.db, app.clock, { allowPrivate: app.config.webhookAllowPrivate, onEndpointDisabled, log: app.log }),
    (err) => app.log.error({ err }, 'webhook delivery round failed'),
  );
  app.decorate('webhookDeliveries', worker);
  const intervalMs = app.config.deliveryIntervalMs;
  if (intervalMs > 0) {
    const timer = setInterval(() => worker.kick(), intervalMs);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  }
  // before the database closes: the round under way finishes (its attempts are recorded)
  app.addHook('onClose', async () => worker.stop());
}

export default fp(webhooks, { name: 'webhooks' });

/**
 * Sends what is due now rather than on the next tick (call after the commit that wrote deliveries). Does nothing
 * when deliveries are driven by hand (deliveryIntervalMs 0, the tests' setting): there, runWebhookDeliveries.
 */
export function kickWebhookDeliveries(app: FastifyInstance) {
  if (app.config.deliveryIntervalMs > 0 && app.hasDecorator('webhookDeliveries')) app.webhookDeliveries.kick();
}

/** One round now, awaited. */
export function runWebhookDeliveries(app: FastifyInstance): Promise<WebhookDeliveryReport> {
  return app.webhookDeliveries.run();
}
