import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, neverSent } from './db-errors';

const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code });
const wrapped = (cause: Error) => Object.assign(new Error('Failed query: select 1'), { cause });

describe('a database that is away, told apart from a request that is wrong', () => {
  it('connection exceptions, shutdowns, a read-only replica and socket errors are "unavailable", wrapped or not', () => {
    for (const err of [
      pgError('08006'),
      pgError('08001'),
      pgError('57P01', 'terminating connection due to administrator command'),
      pgError('57P03', 'the database system is starting up'),
      pgError('25006', 'cannot execute INSERT in a read-only transaction'),
      pgError('ECONNREFUSED'),
      pgError('ECONNRESET'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
    ]) {
      expect(isDatabaseUnavailable(err), err.message).toBe(true);
      expect(isDatabaseUnavailable(wrapped(err)), err.message).toBe(true);
    }
  });

  it('constraint violations, conflicts and programming errors are not', () => {
    for (const err of [pgError('23505'), pgError('40001'), pgError('42P01'), new Error('boom'), new TypeError('x is undefined')]) {
      expect(isDatabaseUnavailable(err), String(err)).toBe(false);
    }
    expect(isDatabaseUnavailable(null)).toBe(false);
  });

  it('only a statement that never reached a server is surely not committed', () => {
    expect(neverSent(wrapped(pgError('ECONNREFUSED')))).toBe(true);
    expect(neverSent(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(neverSent(new Error('Connection terminated unexpectedly'))).toBe(false);
    expect(neverSent(pgError('57P01'))).toBe(false);
    expect(neverSent(pgError('ECONNRESET'))).toBe(false);
  });
});
