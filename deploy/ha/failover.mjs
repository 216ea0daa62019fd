// The failover check that deploy/ha/test-failover.sh runs once its cluster and two app nodes are up
// (node --import tsx deploy/ha/failover.mjs, from the repository root). Reads everything from the environment:
//   APP_URLS        the app nodes, comma-separated (http://127.0.0.1:55501,http://127.0.0.1:55502)
//   PG_URLS         each PostgreSQL node directly, in Patroni order (postgres://postgres@127.0.0.1:55431/coalx,…)
//   PATRONI_URLS    each Patroni REST API, same order (http://127.0.0.1:58008,…)
//   PATRONI_PIDS    each Patroni process id, same order
//   PG_DATA_DIRS    each data folder, same order (postmaster.pid names the postmaster to kill)
//   APP_PIDS        the app nodes' process ids, in APP_URLS order (a node that exits is reported, not waited for)
//   CLIENTS (50), KILL_AFTER_MS (10000: bidding before the crash), BID_AFTER_RECOVERY_MS (15000),
//   RECOVERY_LIMIT_MS (30000)
// Bids from CLIENTS clients, crashes the primary's host (kill -9 of its Patroni and of its postmaster with every
// backend), then checks: the standby is promoted, both app nodes serve again (health and a signed-in call) within
// RECOVERY_LIMIT_MS without a restart, every acknowledged bid is stored in the new primary and no refused one, the
// auction ends and is awarded as seen by both nodes (and by a watcher on each), and the public bid log verifies.
// Exit code 1 when any check fails.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import WebSocket from 'ws';
import { verifyBidLog } from '@coalx/shared';
import { api, compareWithDatabase, prepareStormAuction, runBidStorm, signIn, tallyAnswers } from '../../apps/server/src/test/bid-storm.ts';

const list = (name) => (process.env[name] ?? '').split(',').map((s) => s.trim()).filter(Boolean);
const number = (name, fallback) => Number(process.env[name] ?? fallback);
const appUrls = list('APP_URLS');
const pgUrls = list('PG_URLS');
const patroniUrls = list('PATRONI_URLS');
const patroniPids = list('PATRONI_PIDS').map(Number);
const dataDirs = list('PG_DATA_DIRS');
const appPids = list('APP_PIDS').map(Number);
const alive = (i) => {
  if (!appPids[i]) return true;
  try {
    process.kill(appPids[i], 0);
    return true;
  } catch {
    return false;
  }
};
const exitedAt = appUrls.map(() => null);
const clients = number('CLIENTS', 50);
const killAfterMs = number('KILL_AFTER_MS', 10_000);
const bidAfterRecoveryMs = number('BID_AFTER_RECOVERY_MS', 15_000);
const recoveryLimitMs = number('RECOVERY_LIMIT_MS', 30_000);
if (appUrls.length < 2 || pgUrls.length !== 2 || patroniUrls.length !== 2 || patroniPids.length !== 2 || dataDirs.length !== 2) {
  console.error('APP_URLS (2+), PG_URLS, PATRONI_URLS, PATRONI_PIDS and PG_DATA_DIRS (2 each) are required');
  process.exit(2);
}

const started = Date.now();
const log = (text) => console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${text}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const checks = [];
const check = (ok, text) => {
  checks.push({ ok, text });
  console.log(`${ok ? 'PASS' : 'FAIL'}  ${text}`);
};
const status = async (url, timeoutMs = 2_000) => {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(timeoutMs) })).status;
  } catch {
    return 0;
  }
};
const seconds = (ms) => (ms === null ? 'never' : `${(ms / 1000).toFixed(1)} s`);

// the primary before the crash, and that the other node is its synchronous standby
const roles = await Promise.all(patroniUrls.map((url) => status(`${url}/primary`)));
const primary = roles.indexOf(200);
if (primary < 0 || roles.filter((s) => s === 200).length !== 1) {
  console.error(`no single primary before the test: /primary answered ${roles.join(', ')}`);
  process.exit(1);
}
const standby = 1 - primary;
const cluster = await (await fetch(`${patroniUrls[primary]}/cluster`)).json();
const syncBefore = cluster.members.find((m) => m.role === 'sync_standby');
log(`primary ${cluster.members.find((m) => ['leader', 'master', 'primary'].includes(m.role))?.name ?? primary}, synchronous standby ${syncBefore?.name ?? 'none'}`);
check(Boolean(syncBefore), 'before the crash the standby replicates synchronously');

const auction = await prepareStormAuction({ baseUrl: appUrls[0], startInMs: 6_000, bidWindowMs: 40_000 });
log(`auction ${auction.tradeId}: bidders ${auction.bidders.join(', ')}${auction.notEnrolled.length ? ` (not enrolled: ${auction.notEnrolled.map((n) => `${n.username} ${n.reason}`).join('; ')})` : ''}`);

// a signed-in session on each node for the recovery probe
const probes = await Promise.all(appUrls.map((url) => signIn(url, 'buyer02')));
const stop = new AbortController();
const stormDone = runBidStorm({ baseUrls: appUrls, tradeId: auction.tradeId, bidders: auction.bidders, clients, signal: stop.signal });

await sleep(Math.max(0, auction.bidStart - Date.now()) + killAfterMs);

// a host crash: Patroni first (else it would restart PostgreSQL in place), then the postmaster and every backend
const postmaster = Number(fs.readFileSync(path.join(dataDirs[primary], 'postmaster.pid'), 'utf8').split('\n')[0]);
const children = (() => {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)], { encoding: 'utf8' }).split('\n').map(Number).filter(Boolean);
  } catch {
    return [];
  }
})();
const killedAt = Date.now();
for (const pid of [patroniPids[primary], postmaster, ...children]) {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
log(`host crash of the primary: kill -9 Patroni ${patroniPids[primary]}, postmaster ${postmaster} and ${children.length} backends`);

// the standby's promotion, then each node: /trade-api/health 200 and a signed-in call that reads the database 200
let promotedAt = null;
const servedAt = appUrls.map(() => null);
const seen = appUrls.map(() => new Map());
const watchers = appUrls.map(() => ({ ended: false, opened: false, messages: 0 }));
const openWatcher = (i) => {
  const socket = new WebSocket(`${appUrls[i].replace(/^http/, 'ws')}/trade-api/ws/auction?tradeId=${auction.tradeId}`);
  socket.on('open', () => (watchers[i].opened = true));
  socket.on('message', (data) => {
    watchers[i].messages++;
    const event = JSON.parse(String(data));
    if (event.type === 'ended' || event.snapshot?.result || event.snapshot?.hangState === 3) watchers[i].ended = true;
  });
  socket.on('error', () => {});
  watchers[i].socket = socket;
};
const probeDeadline = killedAt + Math.max(recoveryLimitMs, 30_000) + 30_000;
while (Date.now() < probeDeadline && (promotedAt === null || servedAt.some((t, i) => t === null && exitedAt[i] === null))) {
  if (promotedAt === null && (await status(`${patroniUrls[standby]}/primary`)) === 200) {
    promotedAt = Date.now();
    log(`standby promoted after ${seconds(promotedAt - killedAt)}`);
  }
  await Promise.all(
    appUrls.map(async (url, i) => {
      if (servedAt[i] !== null || exitedAt[i] !== null) return;
      if (!alive(i)) {
        exitedAt[i] = Date.now();
        log(`app node ${i + 1} (${url}) has exited`);
        return;
      }
      const health = await status(`${url}/trade-api/health`);
      let call = 0;
      try {
        call = (await api(url, '/api/bidEnroll/myList', probes[i].token, { pageNo: 1, pageSize: 1 }, 3_000)).status;
      } catch {
        // no answer
      }
      const key = `health ${health || 'no answer'}, signed-in call ${call || 'no answer'}`;
      seen[i].set(key, (seen[i].get(key) ?? 0) + 1);
      // serving again counts only once the new primary exists: before that an answer may come from a cache
      if (promotedAt !== null && health === 200 && call === 200) {
        servedAt[i] = Date.now();
        log(`app node ${i + 1} (${url}) serves again after ${seconds(servedAt[i] - killedAt)}`);
        openWatcher(i);
      }
    }),
  );
  await sleep(250);
}
check(promotedAt !== null, `the standby is promoted (${seconds(promotedAt && promotedAt - killedAt)} after the crash)`);
for (const [i, url] of appUrls.entries()) {
  const took = servedAt[i] === null ? null : servedAt[i] - killedAt;
  check(exitedAt[i] === null, `app node ${i + 1} (${url}) keeps running through the failover${exitedAt[i] === null ? '' : `: exited ${seconds(exitedAt[i] - killedAt)} after the crash`}`);
  check(took !== null && took <= recoveryLimitMs, `app node ${i + 1} (${url}) serves again within ${seconds(recoveryLimitMs)} without a restart: ${seconds(took)}`);
  console.log(`      probes seen on node ${i + 1}: ${[...seen[i]].map(([k, n]) => `${n} × ${k}`).join('; ')}`);
}

// more bidding on the recovered cluster, then the storm stops and the auction runs out
await sleep(bidAfterRecoveryMs);
stop.abort();
const storm = await stormDone;
const stormEnded = Date.now();
log(`storm stopped: ${storm.acknowledged.length} acknowledged, ${storm.refused.length} refused, ${storm.failed.length} failed (5xx), ${storm.unanswered.length} unanswered`);
const recovered = Math.max(...servedAt.map((t) => t ?? Number.POSITIVE_INFINITY));
for (const [i, url] of appUrls.entries()) {
  const after = [...storm.acknowledged, ...storm.refused, ...storm.failed, ...storm.unanswered].filter((a) => a.baseUrl === url && servedAt[i] !== null && a.sentAt >= servedAt[i]);
  const acked = after.filter((a) => a.status === 200).length;
  check(acked > 0, `app node ${i + 1} accepts bids after the failover: ${after.length} sent, ${acked} acknowledged${after.length > acked ? `; ${tallyAnswers(after.filter((a) => a.status !== 200)).slice(0, 3).join('; ')}` : ''}`);
}

// the auction ends and is awarded: the deadline is read from the new primary
const newPrimary = new pg.Client({ connectionString: pgUrls[standby] });
await newPrimary.connect();
const row = async () =>
  (await newPrimary.query(`SELECT result, hang_state, current_end, best_price_fen::float8 AS best, bid_log_hash FROM auction WHERE trade_no = $1`, [auction.tradeId])).rows[0];
const deadline = new Date((await row()).current_end).getTime();
log(`deadline ${new Date(deadline).toISOString()}, waiting for the award`);
const results = appUrls.map(() => null);
const settled = (r, i) => (r?.auction?.hangState === 3 && r?.auction?.result) || !alive(i);
while (Date.now() < Math.max(deadline, stormEnded) + 20_000 && results.some((r, i) => !settled(r, i))) {
  await Promise.all(
    appUrls.map(async (url, i) => {
      if (!alive(i)) return;
      try {
        const answer = await api(url, '/api/bidResult', null, { tradeId: auction.tradeId }, 3_000);
        if (answer.status === 200) results[i] = answer.body.result;
      } catch {
        // next round
      }
    }),
  );
  await sleep(500);
}
const final = await row();
const comparison = await compareWithDatabase(pgUrls[standby], storm);
const bestStored = storm.acknowledged.reduce((best, a) => Math.max(best, a.price), 0);
for (const [i, url] of appUrls.entries()) {
  const r = results[i];
  check(r?.auction?.hangState === 3 && r?.auction?.result === 'deal' && r?.dealPrice === final.best, `app node ${i + 1} (${url}) shows the auction ended and awarded at the best stored price: ${r ? `hangState ${r.auction?.hangState}, ${r.auction?.result}, 成交价 ${r.dealPrice}` : 'no result'} (stored best ${final.best})`);
  const snapshot = await api(url, `/api/bidRecord/snapshot?tradeId=${auction.tradeId}`, null).catch(() => null);
  const s = snapshot?.body?.result;
  check(s?.hangState === 3 && s?.bidCount === comparison.stored, `app node ${i + 1}'s live snapshot agrees: ${s ? `hangState ${s.hangState}, ${s.bidCount} bids` : 'no snapshot'} (stored ${comparison.stored})`);
  check(watchers[i].ended, `a watcher connected to app node ${i + 1} after its recovery saw the auction end (${watchers[i].messages} messages)`);
  watchers[i].socket?.close();
}
check(final.result === 'deal' && final.hang_state === 3, `the auction is awarded in the new primary: result ${final.result}, hang_state ${final.hang_state}`);
check(final.best === bestStored || comparison.stored === 0, `the best stored price ${final.best} is the best acknowledged bid ${bestStored}`);

// acknowledged ⇒ stored, refused ⇒ not stored, in the new primary
check(comparison.acknowledgedMissing.length === 0, `every acknowledged bid is stored in the new primary: ${storm.acknowledged.length - comparison.acknowledgedMissing.length} of ${storm.acknowledged.length}${comparison.acknowledgedMissing.length ? ` — missing: ${comparison.acknowledgedMissing.slice(0, 5).map((a) => `seq ${a.seq} price ${a.price} via ${a.baseUrl}`).join(', ')}` : ''}`);
check(comparison.refusedStored.length === 0, `no refused bid is stored: ${comparison.refusedStored.length} of ${storm.refused.length}`);
check(comparison.failedStored.length === 0, `no bid answered as failed (5xx) is stored: ${comparison.failedStored.length} of ${storm.failed.length}`);
check(comparison.orderly, 'the stored bids are numbered 1, 2, 3 … with prices that only go up');
// while the database is away a bid is answered 503 (retry-safe) or refused, never 500 (the client could not tell)
const internal = storm.failed.filter((a) => a.status === 500);
check(internal.length === 0, `no bid is answered 500: ${internal.length}${internal.length ? ` (${tallyAnswers(internal).join('; ')})` : ''}`);

// the public bid log, as anyone would check it
let published = { status: 0, body: { message: 'no app node running' } };
for (const [i, url] of appUrls.entries()) {
  if (!alive(i) || published.status === 200) continue;
  published = await api(url, `/api/bidRecord/log?tradeId=${auction.tradeId}`, null).catch((err) => ({ status: 0, body: { message: String(err) } }));
}
if (published.status === 200) {
  const verification = verifyBidLog(published.body.result);
  check(verification.ok, `the public bid log verifies: ${published.body.result.entries.length} entries${verification.ok ? '' : ` — ${verification.firstBroken?.reason} (index ${verification.firstBroken?.index})`}`);
  check(published.body.result.entries.length === comparison.stored && published.body.result.finalHash === final.bid_log_hash, 'the log holds every stored bid and ends at the auction\'s stored head');
} else {
  check(false, `the public bid log is published: ${published.status} ${published.body?.message ?? ''}`);
}
await newPrimary.end();

console.log('');
console.log('Figures');
console.log(`  standby promoted after          ${seconds(promotedAt && promotedAt - killedAt)}`);
for (const [i, url] of appUrls.entries()) console.log(`  app node ${i + 1} serves again after    ${seconds(servedAt[i] && servedAt[i] - killedAt)}  (${url})`);
console.log(`  both nodes serve again after    ${seconds(servedAt.every((t) => t !== null) ? recovered - killedAt : null)}`);
console.log(`  bids acknowledged               ${storm.acknowledged.length}`);
console.log(`  acknowledged and stored         ${storm.acknowledged.length - comparison.acknowledgedMissing.length}`);
console.log(`  stored in the new primary       ${comparison.stored} (of them ${comparison.unansweredStored} unanswered, ${comparison.unexplained} not from this storm)`);
console.log(`  refused (4xx)                   ${storm.refused.length}`);
console.log(`  failed (5xx)                    ${storm.failed.length}`);
console.log(`  errors (no answer)              ${storm.unanswered.length}`);
console.log(`  snapshot reads failed           ${storm.snapshotErrors}`);
console.log('  failures (5xx, no answer) by answer:');
for (const line of tallyAnswers([...storm.failed, ...storm.unanswered]).slice(0, 8)) console.log(`    ${line}`);
console.log('  refusals (4xx) by answer:');
for (const line of tallyAnswers(storm.refused).slice(0, 6)) console.log(`    ${line}`);
const failed = checks.filter((c) => !c.ok);
console.log('');
console.log(failed.length ? `FAILED: ${failed.length} of ${checks.length} checks` : `PASSED: all ${checks.length} checks`);
process.exit(failed.length ? 1 : 0);
