import { createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * The Standard Webhooks scheme (spec 1.0): the secret is `whsec_` + base64 of a random key, the signed content is
 * `{webhook-id}.{webhook-timestamp}.{body}` and the signature `v1,` + base64 of its HMAC-SHA256 with the decoded key.
 * Any of the scheme's libraries (npm `standardwebhooks`, Python `standardwebhooks`, svix …) verifies it.
 */
export const SECRET_PREFIX = 'whsec_';
/** 32 bytes: within the 24–64 the scheme asks for. */
const KEY_BYTES = 32;

export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(KEY_BYTES).toString('base64');
}

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/** `v1,<base64 HMAC-SHA256>` of one message at one time. */
export function webhookSignature(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', keyOf(secret)).update(`${messageId}.${timestampSeconds}.${body}`, 'utf8').digest('base64');
  return `v1,${mac}`;
}

/** The headers of one attempt (the timestamp is the attempt's, the id the delivery's). */
export function webhookHeaders(secret: string, messageId: string, at: Date, body: string): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'content-type': 'application/json',
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': webhookSignature(secret, messageId, timestamp, body),
  };
}

/**
 * The `webhook-id` of an event: derived from its key, so it is the same on every retry and whatever process or
 * restart made the delivery, and distinct for distinct events.
 */
export function webhookMessageId(eventKey: string): string {
  return `msg_${createHash('sha256').update(`coalx-webhook:${eventKey}`).digest('hex').slice(0, 32)}`;
}
