import type { FastifyServerOptions } from 'fastify';

/** Query parameters whose value is a credential: any name with token, password or signature in it. */
const SECRET_PARAMETER = /([?&][^=&#]*(?:token|password|signature)[^=&#]*=)[^&#]*/gi;

/** The URL as it may be logged: `?X-Access-Token=…`, `?token=…` and the like become `***`. */
export function maskUrlSecrets(url: string): string {
  return url.replace(SECRET_PARAMETER, '$1***');
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
