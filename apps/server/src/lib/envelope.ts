import type { ApiEnvelope } from '@coalx/shared';

/** The success envelope of DESIGN.md §5. */
export function ok<T>(result: T, message = '操作成功'): ApiEnvelope<T> {
  return { success: true, code: 0, message, result, timestamp: Date.now() };
}
