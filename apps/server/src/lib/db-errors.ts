/** The constraint a PostgreSQL unique violation (23505) names, wrapped by Drizzle or not; null for other errors. */
export function uniqueViolation(err: unknown): string | null {
  for (let e = err as { code?: unknown; constraint?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as never, depth++) {
    if (e.code === '23505') return typeof e.constraint === 'string' ? e.constraint : '';
  }
  return null;
}

/**
 * SQLSTATEs of a database that is away or cannot take writes just now: connection exceptions (class 08), the server
 * shutting down or starting (57P01–57P03), too many connections, and a read-only server (a replica just before its
 * promotion answers writes so during a failover).
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '25006']);
const UNAVAILABLE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
// node-postgres says these in words only
const UNAVAILABLE_MESSAGE = /Connection terminated|connection timeout|timeout exceeded when trying to connect|not queryable|Client was closed|Cannot use a pool after calling end/i;

/** Whether `err` says the database is unreachable rather than that the request was wrong (wrapped by Drizzle or not). */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as never, depth++) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (code.startsWith('08') || UNAVAILABLE_STATES.has(code) || UNAVAILABLE_SOCKET_CODES.has(code)) return true;
    if (typeof e.message === 'string' && UNAVAILABLE_MESSAGE.test(e.message)) return true;
  }
  return false;
}

/**
 * Whether a statement that failed so surely never reached the database (no connection could be had): then it surely
 * did not commit. Any other loss of the database during a statement leaves its outcome unknown.
 */
export function neverSent(err: unknown): boolean {
  for (let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as never, depth++) {
    if (e.code === 'ECONNREFUSED' || e.code === '57P03' || e.code === '53300') return true;
    if (typeof e.message === 'string' && /timeout exceeded when trying to connect|Cannot use a pool after calling end/i.test(e.message)) return true;
  }
  return false;
}
