// Content for the home-page e2e (and for a manual look at a fresh server): index terms, banners, announcements of
// every type with Chinese PDF attachments, and recommended trades, all through the operator's HTTP API.
// CLI: node --import tsx e2e/home-seed.ts http://localhost:8080
import { deflateSync } from 'node:zlib';
import { renderDocumentPdf } from '../apps/server/src/lib/pdf/document-pdf';

const API = '/trade-api';

async function call<T>(base: string, token: string | null, method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method, headers: { ...(token ? { 'X-Access-Token': token } : {}) } };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  const response = await fetch(`${base}${API}${path}`, init);
  const json = (await response.json()) as { code: number; message: string; result: T };
  if (!response.ok || json.code !== 0) throw new Error(`${method} ${path}: ${response.status} ${json.message}`);
  return json.result;
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer) {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
/** A gradient PNG (no dependency): a stand-in banner picture. */
export function gradientPng(width: number, height: number, from: [number, number, number], to: [number, number, number]): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 3 + 1)] = 0;
    for (let x = 0; x < width; x++) {
      const t = x / (width - 1);
      const stripe = (x + y) % 80 < 2 ? 18 : 0;
      for (let c = 0; c < 3; c++) raw[y * (width * 3 + 1) + 1 + x * 3 + c] = Math.min(255, Math.round(from[c]! + (to[c]! - from[c]!) * t) + stripe);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

async function upload(base: string, token: string, name: string, data: Buffer, type: string): Promise<string> {
  const form = new FormData();
  form.append('visibility', 'public');
  form.append('file', new Blob([new Uint8Array(data)], { type }), name);
  return (await call<{ url: string }>(base, token, 'POST', '/api/common/upload', form)).url;
}

export interface HomeSeed {
  weeklyTotal: number;
  ruleEnclosure: string;
  ruleTitle: string;
  recommended: string[];
}

function isoDaysAgo(days: number) {
  return new Date(Date.now() - days * 86400_000).toISOString();
}

export async function seedHomeContent(base: string): Promise<HomeSeed> {
  const login = await call<{ token: string }>(base, null, 'POST', '/sys/login', { username: 'operator', password: 'Operator#2026' });
  const token = login.token;

  // two index terms after whatever is there, the second one rising
  const latest = await call<{ currentYear: number; currentTerm: number } | null>(base, null, 'GET', '/api/commoditymarketindex/commodityMarketIndex/info');
  let year = latest?.currentYear ?? 2025;
  let term = latest?.currentTerm ?? 40;
  // a week with sampled deals must be published at their weighted average (the index method): the two terms go to
  // weeks without deals, so their prices are the ones this seed chooses
  const next = () => {
    term += 1;
    if (term > 52) {
      term = 1;
      year += 1;
    }
  };
  for (const price of [78_650, 79_320]) {
    next();
    for (;;) {
      const proposal = await call<{ price: number | null }>(base, token, 'GET', `/api/commoditymarketindex/commodityMarketIndex/proposal?year=${year}&term=${term}`);
      if (proposal.price === null) break;
      next();
    }
    await call(base, token, 'POST', '/api/commoditymarketindex/commodityMarketIndex/publish', {
      currentYear: year,
      currentTerm: term,
      quoteDate: new Date().toISOString().slice(0, 10),
      price,
    });
  }

  const pictures: [string, [number, number, number], [number, number, number], string][] = [
    ['冬储保供专场 · 动力煤竞价', [11, 37, 69], [26, 86, 219], '/moreBidding?tradeType=2'],
    ['挂牌交易全面上线', [19, 49, 92], [245, 166, 35], '/moreListings?tradeType=0'],
  ];
  for (const [i, [title, from, to, link]] of pictures.entries()) {
    const imageUrl = await upload(base, token, `banner-${i}.png`, gradientPng(1200, 300, from, to), 'image/png');
    await call(base, token, 'POST', '/api/banner/save', { title, imageUrl, detailPageUrl: link, sort: i, enabled: true });
  }

  const saveAndPublish = async (type: string, title: string, body: string, enclosure: string | null) => {
    const saved = await call<{ id: number }>(base, token, 'POST', '/api/content/save', { type, title, body, enclosure, effectiveTime: isoDaysAgo(1), expirationTime: null });
    await call(base, token, 'POST', '/api/content/publish', { id: saved.id });
  };
  const weeklyTotal = 12;
  for (let i = 1; i <= weeklyTotal; i++) {
    await saveAndPublish('0', `动力煤市场周报（第${i}期）：港口库存回落，电厂日耗维持高位，现货价格稳中有升的走势延续`, `<p>本周动力煤现货价格<strong>稳中有升</strong>。</p><script>alert(1)</script>`, null);
  }
  await saveAndPublish('1', '市场观察：冬季用煤高峰前的采购节奏', '<p>电厂补库需求释放。</p>', null);
  const ruleTitle = '煤炭现货交易规则（试行）';
  const pdf = Buffer.from(
    await renderDocumentPdf({
      title: ruleTitle,
      createdAt: new Date('2026-01-01T09:00:00+08:00'),
      paragraphs: [
        `# ${ruleTitle}`,
        '## 第一章 总则',
        '第一条 为规范煤炭现货交易行为，保护交易各方的合法权益，根据国家有关法律法规，制定本规则。',
        '第二条 本规则适用于在本交易中心进行的挂牌交易和竞价交易。',
      ],
    }),
  );
  const ruleEnclosure = await upload(base, token, 'rules.pdf', pdf, 'application/pdf');
  await saveAndPublish('a', ruleTitle, '<p>见附件。</p>', ruleEnclosure);
  for (const [type, title] of [
    ['b', '交易商管理办法'],
    ['c', '保证金管理办法'],
  ] as const) {
    const doc = await renderDocumentPdf({ title, createdAt: new Date('2026-01-01T09:00:00+08:00'), paragraphs: [`# ${title}`, '第一条 总则。'] });
    const key = await upload(base, token, `${type}.pdf`, Buffer.from(doc), 'application/pdf');
    await saveAndPublish(type, title, '<p>见附件。</p>', key);
  }

  // recommend what the public tables show: a few listings and auctions
  const recommended: string[] = [];
  for (const [path, types] of [
    ['/api/tradeHome/listedTrade/list', [0, 1]],
    ['/api/tradeHome/bidTrade/list', [2, 3]],
  ] as const) {
    for (const tradeType of types) {
      const page = await call<{ records: { tradeId: string }[] }>(base, null, 'POST', path, { pageNo: 1, pageSize: 5, tradeType }).catch(() => ({ records: [] }));
      for (const r of page.records.slice(0, 3)) {
        await call(base, token, 'POST', '/api/tradeHome/recommend/mark', { tradeId: r.tradeId, recommended: true });
        recommended.push(r.tradeId);
      }
    }
  }
  return { weeklyTotal, ruleEnclosure, ruleTitle, recommended };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const base = process.argv[2] ?? 'http://localhost:8080';
  console.log(await seedHomeContent(base));
}
