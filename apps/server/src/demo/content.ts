import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { shanghaiDate } from '../lib/shanghai-time';
import type { Tx } from '../db/client';
import { auctions, banners, contents, fileObjects, listings, marketIndex, recommendations, users } from '../db/schema/index';
import { renderDocumentPdf } from '../lib/pdf/document-pdf';
import { gradientPng } from '../lib/simple-png';
import { isoWeekOf, isoWeekStart } from '../modules/market-index/market-index.service';
import type { FileStorage } from '../modules/files/storage';

const DAY = 86400_000;

/** A seeded walk, so every fresh demo shows the same shape of market. */
function walk(seed: number) {
  let s = seed;
  return () => {
    s = (s * 16807) % 2147483647;
    return s / 2147483647;
  };
}

async function storePublic(tx: Tx, storage: FileStorage, ownerId: number, key: string, name: string, data: Buffer, contentType: string) {
  await storage.put(key, data);
  await tx.insert(fileObjects).values({
    storageKey: key,
    originalName: name,
    contentType,
    size: data.length,
    sha256: createHash('sha256').update(data).digest('hex'),
    visibility: 'public',
    ownerEnterpriseId: null,
    uploadedBy: ownerId,
  });
  return key;
}

const WEEKLY_PARAGRAPHS = [
  '本周环渤海港口动力煤现货价格窄幅波动，5500 大卡动力煤平仓价较上周小幅上行。产地方面，主产区煤矿生产总体平稳，部分煤矿因安全检查产量有所收缩，坑口价格稳中偏强。',
  '需求方面，沿海电厂日耗回升，库存可用天数下降至合理区间下沿，补库需求逐步释放；非电行业中，建材、化工用煤需求平稳。',
  '运输方面，大秦线运量维持高位，港口调入调出基本平衡，锚地船舶数量增加，海运费小幅上涨。',
  '后市展望：预计下周动力煤价格以稳为主，关注主产区安全检查、进口煤到港节奏以及气温变化对电厂日耗的影响。',
];
const OBSERVATION_PARAGRAPHS = [
  '今年以来，电厂长协履约率保持高位，现货市场成交以中短期采购为主，线上挂牌与竞价成交量同比明显增长。',
  '从本平台成交看，5500 大卡动力煤成交均价与港口价格走势基本一致，竞价交易的平均溢价率保持在 1% 以内，价格发现功能逐步显现。',
  '建议交易商合理安排资金与运力，关注保证金比例与交收时间，充分利用挂牌和竞价两种方式锁定货源与销路。',
];
const RULE_CHAPTERS: Record<'a' | 'b' | 'c' | 'd', string[]> = {
  a: ['第一章 总则', '第一条 为规范煤炭现货交易行为，保护交易各方合法权益，根据国家有关法律法规，制定本规则。', '第二条 本规则适用于在本交易中心进行的挂牌交易和竞价交易。', '第二章 挂牌交易', '第三条 挂牌方应如实填写煤种、质量指标、数量、价格、交收地点及交收时间等信息，经交易中心审核后方可挂牌。', '第四条 摘牌方摘牌时须冻结相应保证金，摘牌数量应在最小摘牌量与最大摘牌量之间。', '第三章 竞价交易', '第五条 竞价交易实行报名制，报名企业须在报名截止时间前缴纳竞价保证金。', '第六条 竞价时间结束前有有效报价的，进入延时竞价，延时周期内无新报价的，竞价结束，价格最优者成交。'],
  b: ['第一章 总则', '第一条 为加强交易商管理，维护市场秩序，制定本办法。', '第二章 交易商准入', '第二条 申请成为交易商的企业应依法设立，具有统一社会信用代码，并提交营业执照、授权委托书等材料。', '第三条 交易中心对申请材料进行审核，审核通过后开通交易权限。', '第三章 交易商义务', '第四条 交易商应遵守交易规则，按约履行合同，不得扰乱市场秩序。'],
  c: ['第一章 总则', '第一条 为保障交易履约，规范保证金管理，制定本办法。', '第二章 保证金的缴纳', '第二条 交易商参与挂牌摘牌或竞价交易，须按交易规定缴纳保证金，保证金从交易商资金账户冻结。', '第三章 保证金的释放与抵扣', '第三条 未成交的保证金在交易结束后释放；成交的保证金转为履约保证金，履约完成后释放或抵扣货款。'],
  d: ['第一章 总则', '第一条 本交易中心是为煤炭生产、贸易和消费企业提供现货交易服务的电子交易平台。', '第二条 交易中心遵循公开、公平、公正和诚实信用的原则组织交易。'],
};
const RULE_TITLES = { a: '煤炭现货交易规则', b: '交易商管理办法', c: '保证金管理办法', d: '交易中心章程' } as const;

async function docPdf(title: string, paragraphs: string[], date: string): Promise<Buffer> {
  const pdf = await renderDocumentPdf({
    title,
    header: `CoalX 煤炭现货交易中心　${date}`,
    // repeated twice so the document has a second page to navigate to
    paragraphs: [`# ${title}`, ...[...paragraphs, ...paragraphs].map((p) => (/^第.+章 /.test(p) ? `## ${p}` : p))],
    createdAt: new Date(`${date}T09:00:00+08:00`),
  });
  return Buffer.from(pdf);
}

/**
 * The public face of the demo market: a year of weekly index values, banners, announcements of every type with
 * Chinese PDF attachments, and recommended trades.
 */
export async function loadDemoContent(tx: Tx, storage: FileStorage, now: Date) {
  const [operator] = await tx.select().from(users).where(eq(users.username, 'operator'));
  const operatorId = operator!.id;
  const t = now.getTime();
  const day = shanghaiDate(t).replace(/-/g, '/');

  // ----- 52 weekly index terms, the last one last week -----
  const random = walk(20261122);
  const { year, term } = isoWeekOf(new Date(t - 7 * DAY));
  let price = 82_000;
  let previous: number | null = null;
  for (let i = 51; i >= 0; i--) {
    const start = isoWeekStart(year, term).getTime() - i * 7 * DAY;
    const week = isoWeekOf(new Date(start + 3 * DAY));
    price = Math.max(65_000, Math.min(98_000, price + Math.round((random() - 0.48) * 2_400)));
    const quoteDate = shanghaiDate(start + 4 * DAY); // the Friday of the week
    await tx.insert(marketIndex).values({
      currentYear: week.year,
      currentTerm: week.term,
      totalTerm: 260 - i,
      quoteDate,
      priceFen: price,
      riseFen: previous === null ? 0 : price - previous,
      dealCount: 3 + Math.floor(random() * 12),
      dealTonnageKg: (20 + Math.floor(random() * 80)) * 1_000_000,
      publishedBy: operatorId,
    });
    previous = price;
  }

  // ----- banners -----
  const bannerSpecs: [string, string, [number, number, number], [number, number, number]][] = [
    ['动力煤挂牌交易专区', '/moreListings?tradeType=0', [22, 48, 92], [38, 112, 180]],
    ['竞价交易 公开透明 价高者得', '/moreBidding?tradeType=2', [40, 40, 48], [170, 90, 30]],
    ['电厂采购 一键摘牌', '/moreListings?tradeType=1', [16, 80, 70], [40, 150, 110]],
  ];
  for (const [i, [title, link, from, to]] of bannerSpecs.entries()) {
    const key = await storePublic(tx, storage, operatorId, `${day}/00000000-0000-4000-9000-${String(i + 1).padStart(12, '0')}.png`, `banner-${i + 1}.png`, gradientPng(1200, 360, from, to), 'image/png');
    await tx.insert(banners).values({ title, imageUrl: key, detailPageUrl: link, sort: i + 1 });
  }

  // ----- announcements: 12 weekly reports (so 'view more' shows), 6 observations, the rule documents -----
  let fileNo = 100;
  const pdfKey = () => `${day}/00000000-0000-4000-a000-${String(++fileNo).padStart(12, '0')}.pdf`;
  for (let i = 0; i < 12; i++) {
    const week = isoWeekOf(new Date(t - (i + 1) * 7 * DAY));
    const title = `${week.year}年第${week.term}期 动力煤市场周报`;
    const date = shanghaiDate(t - i * 7 * DAY - 2 * DAY);
    const key = await storePublic(tx, storage, operatorId, pdfKey(), `${title}.pdf`, await docPdf(title, WEEKLY_PARAGRAPHS, date), 'application/pdf');
    await tx.insert(contents).values({
      type: '0',
      title,
      bodyHtml: WEEKLY_PARAGRAPHS.map((p) => `<p>${p}</p>`).join(''),
      enclosure: key,
      effectiveTime: new Date(t - i * 7 * DAY - 2 * DAY),
      status: 'published',
      publishedAt: new Date(t - i * 7 * DAY - 2 * DAY),
      createdBy: operatorId,
    });
  }
  const observations = ['电厂补库节奏与现货价格走势观察', '线上竞价交易溢价率分析', '主产区安全检查对供给的影响', '进口煤到港节奏与沿海价格', '长协与现货价差变化观察', '冬储行情前瞻'];
  for (const [i, topic] of observations.entries()) {
    const date = shanghaiDate(t - (i * 5 + 1) * DAY);
    const key = await storePublic(tx, storage, operatorId, pdfKey(), `${topic}.pdf`, await docPdf(topic, OBSERVATION_PARAGRAPHS, date), 'application/pdf');
    await tx.insert(contents).values({
      type: '1',
      title: `市场观察：${topic}`,
      bodyHtml: OBSERVATION_PARAGRAPHS.map((p) => `<p>${p}</p>`).join(''),
      enclosure: key,
      effectiveTime: new Date(t - (i * 5 + 1) * DAY),
      status: 'published',
      publishedAt: new Date(t - (i * 5 + 1) * DAY),
      createdBy: operatorId,
    });
  }
  for (const type of ['a', 'b', 'c', 'd'] as const) {
    const title = RULE_TITLES[type];
    const key = await storePublic(tx, storage, operatorId, pdfKey(), `${title}.pdf`, await docPdf(title, RULE_CHAPTERS[type], shanghaiDate(t - 90 * DAY)), 'application/pdf');
    await tx.insert(contents).values({
      type,
      title,
      bodyHtml: RULE_CHAPTERS[type].map((p) => `<p>${p}</p>`).join(''),
      enclosure: key,
      effectiveTime: new Date(t - 90 * DAY),
      status: 'published',
      publishedAt: new Date(t - 90 * DAY),
      createdBy: operatorId,
    });
  }
  // an expired notice, kept for the operator but hidden from visitors
  await tx.insert(contents).values({ type: '1', title: '（已过期）国庆假期交易安排', bodyHtml: '<p>国庆假期期间暂停交易。</p>', effectiveTime: new Date(t - 60 * DAY), expirationTime: new Date(t - 50 * DAY), status: 'published', publishedAt: new Date(t - 60 * DAY), createdBy: operatorId });

  // ----- recommended trades: every approved trade a visitor can see -----
  let sort = 0;
  for (const l of await tx.select().from(listings)) {
    if (l.status === 'approved') await tx.insert(recommendations).values({ tradeKind: 'listing', tradeNo: l.tradeNo, sort: ++sort, createdBy: operatorId }).onConflictDoNothing();
  }
  for (const a of await tx.select().from(auctions)) {
    if (a.status === 'approved') await tx.insert(recommendations).values({ tradeKind: 'auction', tradeNo: a.tradeNo, sort: ++sort, createdBy: operatorId }).onConflictDoNothing();
  }
}
