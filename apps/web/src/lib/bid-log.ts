import { AuctionBidLogSchema, type AuctionBidLog } from '@coalx/shared';

/**
 * A bid log pasted on the verification page: the log itself, or the whole answer of GET /api/bidRecord/log (its
 * `result`). Refusals are one Chinese sentence naming where the problem is.
 */
export function parseBidLogText(text: string): { log: AuctionBidLog } | { error: string } {
  const trimmed = text.trim();
  if (!trimmed) return { error: '请粘贴出价记录 JSON' };
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return { error: '不是有效的 JSON，请粘贴从本平台下载或接口返回的出价记录' };
  }
  if (value && typeof value === 'object' && 'result' in value && 'success' in value) value = (value as { result: unknown }).result;
  const parsed = AuctionBidLogSchema.safeParse(value);
  if (parsed.success) return { log: parsed.data };
  // the schema's messages name the field; a row's problem also says which row
  const issue = parsed.error.issues[0]!;
  const [field, row] = issue.path;
  return { error: field === 'entries' && typeof row === 'number' ? `出价记录第 ${row + 1} 条：${issue.message}` : issue.message };
}

/** A shell command that prints a line's SHA-256 (for recomputing one hash by hand). */
export const sha256sumCommand = (line: string) => `printf '%s' '${line.replace(/'/g, `'\\''`)}' | sha256sum`;

/** The file a downloaded log is saved as. */
export const bidLogFileName = (tradeId: string) => `公开出价记录-${tradeId}.json`;
