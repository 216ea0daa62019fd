import { z } from 'zod';

export const NUL_REFUSAL = '不能包含空字符';

/**
 * The string schema of every request field: PostgreSQL refuses the NUL byte in text, so it is refused here,
 * at validation, with a 400 rather than a database error. Takes the same parameters as `safeString()`.
 */
export const safeString = (params?: Parameters<typeof z.string>[0]) =>
  z.string(params).refine((value) => !value.includes('\u0000'), { error: NUL_REFUSAL, abort: true });
