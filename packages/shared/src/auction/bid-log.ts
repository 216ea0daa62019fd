import { z } from 'zod';
import { formatFen } from '../format';
import { sha256TextHex } from '../sha256';
import { safeString } from '../text';
import { isSale, TradeType } from '../trade/types';

/**
 * The public bid log (公开出价记录): every accepted bid of an auction carries a hash that chains it to the bid
 * before it, so anyone holding the log can recompute the winner and see whether a bid was changed, removed or
 * inserted. The README's "公开出价记录" section states the same algorithm for people who recompute it elsewhere.
 *
 *   genesis      = SHA-256( tradeNo )
 *   hash(n)      = SHA-256( hash(n-1) "|" tradeNo "|" seq "|" bidder "|" price "|" at ), hash(0) = genesis
 *   final hash   = hash of the last accepted bid (the genesis when there is none)
 *
 * Each SHA-256 is over the UTF-8 bytes of the text and written as 64 lowercase hex digits; `seq` counts accepted
 * bids from 1 in decimal; `bidder` is the public alias (竞买人3), never the enterprise; `price` is integer fen per
 * ton in decimal; `at` is the server's acceptance time, ISO 8601 in UTC with milliseconds (2026-11-22T02:30:00.123Z).
 * The migration that added the column recomputes the same lines in SQL for older bids (0014).
 */

export const BID_LOG_ALGORITHM = 'SHA-256(prev|tradeNo|seq|bidder|priceFen|ISO-8601 UTC ms), genesis SHA-256(tradeNo)';

/** What the hash of one accepted bid covers. */
export interface BidLogBid {
  seq: number;
  /** public alias, e.g. 竞买人3 */
  bidder: string;
  /** fen per ton */
  price: number;
  /** the server's acceptance time as bidLogTime() writes it */
  at: string;
}

export interface BidLogEntry extends BidLogBid {
  hash: string;
}

/** The chain's starting "previous hash" of an auction. */
export const bidLogGenesis = (tradeNo: string) => sha256TextHex(tradeNo);

/** A bid's time as the hash covers it: ISO 8601, UTC, milliseconds. */
export const bidLogTime = (at: Date | number) => new Date(at).toISOString();

/** The exact text whose SHA-256 is a bid's hash. */
export const bidLogLine = (previousHash: string, tradeNo: string, bid: BidLogBid) =>
  [previousHash, tradeNo, String(bid.seq), bid.bidder, String(bid.price), bid.at].join('|');

export const bidLogHash = (previousHash: string, tradeNo: string, bid: BidLogBid) => sha256TextHex(bidLogLine(previousHash, tradeNo, bid));

/** Hashes a whole auction's accepted bids, in order (the demo and the tests build chains with it). */
export function chainBidLog(tradeNo: string, bids: readonly BidLogBid[]): BidLogEntry[] {
  let previous = bidLogGenesis(tradeNo);
  return bids.map((bid) => {
    previous = bidLogHash(previous, tradeNo, bid);
    return { ...bid, hash: previous };
  });
}

const HASH = /^[0-9a-f]{64}$/;
const hashField = (label: string) => safeString({ error: `缺少${label}` }).trim().toLowerCase().regex(HASH, `${label}须为 64 位十六进制 SHA-256`);

/** One row of the published log. */
export const BidLogEntrySchema = z.object({
  seq: z.number({ error: '缺少序号' }).int('序号须为整数').min(1, '序号从 1 开始'),
  bidder: safeString({ error: '缺少竞买人' }).min(1, '缺少竞买人').max(40, '竞买人过长'),
  price: z.number({ error: '缺少出价' }).int('出价须为整数（分/吨）').positive('出价须大于 0'),
  at: safeString({ error: '缺少出价时间' }).min(1, '缺少出价时间').max(40, '出价时间过长'),
  hash: hashField('哈希'),
});

/** The published log of an ended auction (and what the verification page accepts pasted as JSON). */
export const AuctionBidLogSchema = z.object({
  tradeId: safeString({ error: '缺少交易编号' }).trim().min(1, '缺少交易编号').max(20, '交易编号过长'),
  tradeType: z.union([z.literal(TradeType.auctionSale), z.literal(TradeType.auctionPurchase)], { error: '交易类型须为 2 (竞价销售) 或 3 (竞价采购)' }),
  productName: safeString().max(60).optional(),
  genesis: hashField('起始哈希').optional(),
  /** the announced result: the winning bid's alias and the deal price; null for 流拍 */
  deal: z.object({ bidder: safeString().max(40), price: z.number().int() }).nullable().optional(),
  entries: z.array(BidLogEntrySchema, { error: '缺少出价记录 entries' }).max(100_000, '出价记录过多'),
  finalHash: hashField('最终哈希'),
  algorithm: safeString().max(200).optional(),
});
export type AuctionBidLog = z.infer<typeof AuctionBidLogSchema>;

export type BidLogRowStatus = 'ok' | 'broken' | 'unverified';

export interface BidLogVerification {
  /** every row links, the log's final hash is the recomputed one, and the anchor (if given) agrees */
  ok: boolean;
  genesis: string;
  /** per entry, in the given order: the hash recomputed from the chain so far, and the row's status */
  rows: { seq: number; expectedHash: string; status: BidLogRowStatus }[];
  /** the first place the chain breaks: an entry's index, or entries.length for the final hash */
  firstBroken: { index: number; seq: number | null; reason: string } | null;
  /** the hash the entries' contents lead to */
  finalHash: string;
  /** by the auction's rule: sale the highest price, purchase the lowest; the earlier bid on equal prices */
  winner: BidLogBid | null;
}

/**
 * Recomputes the chain from the genesis. Row n is good when its sequence number is n, its hash is the one its
 * contents and the chain so far give, and its price improves on the row before (sale up, purchase down); the first
 * row that fails breaks the chain, and the rows after it cannot be verified. A removed or inserted bid shows as a
 * break at the row where the numbering or the chain stops matching; a bid added or cut at the end changes the
 * final hash, which is why it is printed in the contract: pass it as `anchor` to compare. When the log carries the
 * announced result (`deal`), the recomputed winner must be it.
 */
export function verifyBidLog(log: Pick<AuctionBidLog, 'tradeId' | 'tradeType' | 'entries' | 'deal'> & { finalHash?: string | null }, anchor?: string | null): BidLogVerification {
  const genesis = bidLogGenesis(log.tradeId);
  const sale = isSale(log.tradeType);
  const rows: BidLogVerification['rows'] = [];
  let firstBroken = null as BidLogVerification['firstBroken'];
  let chain = genesis;
  let previousPrice: number | null = null;
  for (const [index, entry] of log.entries.entries()) {
    chain = bidLogHash(chain, log.tradeId, entry);
    if (firstBroken) {
      rows.push({ seq: entry.seq, expectedHash: chain, status: 'unverified' });
      continue;
    }
    let reason: string | null = null;
    if (entry.seq !== index + 1) reason = `序号应为 ${index + 1}，记录为 ${entry.seq}：此前有出价被删除或插入`;
    else if (entry.hash.toLowerCase() !== chain) reason = '哈希与重新计算的不符：本条内容被改动，或此前有出价被删除、插入或改动';
    else if (previousPrice !== null && (sale ? entry.price <= previousPrice : entry.price >= previousPrice)) {
      reason = `出价 ${formatFen(entry.price)} 未${sale ? '高于' : '低于'}上一条 ${formatFen(previousPrice)}：${sale ? '竞价销售逐次加价' : '竞价采购逐次降价'}`;
    }
    previousPrice = entry.price;
    if (reason) firstBroken = { index, seq: entry.seq, reason };
    rows.push({ seq: entry.seq, expectedHash: chain, status: reason ? 'broken' : 'ok' });
  }
  const end = { index: log.entries.length, seq: null };
  if (!firstBroken && log.finalHash && log.finalHash.toLowerCase() !== chain) {
    firstBroken = { ...end, reason: '记录给出的最终哈希与重新计算的不符：末尾的出价被删除或追加' };
  }
  if (!firstBroken && anchor && anchor.trim().toLowerCase() !== chain) {
    firstBroken = { ...end, reason: '重新计算的最终哈希与合同（或公告）中的不一致：出价记录被改动' };
  }
  const winner = bidLogWinner(log.tradeType, log.entries);
  if (!firstBroken && log.deal !== undefined && (winner?.bidder ?? null) !== (log.deal?.bidder ?? null)) {
    firstBroken = { ...end, reason: `重新计算的中标（${winner ? `${winner.bidder} ${formatFen(winner.price)}` : '无'}）与公告（${log.deal ? `${log.deal.bidder} ${formatFen(log.deal.price)}` : '流拍'}）不一致` };
  } else if (!firstBroken && log.deal && winner && winner.price !== log.deal.price) {
    firstBroken = { ...end, reason: `重新计算的成交价 ${formatFen(winner.price)} 与公告的 ${formatFen(log.deal.price)} 不一致` };
  }
  return { ok: firstBroken === null, genesis, rows, firstBroken, finalHash: chain, winner };
}

/** The winning bid of a log by the auction's rule (price first, then time). */
export function bidLogWinner(tradeType: number, entries: readonly BidLogBid[]): BidLogBid | null {
  const sale = isSale(tradeType);
  let best: BidLogBid | null = null;
  for (const entry of entries) {
    if (!best || (sale ? entry.price > best.price : entry.price < best.price)) best = entry;
  }
  return best ? { seq: best.seq, bidder: best.bidder, price: best.price, at: best.at } : null;
}

/** Server time with milliseconds, Asia/Shanghai: 2026-11-22 10:30:00.123 (the log's 出价时间 column). */
export function formatBidLogTime(at: string | number | Date): string {
  const ms = new Date(at).getTime();
  if (Number.isNaN(ms)) return String(at);
  return new Date(ms + 8 * 3600 * 1000).toISOString().replace('T', ' ').slice(0, 23);
}
