import { chainBidLog } from '@coalx/shared';
import { describe, expect, it } from 'vitest';
import { bidLogFileName, parseBidLogText, sha256sumCommand } from './bid-log';

const entries = chainBidLog('JJ202611220001', [
  { seq: 1, bidder: '竞买人1', price: 65_000, at: '2026-11-22T02:10:00.000Z' },
  { seq: 2, bidder: '竞买人2', price: 65_500, at: '2026-11-22T02:20:00.000Z' },
]);
const log = { tradeId: 'JJ202611220001', tradeType: 2, entries, finalHash: entries[1]!.hash, deal: { bidder: '竞买人2', price: 65_500 } };

describe('a pasted bid log', () => {
  it('is the log itself or the whole API answer', () => {
    expect(parseBidLogText(JSON.stringify(log))).toEqual({ log });
    expect(parseBidLogText(JSON.stringify({ success: true, code: 0, message: '', result: log, timestamp: 1 }))).toEqual({ log });
  });

  it('is refused in one Chinese sentence saying where', () => {
    expect(parseBidLogText('  ')).toEqual({ error: '请粘贴出价记录 JSON' });
    expect(parseBidLogText('{"tradeId":')).toEqual({ error: '不是有效的 JSON，请粘贴从本平台下载或接口返回的出价记录' });
    const badRow = { ...log, entries: [entries[0], { ...entries[1], hash: 'abc' }] };
    expect(parseBidLogText(JSON.stringify(badRow))).toEqual({ error: '出价记录第 2 条：哈希须为 64 位十六进制 SHA-256' });
    expect(parseBidLogText(JSON.stringify({ ...log, tradeType: 0 }))).toEqual({ error: '交易类型须为 2 (竞价销售) 或 3 (竞价采购)' });
  });

  it('a hand check: the sha256sum command quotes the line for the shell', () => {
    expect(sha256sumCommand("a|b'c")).toBe(`printf '%s' 'a|b'\\''c' | sha256sum`);
    expect(bidLogFileName('JJ1')).toBe('公开出价记录-JJ1.json');
  });
});
