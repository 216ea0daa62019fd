import type { FastifyServerOptions } from 'fastify';

/** Query parameters whose value is a credential: any name with token, password or signature in it. */
const SECRET_PARAMETER = /([?&][^=&#]*(?:token|password|signature)[^=&#]*=)[^&#]*/gi;
/** Body fields whose value is a credential, by the same rule (payPassword, oldPassword, ukeySignature, …). */
const SECRET_FIELD = /token|password|signature|secret/i;

/** The URL as it may be logged: `?X-Access-Token=…`, `?token=…` and the like become `***`. */
export function maskUrlSecrets(url: string): string {
  return url.replace(SECRET_PARAMETER, '$1***');
}

/**
 * A copy of a request body fit to be stored (the audit trail): every field named like a credential becomes `***`,
 * at any depth. Anything that is not plain JSON data (a stream, a multipart file) is left out.
 */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (depth > 8) return '…';
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, depth + 1));
  if (typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue;
    out[key] = SECRET_FIELD.test(key) ? '***' : redactSecrets(item, depth + 1);
  }
  return out;
}

/**
 * The server's logger: request lines without credentials. Request bodies are never logged (sign-in and password
 * forms carry secrets); the paths below also redact them should an error object carry one along.
 */
export function loggerOptions(level: string): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level,
    redact: {
      paths: [
        'req.headers["x-access-token"]',
        'req.headers.authorization',
        'req.headers.cookie',
        'body',
        'req.body',
        '*.password',
        '*.oldPassword',
        '*.confirmPassword',
        '*.payPassword',
        '*.token',
      ],
      censor: '***',
    },
    serializers: {
      req: (req) => ({ method: req.method, url: maskUrlSecrets(req.url), remoteAddress: req.ip }),
    },
  };
}
