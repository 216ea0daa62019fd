// Bidding clients against running CoalX nodes, every answer compared with the stored bids (module:
// apps/server/src/test/bid-storm.ts). From the repository root:
//   node --import tsx deploy/ha/bid-storm.mjs --urls http://127.0.0.1:8080,http://127.0.0.1:8081 \
//     --database postgres://postgres@127.0.0.1:5432/coalx [--clients 50] [--seconds 30] [--trade-id JJ…]
// Without --trade-id it publishes a sale auction as buyer02 (demo data), has the operator approve it and enrols the
// demo traders; bidding then starts about 6 s later. Exit code 1 when an acknowledged bid is missing or a refused
// one is stored.
import { parseArgs } from 'node:util';
import { compareWithDatabase, prepareStormAuction, runBidStorm, STORM_BIDDERS, tallyAnswers } from '../../apps/server/src/test/bid-storm.ts';

const { values } = parseArgs({
  options: {
    urls: { type: 'string' },
    database: { type: 'string' },
    clients: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '30' },
    'trade-id': { type: 'string' },
    bidders: { type: 'string', default: STORM_BIDDERS.join(',') },
  },
});
const baseUrls = (values.urls ?? '').split(',').filter(Boolean);
if (baseUrls.length === 0) {
  console.error('usage: node --import tsx deploy/ha/bid-storm.mjs --urls <url,…> [--database <postgres url>] [--clients 50] [--seconds 30] [--trade-id JJ…]');
  process.exit(2);
}
let tradeId = values['trade-id'];
let bidders = values.bidders.split(',').filter(Boolean);
let startAt = Date.now();
if (!tradeId) {
  const auction = await prepareStormAuction({ baseUrl: baseUrls[0], candidates: bidders, bidWindowMs: Number(values.seconds) * 1000 });
  ({ tradeId, bidders } = auction);
  startAt = auction.bidStart;
  console.log(`auction ${tradeId}, bidders ${bidders.join(', ')}, bidding from ${new Date(startAt).toISOString()}`);
}
const storm = await runBidStorm({ baseUrls, tradeId, bidders, clients: Number(values.clients), until: startAt + Number(values.seconds) * 1000 });
console.log(`acknowledged ${storm.acknowledged.length}, refused ${storm.refused.length}, failed (5xx) ${storm.failed.length}, no answer ${storm.unanswered.length}, snapshot reads failed ${storm.snapshotErrors}`);
for (const line of tallyAnswers([...storm.refused, ...storm.failed, ...storm.unanswered]).slice(0, 10)) console.log(`  ${line}`);
if (values.database) {
  const comparison = await compareWithDatabase(values.database, storm);
  console.log(`stored ${comparison.stored}; acknowledged missing ${comparison.acknowledgedMissing.length}; refused stored ${comparison.refusedStored.length}; 5xx stored ${comparison.failedStored.length}; unanswered stored ${comparison.unansweredStored}; numbered and rising: ${comparison.orderly}`);
  process.exit(comparison.ok ? 0 : 1);
}
