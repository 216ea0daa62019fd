import { z } from 'zod';

export const NUL_REFUSAL = '不能包含空字符';
export const ILL_FORMED_REFUSAL = '包含无法识别的字符';

/** A UTF-16 surrogate without its partner: no character at all, refused by PostgreSQL's json and by every encoder. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/** Whether the text is well-formed UTF-16 (String.prototype.isWellFormed, which this TypeScript target lacks). */
export function isWellFormedText(value: string): boolean {
  return !LONE_SURROGATE.test(value);
}

/** The text with every lone surrogate replaced by U+FFFD: for records that must be written whatever came in. */
export function toWellFormedText(value: string): string {
  return value.replace(LONE_SURROGATES, '\ufffd');
}

/**
 * The string schema of every request field: PostgreSQL refuses the NUL byte in text and a lone surrogate in json,
 * so both are refused here, at validation, with a 400 rather than a database error (or an action whose audit row
 * cannot be written). Takes the same parameters as `z.string()`.
 */
export const safeString = (params?: Parameters<typeof z.string>[0]) =>
  z
    .string(params)
    .refine((value) => !value.includes('\u0000'), { error: NUL_REFUSAL, abort: true })
    .refine(isWellFormedText, { error: ILL_FORMED_REFUSAL, abort: true });
