import pg from 'pg';
import { DEMO_PASSWORDS } from '../demo/index';
import { demoPayPasswordHash } from '../demo/pay-password';

/**
 * Many bidding clients against one or more running server processes, every answer kept, then compared with the
 * stored `auction_bid` rows. Used by deploy/ha/test-failover.sh (through deploy/ha/failover.ts) and its CLI
 * deploy/ha/bid-storm.mjs; meant for any test that breaks something while bids are flowing.
 */

export interface ApiAnswer {
  status: number;
  body: { result: any; message: string; error?: string } | null;
}

/** One call to `/trade-api<url>`; a network failure or timeout throws. */
export async function api(baseUrl: string, url: string, token: string | null, body?: object, timeoutMs = 10_000): Promise<ApiAnswer> {
  const response = await fetch(`${baseUrl}/trade-api${url}`, {
    method: body ? 'POST' : 'GET',
    headers: { 'content-type': 'application/json', ...(token ? { 'x-access-token': token } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  let parsed: ApiAnswer['body'] = null;
  try {
    parsed = JSON.parse(text) as ApiAnswer['body'];
  } catch {
    // a proxy's HTML page or an empty answer: the status says enough
  }
  return { status: response.status, body: parsed };
}

export interface SignedIn {
  username: string;
  token: string;
  /** the enterprise's demo pay password as the browser sends it (null for staff) */
  payPassword: string | null;
}

export async function signIn(baseUrl: string, username: string, password: string = DEMO_PASSWORDS.trader): Promise<SignedIn> {
  const answer = await api(baseUrl, '/sys/login', null, { username, password });
  if (answer.status !== 200) throw new Error(`sign-in ${username} on ${baseUrl}: ${answer.status} ${answer.body?.message ?? ''}`);
  const result = answer.body!.result as { token: string; enterPriseInfo?: { clientId?: string } };
  const clientId = result.enterPriseInfo?.clientId;
  return { username, token: result.token, payPassword: clientId ? demoPayPasswordHash(clientId) : null };
}

/** Demo traders that may enrol in an auction published by buyer02 (README "Demo accounts"). */
export const STORM_BIDDERS = ['buyer01', 'seller01', 'trader01', 'bidder01', 'bidder02'];

export interface StormAuction {
  tradeId: string;
  /** epoch ms */
  bidStart: number;
  bidEnd: number;
  /** the demo traders whose enrolment succeeded */
  bidders: string[];
  /** the ones that could not enrol, with the reason */
  notEnrolled: { username: string; reason: string }[];
}

const shanghaiDay = (t: number) => new Date(t + 8 * 3600_000).toISOString().slice(0, 10);

/**
 * A sale auction published by buyer02 and approved by the operator, bidding from `startInMs` for `bidWindowMs`
 * (30 s extension, no maximum step), with every demo trader of `candidates` that can enrol enrolled.
 */
export async function prepareStormAuction(options: { baseUrl: string; candidates?: string[]; startInMs?: number; bidWindowMs?: number }): Promise<StormAuction> {
  const { baseUrl, candidates = STORM_BIDDERS, startInMs = 6_000, bidWindowMs = 60_000 } = options;
  const publisher = await signIn(baseUrl, 'buyer02');
  const operator = await signIn(baseUrl, 'operator', DEMO_PASSWORDS.operator);
  const now = Date.now();
  const bidStart = now + startInMs;
  const created = await api(baseUrl, '/api/bidApply', publisher.token, {
    tradeType: 2, stockCode: 'DLM5500', quantity: 1_000_000, startPrice: 80_000, minStep: 100, maxStep: null, limitPrice: null, deposit: 1_000_000,
    enrolDeadline: new Date(bidStart - 1_000).toISOString(), bidStart: new Date(bidStart).toISOString(), bidEnd: new Date(bidStart + bidWindowMs).toISOString(),
    extensionSeconds: 30, priceType: 'factory_tax', transport: 'rail', deliveryProvince: '天津市', deliveryCity: '市辖区', deliveryDistrict: '滨海新区', deliveryPlace: '南疆港',
    deliveryDateStart: shanghaiDay(now + 3 * 86400_000), deliveryDateEnd: shanghaiDay(now + 9 * 86400_000),
  });
  if (created.status !== 200) throw new Error(`auction not created: ${created.status} ${created.body?.message ?? ''}`);
  const tradeId = created.body!.result.tradeId as string;
  const approved = await api(baseUrl, '/api/auction/audit/approve', operator.token, { tradeId });
  if (approved.status !== 200) throw new Error(`auction not approved: ${approved.status} ${approved.body?.message ?? ''}`);
  const bidders: string[] = [];
  const notEnrolled: StormAuction['notEnrolled'] = [];
  for (const username of candidates) {
    const trader = await signIn(baseUrl, username);
    const enrolled = await api(baseUrl, '/api/bidEnroll/add', trader.token, { tradeId, acceptRules: true, requestId: `storm-${tradeId}-${username}`, payPassword: trader.payPassword });
    // one enrolment per enterprise: a second member of an enrolled enterprise bids under it
    if (enrolled.status === 200 || /已报名/.test(enrolled.body?.message ?? '')) bidders.push(username);
    else notEnrolled.push({ username, reason: `${enrolled.status} ${enrolled.body?.message ?? ''}` });
  }
  if (bidders.length < 2) throw new Error(`fewer than two bidders enrolled: ${JSON.stringify(notEnrolled)}`);
  return { tradeId, bidStart, bidEnd: bidStart + bidWindowMs, bidders, notEnrolled };
}

export interface BidAttempt {
  client: number;
  baseUrl: string;
  username: string;
  price: number;
  /** epoch ms when sent and answered */
  sentAt: number;
  answeredAt: number;
  /** HTTP status, or 0 when no answer came (network failure, timeout) */
  status: number;
  error: string;
  message: string;
  /** the seq an acknowledged bid was given */
  seq?: number;
}

export interface BidStormResult {
  tradeId: string;
  /** HTTP 200: the server said the bid is accepted */
  acknowledged: BidAttempt[];
  /** 4xx: refused (not better, already leading, too frequent, ended …) */
  refused: BidAttempt[];
  /** 5xx: answered as failed (the server must know it did not commit) */
  failed: BidAttempt[];
  /** no answer: the outcome is unknown to the client */
  unanswered: BidAttempt[];
  /** snapshot reads that failed (the client then waits a little and tries again) */
  snapshotErrors: number;
}

export interface BidStormOptions {
  /** server roots, e.g. http://127.0.0.1:8080; client i talks to baseUrls[i % n] */
  baseUrls: string[];
  tradeId: string;
  /** demo traders enrolled in the auction (prepareStormAuction's `bidders`) */
  bidders: string[];
  clients?: number;
  /** stop when aborted … */
  signal?: AbortSignal;
  /** … or at this epoch ms, or once the auction has ended */
  until?: number;
  /** per request */
  timeoutMs?: number;
  /** called with every answered or unanswered bid, e.g. to trigger a fault after the n-th */
  onAttempt?: (attempt: BidAttempt) => void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const errorText = (err: unknown) => (err instanceof Error ? `${err.name}: ${err.message}${err.cause instanceof Error ? ` (${err.cause.message})` : ''}` : String(err));

/**
 * `clients` loops, each: read the auction's snapshot, bid one step above the best price or above the storm's last
 * attempt, whichever is higher (so no two attempts share a price), keep the answer. Signs each bidder in
 * once per server. Resolves when stopped or when the auction has ended.
 */
export async function runBidStorm(options: BidStormOptions): Promise<BidStormResult> {
  const { baseUrls, tradeId, bidders, clients = 50, signal, until = Number.POSITIVE_INFINITY, timeoutMs = 15_000, onAttempt } = options;
  const sessions = new Map<string, string>();
  for (const baseUrl of baseUrls) for (const username of bidders) sessions.set(`${baseUrl} ${username}`, (await signIn(baseUrl, username)).token);
  const result: BidStormResult = { tradeId, acknowledged: [], refused: [], failed: [], unanswered: [], snapshotErrors: 0 };
  let lastPrice = 0;
  // each attempt one step above the attempt before (or the best price read, if higher): concurrent bids that arrive
  // in order are all accepted, and no two attempts share a price, so each stored row names exactly one attempt
  const nextPrice = (floor: number, step: number) => (lastPrice = Math.max(floor, lastPrice + step));
  const running = () => !signal?.aborted && Date.now() < until;
  let ended = false;

  const client = async (index: number) => {
    const baseUrl = baseUrls[index % baseUrls.length]!;
    const username = bidders[Math.floor(index / baseUrls.length) % bidders.length]!;
    const token = sessions.get(`${baseUrl} ${username}`)!;
    while (running() && !ended) {
      let floor: number;
      let step: number;
      try {
        const snapshot = await api(baseUrl, `/api/bidRecord/snapshot?tradeId=${tradeId}`, token, undefined, timeoutMs);
        if (snapshot.status !== 200) throw new Error(`snapshot ${snapshot.status}`);
        const s = snapshot.body!.result as { hangState: number; result: string | null; startPrice: number; bestPrice: number | null; minStep: number; serverTime: number; bidStart: number };
        if (s.result || s.hangState === 3) {
          ended = true;
          break;
        }
        if (s.serverTime < s.bidStart) {
          await sleep(Math.min(500, s.bidStart - s.serverTime));
          continue;
        }
        floor = s.bestPrice === null ? s.startPrice : s.bestPrice + s.minStep;
        step = s.minStep;
      } catch {
        result.snapshotErrors++;
        await sleep(200);
        continue;
      }
      const attempt: BidAttempt = { client: index, baseUrl, username, price: nextPrice(floor, step), sentAt: Date.now(), answeredAt: 0, status: 0, error: '', message: '' };
      try {
        const answer = await api(baseUrl, '/api/bidRecord/bidAnswerApply', token, { tradeId, price: attempt.price }, timeoutMs);
        attempt.status = answer.status;
        attempt.message = answer.body?.message ?? '';
        attempt.error = answer.body?.error ?? '';
        if (answer.status === 200) attempt.seq = answer.body!.result.seq as number;
      } catch (err) {
        attempt.error = errorText(err);
      }
      attempt.answeredAt = Date.now();
      if (attempt.status === 200) result.acknowledged.push(attempt);
      else if (attempt.status >= 400 && attempt.status < 500) result.refused.push(attempt);
      else if (attempt.status >= 500) result.failed.push(attempt);
      else result.unanswered.push(attempt);
      onAttempt?.(attempt);
      // a failing server is not hammered
      if (attempt.status === 0 || attempt.status >= 500) await sleep(200);
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, i) => client(i)));
  return result;
}

export interface StoredComparison {
  /** rows of the auction in the database */
  stored: number;
  /** acknowledged bids with no row of that seq and price */
  acknowledgedMissing: BidAttempt[];
  /** refused (4xx) bids whose price is stored anyway */
  refusedStored: BidAttempt[];
  /** 5xx-answered bids whose price is stored anyway */
  failedStored: BidAttempt[];
  /** unanswered bids that did commit (allowed: the client never heard either way) */
  unansweredStored: number;
  /** stored rows no attempt of this storm explains (another bidder, e.g. a person or the demo) */
  unexplained: number;
  /** the stored seqs run 1, 2, 3 … and the prices only go up */
  orderly: boolean;
  ok: boolean;
}

/** The storm's answers against the `auction_bid` rows read from `databaseUrl` (for a failover: the new primary). */
export async function compareWithDatabase(databaseUrl: string, storm: BidStormResult): Promise<StoredComparison> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let rows: { seq: number; price: number; username: string }[];
  try {
    ({ rows } = await client.query(
      `SELECT b.seq, b.price_fen::float8 AS price, u.username FROM auction_bid b JOIN auction a ON a.id = b.auction_id JOIN sys_user u ON u.id = b.user_id
        WHERE a.trade_no = $1 ORDER BY b.seq`,
      [storm.tradeId],
    ));
  } finally {
    await client.end();
  }
  const byPrice = new Map(rows.map((r) => [r.price, r]));
  const acknowledgedMissing = storm.acknowledged.filter((a) => {
    const row = byPrice.get(a.price);
    return !row || row.seq !== a.seq || row.username !== a.username;
  });
  const refusedStored = storm.refused.filter((a) => byPrice.has(a.price));
  const failedStored = storm.failed.filter((a) => byPrice.has(a.price));
  const unansweredStored = storm.unanswered.filter((a) => byPrice.has(a.price)).length;
  const attempted = new Set([...storm.acknowledged, ...storm.refused, ...storm.failed, ...storm.unanswered].map((a) => a.price));
  const unexplained = rows.filter((r) => !attempted.has(r.price)).length;
  const orderly = rows.every((r, i) => r.seq === i + 1 && (i === 0 || r.price > rows[i - 1]!.price));
  return {
    stored: rows.length,
    acknowledgedMissing,
    refusedStored,
    failedStored,
    unansweredStored,
    unexplained,
    orderly,
    ok: acknowledgedMissing.length === 0 && refusedStored.length === 0 && failedStored.length === 0 && orderly,
  };
}

/** Answers counted by status and message, most frequent first (to see at a glance why bids were refused). */
export function tallyAnswers(attempts: BidAttempt[]): string[] {
  const counts = new Map<string, number>();
  for (const a of attempts) {
    const key = a.status === 0 ? `no answer ${a.error}` : `${a.status} ${a.error} ${a.message}`.trim();
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].sort((x, y) => y[1] - x[1]).map(([key, n]) => `${n} × ${key}`);
}
