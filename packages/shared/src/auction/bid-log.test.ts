import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AuctionBidLogSchema, bidLogGenesis, bidLogHash, bidLogLine, bidLogTime, bidLogWinner, chainBidLog, formatBidLogTime, verifyBidLog, type BidLogBid } from './bid-log';

const nodeHex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const TRADE = 'JJ202611220001';
const T0 = Date.UTC(2026, 10, 22, 2, 30, 0, 123);
const saleBids: BidLogBid[] = [
  { seq: 1, bidder: '竞买人1', price: 82_000, at: bidLogTime(T0) },
  { seq: 2, bidder: '竞买人2', price: 82_200, at: bidLogTime(T0 + 1_500) },
  { seq: 3, bidder: '竞买人1', price: 82_300, at: bidLogTime(T0 + 61_007) },
  { seq: 4, bidder: '竞买人3', price: 83_000, at: bidLogTime(T0 + 120_000) },
];

describe('bid log: the encoding', () => {
  it("genesis and each line are SHA-256 over UTF-8, the same as Node's", () => {
    expect(bidLogGenesis(TRADE)).toBe(nodeHex(TRADE));
    const line = bidLogLine(bidLogGenesis(TRADE), TRADE, saleBids[0]!);
    expect(line).toBe(`${nodeHex(TRADE)}|JJ202611220001|1|竞买人1|82000|2026-11-22T02:30:00.123Z`);
    expect(bidLogHash(bidLogGenesis(TRADE), TRADE, saleBids[0]!)).toBe(nodeHex(line));
  });

  it('chains every bid to the one before', () => {
    const chain = chainBidLog(TRADE, saleBids);
    let previous = nodeHex(TRADE);
    for (const entry of chain) {
      const expected = nodeHex([previous, TRADE, entry.seq, entry.bidder, entry.price, entry.at].join('|'));
      expect(entry.hash).toBe(expected);
      previous = expected;
    }
    // a known vector, so a change of the encoding is a visible decision (the README and migration 0014 state it)
    expect(chain.at(-1)!.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(chain[0]!.hash).toBe(nodeHex(`${nodeHex(TRADE)}|JJ202611220001|1|竞买人1|82000|2026-11-22T02:30:00.123Z`));
  });

  it('times are ISO UTC with milliseconds, shown in Shanghai time with milliseconds', () => {
    expect(bidLogTime(new Date(T0))).toBe('2026-11-22T02:30:00.123Z');
    expect(formatBidLogTime('2026-11-22T02:30:00.123Z')).toBe('2026-11-22 10:30:00.123');
  });
});

describe('bid log: verification', () => {
  const log = (entries = chainBidLog(TRADE, saleBids), tradeType: 2 | 3 = 2) => ({ tradeId: TRADE, tradeType, entries, finalHash: entries.at(-1)?.hash ?? bidLogGenesis(TRADE) });

  it('an intact log verifies and names the winner by the rule', () => {
    const result = verifyBidLog(log());
    expect(result.ok).toBe(true);
    expect(result.firstBroken).toBeNull();
    expect(result.rows.map((r) => r.status)).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(result.finalHash).toBe(log().finalHash);
    expect(result.winner).toMatchObject({ seq: 4, bidder: '竞买人3', price: 83_000 });
    // the anchor (the contract's final hash) agrees
    expect(verifyBidLog(log(), log().finalHash).ok).toBe(true);
  });

  it('a purchase auction: prices go down and the lowest wins', () => {
    const down = saleBids.map((b, i) => ({ ...b, price: 80_000 - i * 300 }));
    const result = verifyBidLog(log(chainBidLog(TRADE, down), 3));
    expect(result.ok).toBe(true);
    expect(result.winner).toMatchObject({ seq: 4, price: 79_100 });
    // the same log read as a sale breaks at the second bid: it did not go up
    const asSale = verifyBidLog({ ...log(chainBidLog(TRADE, down), 3), tradeType: 2 });
    expect(asSale.firstBroken).toMatchObject({ index: 1, seq: 2 });
    expect(asSale.firstBroken!.reason).toContain('未高于');
  });

  it('a changed price, bidder or time breaks the chain at that row; the rows after cannot be verified', () => {
    for (const change of [{ price: 82_250 }, { bidder: '竞买人9' }, { at: bidLogTime(T0 + 1_501) }]) {
      const entries = chainBidLog(TRADE, saleBids).map((e, i) => (i === 1 ? { ...e, ...change } : e));
      const result = verifyBidLog(log(entries));
      expect(result.ok, JSON.stringify(change)).toBe(false);
      expect(result.firstBroken).toMatchObject({ index: 1, seq: 2 });
      expect(result.firstBroken!.reason).toContain('哈希');
      expect(result.rows.map((r) => r.status)).toEqual(['ok', 'broken', 'unverified', 'unverified']);
    }
  });

  it('a changed row whose hash was recomputed breaks the next row', () => {
    const entries = chainBidLog(TRADE, saleBids);
    entries[1] = { ...entries[1]!, price: 82_250 };
    entries[1].hash = bidLogHash(entries[0]!.hash, TRADE, entries[1]);
    expect(verifyBidLog(log(entries)).firstBroken).toMatchObject({ index: 2, seq: 3 });
  });

  it('a removed bid breaks the chain where it was', () => {
    const entries = chainBidLog(TRADE, saleBids).filter((e) => e.seq !== 2);
    const result = verifyBidLog(log(entries));
    expect(result.firstBroken).toMatchObject({ index: 1, seq: 3 });
    expect(result.firstBroken!.reason).toContain('序号应为 2');
    // renumbered to hide the gap, the hash gives it away at the same row
    const renumbered = entries.map((e, i) => ({ ...e, seq: i + 1 }));
    expect(verifyBidLog(log(renumbered)).firstBroken).toMatchObject({ index: 1, seq: 2 });
  });

  it('an inserted bid breaks the chain at the inserted row', () => {
    const chain = chainBidLog(TRADE, saleBids);
    const forged = { seq: 2, bidder: '竞买人5', price: 82_100, at: bidLogTime(T0 + 1_000), hash: chain[1]!.hash };
    const entries = [chain[0]!, forged, ...chain.slice(1).map((e) => ({ ...e, seq: e.seq + 1 }))];
    expect(verifyBidLog(log(entries)).firstBroken).toMatchObject({ index: 1, seq: 2 });
    // with a correctly computed hash of its own, the bid after it no longer links
    forged.hash = bidLogHash(chain[0]!.hash, TRADE, forged);
    expect(verifyBidLog(log(entries)).firstBroken).toMatchObject({ index: 2, seq: 3 });
  });

  it('a bid cut from or added at the end shows in the final hash', () => {
    const chain = chainBidLog(TRADE, saleBids);
    // the log's own final hash still names the fourth bid
    expect(verifyBidLog({ ...log(chain), entries: chain.slice(0, 3) }).firstBroken).toMatchObject({ index: 3, seq: null });
    // a consistent shorter log is caught by the anchor printed in the contract
    const cut = verifyBidLog(log(chain.slice(0, 3)), chain[3]!.hash);
    expect(cut.ok).toBe(false);
    expect(cut.firstBroken!.reason).toContain('合同');
    const longer = chainBidLog(TRADE, [...saleBids, { seq: 5, bidder: '竞买人2', price: 84_000, at: bidLogTime(T0 + 130_000) }]);
    expect(verifyBidLog(log(longer), chain[3]!.hash).ok).toBe(false);
  });

  it('the recomputed winner must be the announced one', () => {
    const good = log();
    expect(verifyBidLog({ ...good, deal: { bidder: '竞买人3', price: 83_000 } }).ok).toBe(true);
    const other = verifyBidLog({ ...good, deal: { bidder: '竞买人1', price: 83_000 } });
    expect(other.firstBroken).toMatchObject({ index: 4, seq: null });
    expect(other.firstBroken!.reason).toContain('与公告（竞买人1 830.00）不一致');
    expect(verifyBidLog({ ...good, deal: { bidder: '竞买人3', price: 83_100 } }).firstBroken!.reason).toContain('成交价');
    expect(verifyBidLog({ ...good, deal: null }).ok).toBe(false);
    expect(verifyBidLog({ ...log([]), deal: null }).ok).toBe(true);
  });

  it('an empty log (流拍) ends at the genesis', () => {
    const result = verifyBidLog(log([]));
    expect(result).toMatchObject({ ok: true, finalHash: bidLogGenesis(TRADE), winner: null, rows: [] });
  });

  it('the winner on equal prices is the earlier bid', () => {
    expect(bidLogWinner(2, [saleBids[0]!, { ...saleBids[1]!, price: 82_000 }])).toMatchObject({ seq: 1 });
    expect(bidLogWinner(3, [saleBids[0]!, { ...saleBids[1]!, price: 82_000 }])).toMatchObject({ seq: 1 });
  });

  it('the pasted JSON is checked with Chinese messages; hashes are read case-insensitively', () => {
    const good = log();
    const parsed = AuctionBidLogSchema.parse({ ...good, finalHash: good.finalHash.toUpperCase() });
    expect(parsed.finalHash).toBe(good.finalHash);
    const bad = AuctionBidLogSchema.safeParse({ ...good, tradeType: 0, entries: [{ ...good.entries[0], hash: 'xyz' }] });
    expect(bad.success).toBe(false);
    const messages = bad.error!.issues.map((i) => i.message).join(' ');
    expect(messages).toContain('交易类型');
    expect(messages).toContain('64 位十六进制');
  });
});
