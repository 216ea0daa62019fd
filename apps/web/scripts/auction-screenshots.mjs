// Screenshots of the auction (竞价) pages against a running server, with a live auction made for the occasion:
//   node apps/web/scripts/auction-screenshots.mjs http://localhost:8096 /tmp/shots-auction
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';

const base = process.argv[2] ?? 'http://localhost:8080';
const out = process.argv[3] ?? '/tmp/shots-auction';
mkdirSync(out, { recursive: true });
const api = `${base}/trade-api`;

async function call(path, { token, body, method } = {}) {
  const r = await fetch(`${api}${path}`, {
    method: method ?? (body === undefined ? 'GET' : 'POST'),
    headers: { 'content-type': 'application/json', ...(token ? { 'X-Access-Token': token } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const j = await r.json();
  if (j.code !== 0) throw new Error(`${path}: ${j.message}`);
  return j.result;
}
const login = async (username, password = 'Trader#2026') => (await call('/sys/login', { body: { username, password } })).token;
const iso = (ms) => new Date(ms + 8 * 3600_000).toISOString().replace('Z', '+08:00');
const day = (ms) => new Date(ms + 8 * 3600_000).toISOString().slice(0, 10);

function auctionBody(tradeType, now, { enrolIn, startIn, length, ext = 30, start = 78_000 }) {
  return {
    tradeType,
    stockCode: 'DLM5500',
    quality: { qnet: 5500, mt: 12, st: 0.8, ad: 18, vdaf: 28 },
    quantity: 30_000_000,
    startPrice: start,
    minStep: 100,
    maxStep: 1_000,
    limitPrice: null,
    deposit: 20_000_000,
    enrolDeadline: iso(now + enrolIn),
    bidStart: iso(now + startIn),
    bidEnd: iso(now + startIn + length),
    extensionSeconds: ext,
    priceType: 'factory_tax',
    transport: 'rail',
    deliveryProvince: '山西省',
    deliveryCity: '朔州市',
    deliveryDistrict: '平鲁区',
    deliveryPlace: '井坪镇大型储煤场 1 号堆场',
    deliveryDateStart: day(now + 3 * 86_400_000),
    deliveryDateEnd: day(now + 30 * 86_400_000),
    remark: '以第三方检验报告为准；铁路专用线装车。',
    submit: true,
  };
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
async function context(username, password) {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.log('PAGEERROR', e.message));
  page.on('console', (m) => m.type() === 'error' && console.log('CONSOLE', m.text()));
  if (username) {
    await page.goto(`${base}/user/login`);
    await page.getByPlaceholder('用户名').fill(username);
    await page.getByPlaceholder('密码').fill(password ?? 'Trader#2026');
    await page.getByRole('button', { name: /登\s*录/ }).click();
    await page.waitForURL((u) => !u.pathname.startsWith('/user/login'));
  }
  return { ctx, page };
}
const shot = async (page, name, full = true) => {
  await page.waitForTimeout(900);
  await page.screenshot({ path: `${out}/${name}.png`, fullPage: full });
  console.log(name, page.url());
};

try {
  const [seller, buyer1, buyer2, operator] = await Promise.all([login('seller01'), login('buyer01'), login('buyer02'), login('operator', 'Operator#2026')]);
  const now = Date.now();
  const live = await call('/api/bidApply', { token: seller, body: auctionBody(2, now, { enrolIn: 50_000, startIn: 55_000, length: 40_000 }) });
  const open = await call('/api/bidApply', { token: seller, body: auctionBody(3, now, { enrolIn: 3 * 3600_000, startIn: 4 * 3600_000, length: 3600_000, ext: 120, start: 72_000 }) });
  await call('/api/auction/audit/approve', { token: operator, body: { tradeId: live.tradeId } });
  await call('/api/auction/audit/approve', { token: operator, body: { tradeId: open.tradeId } });
  for (const t of [buyer1, buyer2]) await call('/api/bidEnroll/add', { token: t, body: { tradeId: live.tradeId, acceptRules: true, requestId: crypto.randomUUID() } });
  const pending = await call('/api/bidApply', { token: seller, body: auctionBody(2, now, { enrolIn: 5 * 3600_000, startIn: 6 * 3600_000, length: 3600_000 }) });
  console.log('live', live.tradeId, 'open', open.tradeId, 'pending', pending.tradeId);

  // the public pages and the forms while the live auction waits to start
  {
    const { ctx, page } = await context();
    await page.goto(`${base}/index`);
    await page.waitForSelector('.coalx-mini-table tbody tr');
    await shot(page, 'A01-home-visitor');
    await ctx.close();
  }
  const b1 = await context('buyer01');
  await b1.page.goto(`${base}/moreBidding?tradeType=2`);
  await b1.page.waitForSelector('.ant-table-row');
  await shot(b1.page, 'A02-more-bidding-buyer01');
  await b1.page.goto(`${base}/waitingAuction?tradeId=${live.tradeId}`);
  await b1.page.waitForSelector('.coalx-countdown-digits');
  await shot(b1.page, 'A03-waiting-buyer01');
  await b1.page.goto(`${base}/biddingDetails?tradeId=${open.tradeId}`);
  await b1.page.waitForSelector('.coalx-countdown-digits');
  await shot(b1.page, 'A04-details-buyer01');
  await b1.page.goto(`${base}/deal/biddRegistration?tradeId=${open.tradeId}`);
  await b1.page.getByText('我已阅读并同意《竞价交易规则》').waitFor();
  await shot(b1.page, 'A05-registration-buyer01');

  const s1 = await context('seller01');
  await s1.page.goto(`${base}/listingTrade/Bidding?tradeType=2`);
  await s1.page.getByText('报名与竞价时间').waitFor();
  await shot(s1.page, 'A06-publish-sale-seller01');
  await s1.page.goto(`${base}/listingTrade/Bidding?tradeType=3`);
  await s1.page.getByText('基价').first().waitFor();
  await shot(s1.page, 'A07-publish-purchase-seller01', false);

  // the live auction: three screens at once
  const b2 = await context('buyer02');
  const visitor = await context('operator', 'Operator#2026');
  for (const p of [b1.page, b2.page, visitor.page, s1.page]) await p.goto(`${base}/deal/bidding?tradeId=${live.tradeId}`);
  await b1.page.waitForSelector('[data-testid=best-price]');
  while ((await call(`/api/bidRecord/snapshot?tradeId=${live.tradeId}`)).hangState !== 2) await new Promise((r) => setTimeout(r, 500));
  await call('/api/bidRecord/bidAnswerApply', { token: buyer1, body: { tradeId: live.tradeId, price: 78_000 } });
  await call('/api/bidRecord/bidAnswerApply', { token: buyer2, body: { tradeId: live.tradeId, price: 78_300 } });
  await call('/api/bidRecord/bidAnswerApply', { token: buyer1, body: { tradeId: live.tradeId, price: 78_500 } });
  await call('/api/bidRecord/bidAnswerApply', { token: buyer2, body: { tradeId: live.tradeId, price: 79_000 } });
  await shot(b1.page, 'A08-bidding-buyer01-outbid');
  await shot(b2.page, 'A09-bidding-buyer02-leading');
  await shot(visitor.page, 'A10-bidding-operator');
  await shot(s1.page, 'A11-bidding-seller01');
  // the confirm dialog of a quick bid
  await b1.page.locator('.coalx-bid-quick button').nth(1).click();
  await b1.page.locator('.ant-modal-confirm').waitFor();
  await shot(b1.page, 'A12-bidding-confirm-buyer01', false);
  await b1.page.getByRole('button', { name: '确认出价' }).click();
  await b1.page.locator('.ant-message-notice').first().waitFor();
  await shot(b1.page, 'A13-bidding-after-bid-buyer01', false);

  // extension: wait for the regular end and bid in it
  const snap = await call(`/api/bidRecord/snapshot?tradeId=${live.tradeId}`);
  await new Promise((r) => setTimeout(r, Math.max(0, snap.bidEnd - snap.serverTime + 1500)));
  await call('/api/bidRecord/bidAnswerApply', { token: buyer2, body: { tradeId: live.tradeId, price: 79_500 } });
  await shot(b2.page, 'A14-bidding-extension-buyer02');
  // the end
  for (;;) {
    const s = await call(`/api/bidRecord/snapshot?tradeId=${live.tradeId}`);
    if (s.hangState === 3) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  await shot(visitor.page, 'A15-bidding-ended-operator', false);
  await visitor.page.goto(`${base}/biddingResults?tradeId=${live.tradeId}`);
  await visitor.page.waitForSelector('[data-testid=auction-result]');
  await shot(visitor.page, 'A16-result-operator');

  // workspace
  for (const [p, path, name] of [
    [s1.page, '/auctionTrade/query', 'A17-ws-query-seller01'],
    [s1.page, '/auctionTrade/start', 'A18-ws-start-seller01'],
    [s1.page, '/auctionTrade/deal', 'A19-ws-deal-seller01'],
    [s1.page, '/auctionTrade/result', 'A20-ws-result-seller01'],
    [b2.page, '/auctionTrade/sign', 'A21-ws-sign-buyer02'],
    [b2.page, '/auctionTrade/deal', 'A22-ws-deal-buyer02'],
    [b1.page, '/auctionTrade/sign', 'A23-ws-sign-buyer01'],
  ]) {
    await p.goto(`${base}${path}`);
    await p.waitForTimeout(1500);
    await shot(p, name, false);
  }
  const op = visitor;
  await op.page.goto(`${base}/operation/tradeAudit`);
  await op.page.getByRole('tab', { name: '竞价审核与监控' }).click();
  await op.page.waitForSelector('.ant-tabs-tabpane-active .ant-table-row');
  await shot(op.page, 'A24-ws-audit-operator', false);
  await op.page.getByRole('tabpanel').locator('.ant-form').getByRole('button', { name: /重\s*置/ }).click().catch(() => undefined);
  await op.page.waitForTimeout(1000);
  const row = op.page.locator('.ant-tabs-tabpane-active .ant-table-row', { hasText: live.tradeId });
  if (await row.count()) {
    await row.getByRole('button', { name: '监控' }).click();
    await op.page.waitForSelector('.ant-drawer .ant-table-row');
    await shot(op.page, 'A25-ws-monitor-operator', false);
  }
} finally {
  await browser.close();
}
