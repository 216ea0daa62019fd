import { z } from 'zod';
import { safeString } from './text';

/** Fixed service prefix of every API path ({api} in the specification). */
export const API_PREFIX = '/trade-api';

/** Envelope of every JSON answer (DESIGN.md §5). */
export interface ApiEnvelope<T> {
  success: boolean;
  code: number;
  message: string;
  result: T;
  timestamp: number;
}

/** zod schema of the envelope around a result schema, for route response declarations. */
export function envelopeSchema<T extends z.ZodType>(result: T) {
  return z.object({
    success: z.boolean(),
    code: z.number().int(),
    message: safeString(),
    result,
    timestamp: z.number().int(),
  });
}

export const ErrorEnvelopeSchema = z.object({
  success: z.literal(false),
  code: z.number().int(),
  message: safeString(),
  error: safeString().describe('stable snake_case error code'),
  result: z.null(),
  timestamp: z.number().int(),
});

/** Paging request fields: pageNo and pageSize, 1 and 10 by default. */
export const PageQuerySchema = z.object({
  pageNo: z.coerce.number().int().min(1).max(100000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
});

export function pageSchema<T extends z.ZodType>(record: T) {
  return z.object({
    records: z.array(record),
    total: z.number().int(),
    current: z.number().int(),
    size: z.number().int(),
    /** true when the list counted only up to `total` rows and has more (the page then says 超过) */
    totalCapped: z.boolean().optional(),
  });
}

export const DEFAULT_PAGE_SIZE = 10;
/** A workspace list counts at most this many rows; beyond, it answers this total with `totalCapped`. */
export const LIST_COUNT_LIMIT = 100_000;
export const REQUEST_TIMEOUT_MS = 20000;
