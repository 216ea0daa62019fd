import { AuctionState, CONTRACT_SIDES, formatDateTime, formatFen, formatPrice, formatTons, isSale, type ContractSide } from '@coalx/shared';
import { and, eq, gt, gte, inArray, lt, lte, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client';
import { auctionBids, auctionEnrolments, auctions, contracts, contractUploads, deals, enterprises, listingSubscriptions, listings, messageEvents } from '../../db/schema/index';
import { contractPolicy } from '../../modules/contract/contract.policy';
import { shortTime } from './text';
import type { Notice, NoticeRule, Reminder } from './types';

/**
 * Notices of trading: listings and auctions through the trading centre's audit, subscriptions (摘牌) waiting for the
 * publisher, enrolments, the auction's start, the outbid bidder, the award; and the paper contracts the trading
 * centre reviews. Grants are the ones the acting routes ask (api/listing.routes.ts, api/auction.routes.ts).
 */

/** who publishes (and edits a rejected trade to submit it again) */
const LISTING_PUBLISHERS = 'listingTrade-start.add';
const AUCTION_PUBLISHERS = 'auctionTrade-start.add';
/** who confirms or declines a subscription to the enterprise's listing */
const SUBSCRIPTION_DECIDERS = 'listingTrade-confirm.edit';
/** who subscribes (我的摘牌) */
const SUBSCRIBERS = 'listingTrade-subscribe';
/** who enrols and bids */
const BIDDERS = 'auctionTrade-sign.add';
/** the trading centre's 交易审核 */
const TRADE_AUDITORS = 'operation-tradeAudit.edit';
const CONTRACT_PARTIES = contractPolicy.grantOf('actAsParty') ?? 'contract-sign.edit';
const CONTRACT_RULERS = contractPolicy.grantOf('rule') ?? 'contract-list.edit';

const MINUTE_MS = 60_000;

type ListingRow = typeof listings.$inferSelect;
type AuctionRow = typeof auctions.$inferSelect;

async function listingOf(tx: Tx, id: number): Promise<ListingRow | null> {
  const [row] = await tx.select().from(listings).where(eq(listings.id, id)).limit(1);
  return row ?? null;
}
async function auctionOf(tx: Tx, id: number): Promise<AuctionRow | null> {
  const [row] = await tx.select().from(auctions).where(eq(auctions.id, id)).limit(1);
  return row ?? null;
}
async function enterpriseName(tx: Tx, id: number): Promise<string> {
  const [row] = await tx.select({ name: enterprises.organName }).from(enterprises).where(eq(enterprises.id, id)).limit(1);
  return row?.name ?? '';
}

/** 「挂牌销售 GP…（动力煤 5500，10,000.00 吨，850.00 元/吨）」 */
const describeListing = (l: ListingRow) =>
  `挂牌${isSale(l.tradeType) ? '销售' : '采购'} ${l.tradeNo}（${l.productName}，${formatTons(l.quantityKg)}，${formatPrice(l.priceFen)}）`;
/** 「竞价销售 JJ…（动力煤 5500，5,000.00 吨，起拍价 800.00 元/吨）」 */
const describeAuction = (a: AuctionRow) =>
  `竞价${isSale(a.tradeType) ? '销售' : '采购'} ${a.tradeNo}（${a.productName}，${formatTons(a.quantityKg)}，${isSale(a.tradeType) ? '起拍价' : '基价'} ${formatPrice(a.startPriceFen)}）`;
const biddingLink = (a: AuctionRow) => `/deal/bidding?tradeId=${a.tradeNo}`;

// ---------- the trading centre's audit ----------

const listingSubmitted: NoticeRule = async (tx, payload) => {
  const l = await listingOf(tx, Number(payload.id));
  if (!l || l.status !== 'submitted') return null;
  return {
    notices: [
      {
        to: { staffGrant: TRADE_AUDITORS },
        kind: 'todo.listing_audit',
        category: 'todo',
        title: '待审核挂牌',
        content: `${await enterpriseName(tx, l.enterpriseId)} 提交了${describeListing(l)}，请审核；审核通过后按挂牌时间 ${formatDateTime(l.listedDateStart)} 开放摘牌。`,
        link: '/operation/tradeAudit',
      },
    ],
  };
};

const auctionSubmitted: NoticeRule = async (tx, payload) => {
  const a = await auctionOf(tx, Number(payload.id));
  if (!a || a.status !== 'submitted') return null;
  return {
    notices: [
      {
        to: { staffGrant: TRADE_AUDITORS },
        kind: 'todo.auction_audit',
        category: 'todo',
        title: '待审核竞价',
        content: `${await enterpriseName(tx, a.enterpriseId)} 提交了${describeAuction(a)}，请在报名截止 ${formatDateTime(a.enrolDeadline)} 前审核；审核通过后开放报名。`,
        dueAt: a.enrolDeadline,
        link: '/operation/tradeAudit',
      },
    ],
  };
};

const listingApproved: NoticeRule = async (tx, payload) => {
  const l = await listingOf(tx, Number(payload.id));
  if (!l) return null;
  return {
    notices: [
      {
        to: { enterpriseIds: [l.enterpriseId], grant: LISTING_PUBLISHERS },
        kind: 'listing.approved',
        category: 'trade',
        title: '挂牌审核通过',
        content: `${describeListing(l)}已通过交易中心审核，将于 ${formatDateTime(l.listedDateStart)} 开放摘牌，${formatDateTime(l.listedDateEnd)} 结束。${l.autoConfirm ? '摘牌即自动成交。' : '有企业摘牌时请在「摘牌确认」及时确认或拒绝。'}`,
        link: '/listingTrade/query',
      },
    ],
  };
};

const listingRejected: NoticeRule = async (tx, payload) => {
  const l = await listingOf(tx, Number(payload.id));
  if (!l) return null;
  return {
    notices: [
      {
        to: { enterpriseIds: [l.enterpriseId], grant: LISTING_PUBLISHERS },
        kind: 'listing.rejected',
        category: 'trade',
        title: '挂牌审核驳回',
        content: `${describeListing(l)}未通过交易中心审核，原因：${l.rejectReason || '未说明'}。请在「我的挂牌」修改后重新提交审核。`,
        link: '/listingTrade/query',
      },
    ],
  };
};

const auctionApproved: NoticeRule = async (tx, payload) => {
  const a = await auctionOf(tx, Number(payload.id));
  if (!a) return null;
  return {
    notices: [
      {
        to: { enterpriseIds: [a.enterpriseId], grant: AUCTION_PUBLISHERS },
        kind: 'auction.approved',
        category: 'trade',
        title: '竞价审核通过',
        content: `${describeAuction(a)}已通过交易中心审核并开放报名，报名截止 ${formatDateTime(a.enrolDeadline)}，竞价时间 ${formatDateTime(a.bidStart)} 至 ${formatDateTime(a.bidEnd)}。`,
        link: '/auctionTrade/query',
      },
    ],
  };
};

const auctionRejected: NoticeRule = async (tx, payload) => {
  const a = await auctionOf(tx, Number(payload.id));
  if (!a) return null;
  return {
    notices: [
      {
        to: { enterpriseIds: [a.enterpriseId], grant: AUCTION_PUBLISHERS },
        kind: 'auction.rejected',
        category: 'trade',
        title: '竞价审核驳回',
        content: `${describeAuction(a)}未通过交易中心审核，原因：${a.rejectReason || '未说明'}。请在「我的竞价」修改后重新提交审核。`,
        link: '/auctionTrade/query',
      },
    ],
  };
};

// ---------- subscriptions (摘牌) ----------

async function subscriptionOf(tx: Tx, id: number) {
  const [row] = await tx
    .select({ s: listingSubscriptions, l: listings })
    .from(listingSubscriptions)
    .innerJoin(listings, eq(listings.id, listingSubscriptions.listingId))
    .where(eq(listingSubscriptions.id, id))
    .limit(1);
  return row ?? null;
}
type SubscriptionRow = typeof listingSubscriptions.$inferSelect;
/** 「500.00 吨，845.50 元/吨，金额 422,750.00 元」 */
const subscribed = (s: SubscriptionRow) => `${formatTons(s.quantityKg)}，${formatPrice(s.priceFen)}，金额 ${formatFen(s.amountFen)} 元`;

/** A subscription waiting for the publisher (not auto-confirmed): its deposit is frozen until the answer. */
const subscriptionCreated: NoticeRule = async (tx, payload) => {
  const row = await subscriptionOf(tx, Number(payload.id));
  if (!row || row.s.status !== 'pending') return null;
  const { s, l } = row;
  return {
    notices: [
      {
        to: { enterpriseIds: [l.enterpriseId], grant: SUBSCRIPTION_DECIDERS },
        kind: 'subscription.to_confirm',
        category: 'trade',
        title: '待确认摘牌',
        content: `${await enterpriseName(tx, s.enterpriseId)} 摘牌了您的${describeListing(l)}：${subscribed(s)}，对方保证金已冻结。请在「摘牌确认」确认成交或拒绝，确认后生成成交与合同。`,
        link: '/listingTrade/confirm',
      },
    ],
  };
};

const subscriptionConfirmed: NoticeRule = async (tx, payload) => {
  const row = await subscriptionOf(tx, Number(payload.id));
  if (!row) return null;
  const { s, l } = row;
  const [deal] = await tx.select({ dealNo: deals.dealNo }).from(deals).where(and(eq(deals.tradeKind, 'listing'), eq(deals.sourceId, s.id))).limit(1);
  return {
    notices: [
      {
        to: { enterpriseIds: [s.enterpriseId], grant: SUBSCRIBERS },
        kind: 'subscription.confirmed',
        category: 'trade',
        title: '摘牌已成交',
        content: `您对${describeListing(l)}的摘牌（${subscribed(s)}）已成交${deal ? `，成交编号 ${deal.dealNo}` : ''}。保证金已转为履约保证金；合同生成后请在 1 个工作日内完成签署。`,
        link: `/listingTrade/deal?tradeId=${l.tradeNo}`,
      },
    ],
  };
};

const subscriptionDeclined: NoticeRule = async (tx, payload) => {
  const row = await subscriptionOf(tx, Number(payload.id));
  if (!row) return null;
  const { s, l } = row;
  return {
    notices: [
      {
        to: { enterpriseIds: [s.enterpriseId], grant: SUBSCRIBERS },
        kind: 'subscription.declined',
        category: 'trade',
        title: '摘牌被拒绝',
        content: `挂牌方拒绝了您对${describeListing(l)}的摘牌（${subscribed(s)}）${s.declineReason ? `，原因：${s.declineReason}` : ''}。${s.depositFen > 0 ? `保证金 ${formatFen(s.depositFen)} 元已释放至可用资金。` : ''}`,
        link: '/listingTrade/subscribe',
      },
    ],
  };
};

// ---------- auctions ----------

/** Enrolled (deposit frozen): the enterprise is told its bidder number and when bidding opens. */
const enrolled: NoticeRule = async (tx, payload) => {
  const [row] = await tx
    .select({ e: auctionEnrolments, a: auctions })
    .from(auctionEnrolments)
    .innerJoin(auctions, eq(auctions.id, auctionEnrolments.auctionId))
    .where(eq(auctionEnrolments.id, Number(payload.enrolmentId)))
    .limit(1);
  if (!row) return null;
  const { e, a } = row;
  return {
    notices: [
      {
        to: { enterpriseIds: [e.enterpriseId], grant: BIDDERS },
        kind: 'auction.enrolled',
        category: 'trade',
        title: '竞价报名成功',
        content: `您已报名${describeAuction(a)}，竞买人代号 ${e.bidderNo}${a.depositFen > 0 ? `，保证金 ${formatFen(a.depositFen)} 元已冻结` : ''}。竞价将于 ${formatDateTime(a.bidStart)} 开始、${formatDateTime(a.bidEnd)} 结束，请准时参与。`,
        dueAt: a.bidStart,
        link: biddingLink(a),
      },
    ],
  };
};

const enrolledIds = async (tx: Tx, auctionId: number) =>
  (await tx.select({ id: auctionEnrolments.enterpriseId }).from(auctionEnrolments).where(and(eq(auctionEnrolments.auctionId, auctionId), eq(auctionEnrolments.status, 'enrolled')))).map((r) => r.id);

/** Scheduled, 30 and 5 minutes before bidding: the enrolled enterprises and the publisher. */
function startingIn(minutes: 30 | 5): NoticeRule {
  return async (tx, payload) => {
    const a = await auctionOf(tx, Number(payload.id));
    if (!a || a.status !== 'approved' || a.hangState === AuctionState.ended || a.hangState === AuctionState.cancelled || a.result !== null) return null;
    const bidders = await enrolledIds(tx, a.id);
    // the title says no number of minutes: an auction approved late is first told nearer its start
    const kind = `auction.starting_${minutes}`;
    const notices: Notice[] = [
      {
        to: { enterpriseIds: [a.enterpriseId], grant: AUCTION_PUBLISHERS },
        kind,
        category: 'trade',
        title: '竞价即将开始',
        content: `您发布的${describeAuction(a)}将于 ${formatDateTime(a.bidStart)} 开始竞价，${formatDateTime(a.bidEnd)} 结束，已有 ${bidders.length} 家企业报名。`,
        dueAt: a.bidStart,
        link: biddingLink(a),
        urgent: true,
        sms: `您发布的竞价${a.tradeNo}将于${shortTime(a.bidStart)}开始`,
      },
    ];
    if (bidders.length > 0) {
      notices.push({
        to: { enterpriseIds: bidders, grant: BIDDERS },
        kind,
        category: 'trade',
        title: '竞价即将开始',
        content: `您已报名的${describeAuction(a)}将于 ${formatDateTime(a.bidStart)} 开始竞价，${formatDateTime(a.bidEnd)} 结束（有出价时按延时规则顺延），请准时进入竞价页面出价。`,
        dueAt: a.bidStart,
        link: biddingLink(a),
        urgent: true,
        sms: `竞价${a.tradeNo}将于${shortTime(a.bidStart)}开始，请准时出价`,
      });
    }
    return { notices };
  };
}

/**
 * The award (auction.ended, with its result): the winner has a contract to sign next, the other enrolled
 * enterprises have their deposits back, the publisher hears the result; the members' systems of the publisher and
 * the winner hear it by webhook.
 */
const ended: NoticeRule = async (tx, payload) => {
  const a = await auctionOf(tx, Number(payload.id));
  if (!a || a.result === null) return null;
  const enrolments = await tx.select().from(auctionEnrolments).where(eq(auctionEnrolments.auctionId, a.id));
  const released = enrolments.filter((e) => e.status === 'released').map((e) => e.enterpriseId);
  const releasedText = a.depositFen > 0 ? `报名保证金 ${formatFen(a.depositFen)} 元已释放至可用资金。` : '';
  if (a.result !== 'deal') {
    const notices: Notice[] = [
      {
        to: { enterpriseIds: [a.enterpriseId], grant: AUCTION_PUBLISHERS },
        kind: 'auction.failed',
        category: 'trade',
        title: '竞价流拍',
        content: `您发布的${describeAuction(a)}已于 ${formatDateTime(a.endedAt ?? a.currentEnd)} 结束，无有效出价，本场流拍。如需继续交易可重新发布。`,
        link: '/auctionTrade/query',
      },
    ];
    if (released.length > 0) {
      notices.push({
        to: { enterpriseIds: released, grant: BIDDERS },
        kind: 'auction.failed',
        category: 'trade',
        title: '竞价流拍',
        content: `您报名的${describeAuction(a)}无有效出价，本场流拍。${releasedText}`,
        link: `/biddingResults?tradeId=${a.tradeNo}`,
      });
    }
    return {
      notices,
      webhook: { type: 'auction.ended', enterpriseIds: [a.enterpriseId], data: { tradeNo: a.tradeNo, result: 'failed', endedAt: (a.endedAt ?? a.currentEnd).toISOString() } },
    };
  }
  const winner = a.bestEnterpriseId!;
  const [deal] = await tx.select().from(deals).where(and(eq(deals.tradeKind, 'auction'), eq(deals.tradeNo, a.tradeNo))).limit(1);
  const price = formatPrice(a.bestPriceFen);
  const amount = deal ? `，成交金额 ${formatFen(deal.amountFen)} 元` : '';
  const dealNo = deal ? `，成交编号 ${deal.dealNo}` : '';
  const winnerName = await enterpriseName(tx, winner);
  const losers = released.filter((id) => id !== winner);
  const notices: Notice[] = [
    {
      to: { enterpriseIds: [winner], grant: BIDDERS },
      kind: 'auction.won',
      category: 'trade',
      title: '竞价成交',
      content: `恭喜！您在${describeAuction(a)}中以 ${price} 中标，成交数量 ${formatTons(a.quantityKg)}${amount}${dealNo}。${a.depositFen > 0 ? `保证金 ${formatFen(a.depositFen)} 元已转为履约保证金。` : ''}合同将自动生成，请在 1 个工作日内到「合同上传与签署」完成签署，逾期将被认定违约。`,
      link: `/auctionTrade/deal?tradeId=${a.tradeNo}`,
      urgent: true,
      sms: `您已中标竞价${a.tradeNo}，成交价${formatFen(a.bestPriceFen)}元/吨，请及时签署合同`,
    },
    {
      to: { enterpriseIds: [a.enterpriseId], grant: AUCTION_PUBLISHERS },
      kind: 'auction.result',
      category: 'trade',
      title: '竞价已成交',
      content: `您发布的${describeAuction(a)}已结束，由 ${winnerName} 以 ${price} 成交${amount}${dealNo}。合同将自动生成，请在 1 个工作日内完成签署，逾期将被认定违约。`,
      link: `/auctionTrade/deal?tradeId=${a.tradeNo}`,
      urgent: true,
      sms: `您发布的竞价${a.tradeNo}已成交，成交价${formatFen(a.bestPriceFen)}元/吨，请及时签署合同`,
    },
  ];
  if (losers.length > 0) {
    notices.push({
      to: { enterpriseIds: losers, grant: BIDDERS },
      kind: 'auction.lost',
      category: 'trade',
      title: '竞价未中标',
      content: `${describeAuction(a)}已结束，您未中标（成交价 ${price}）。${releasedText}`,
      link: `/biddingResults?tradeId=${a.tradeNo}`,
      urgent: true,
      sms: `竞价${a.tradeNo}已结束，您未中标${a.depositFen > 0 ? '，保证金已释放' : ''}`,
    });
  }
  return {
    notices,
    webhook: {
      type: 'auction.ended',
      enterpriseIds: [a.enterpriseId, winner],
      data: {
        tradeNo: a.tradeNo,
        result: 'deal',
        dealNo: deal?.dealNo ?? null,
        productName: a.productName,
        quantityKg: a.quantityKg,
        priceFen: a.bestPriceFen,
        amountFen: deal?.amountFen ?? null,
        publisher: await enterpriseName(tx, a.enterpriseId),
        winner: winnerName,
        endedAt: (a.endedAt ?? a.currentEnd).toISOString(),
      },
    },
  };
};

/** Recorded by the outbid scan below: told only while the auction runs and the enterprise is still not leading. */
const outbid: NoticeRule = async (tx, payload, at) => {
  const a = await auctionOf(tx, Number(payload.id));
  const enterpriseId = Number(payload.enterpriseId);
  if (!a || a.status !== 'approved' || a.hangState === AuctionState.ended || a.hangState === AuctionState.cancelled || at >= a.currentEnd || a.bestEnterpriseId === enterpriseId) return null;
  return {
    notices: [
      {
        to: { enterpriseIds: [enterpriseId], grant: BIDDERS },
        kind: 'auction.outbid',
        category: 'trade',
        title: '您的出价已被超过',
        content: `您在${describeAuction(a)}中的出价已被超过，当前最优价 ${formatPrice(a.bestPriceFen)}。竞价将于 ${formatDateTime(a.currentEnd)} 结束（有出价时按延时规则顺延），如需继续请尽快出价。`,
        dueAt: a.currentEnd,
        link: biddingLink(a),
      },
    ],
  };
};

// ---------- the trading centre's pause, resume and cancel (实时监控) ----------

/** 「12分30秒」: the bidding time left, as the room shows it frozen. */
const timeLeftText = (ms: number) => {
  const seconds = Math.max(0, Math.round(ms / 1000));
  const minutes = Math.floor(seconds / 60);
  return minutes > 0 ? `${minutes}分${String(seconds % 60).padStart(2, '0')}秒` : `${seconds}秒`;
};

/** Every enterprise enrolled in the auction, whatever its enrolment's state now (a cancel has just released them). */
const everEnrolledIds = async (tx: Tx, auctionId: number) =>
  (await tx.select({ id: auctionEnrolments.enterpriseId }).from(auctionEnrolments).where(eq(auctionEnrolments.auctionId, auctionId))).map((r) => r.id);

/** Paused by the trading centre: the enrolled bidders and the publisher, urgently (bidding stops at once). */
const paused: NoticeRule = async (tx, payload) => {
  const a = await auctionOf(tx, Number(payload.id));
  if (!a || a.hangState !== AuctionState.paused) return null;
  const reason = String(payload.reason ?? a.operatorReason ?? '');
  const left = timeLeftText(Number(payload.remainingMs ?? a.pausedRemainingMs ?? 0));
  const content = `交易中心已暂停${describeAuction(a)}的竞价，原因：${reason}。暂停时剩余竞价时间 ${left}，恢复后按剩余时间继续计时，届时可继续出价。`;
  const bidders = await enrolledIds(tx, a.id);
  const notices: Notice[] = [
    { to: { enterpriseIds: [a.enterpriseId], grant: AUCTION_PUBLISHERS }, kind: 'auction.paused', category: 'trade', title: '竞价已暂停', content, link: biddingLink(a), urgent: true, sms: `竞价${a.tradeNo}已暂停：${reason}` },
  ];
  if (bidders.length > 0) notices.push({ to: { enterpriseIds: bidders, grant: BIDDERS }, kind: 'auction.paused', category: 'trade', title: '竞价已暂停', content, link: biddingLink(a), urgent: true, sms: `竞价${a.tradeNo}已暂停：${reason}` });
  return { notices };
};

/** Resumed: the same audience, with the new deadline. */
const resumed: NoticeRule = async (tx, payload) => {
  const a = await auctionOf(tx, Number(payload.id));
  if (!a || a.hangState !== AuctionState.bidding) return null;
  const content = `交易中心已恢复${describeAuction(a)}的竞价，按暂停时的剩余时间继续计时，当前截止时间 ${formatDateTime(a.currentEnd)}（有出价时按延时规则顺延），请进入竞价页面继续出价。`;
  const bidders = await enrolledIds(tx, a.id);
  const notices: Notice[] = [
    { to: { enterpriseIds: [a.enterpriseId], grant: AUCTION_PUBLISHERS }, kind: 'auction.resumed', category: 'trade', title: '竞价已恢复', content, link: biddingLink(a), urgent: true, sms: `竞价${a.tradeNo}已恢复，截止${shortTime(a.currentEnd)}` },
  ];
  if (bidders.length > 0) notices.push({ to: { enterpriseIds: bidders, grant: BIDDERS }, kind: 'auction.resumed', category: 'trade', title: '竞价已恢复', content, link: biddingLink(a), urgent: true, sms: `竞价${a.tradeNo}已恢复，截止${shortTime(a.currentEnd)}` });
  return { notices };
};

/** Cancelled: the publisher and every enrolled enterprise (their deposits released), urgently. */
const cancelled: NoticeRule = async (tx, payload) => {
  const a = await auctionOf(tx, Number(payload.id));
  if (!a || a.hangState !== AuctionState.cancelled) return null;
  const reason = String(payload.reason ?? a.operatorReason ?? '');
  const bidders = await everEnrolledIds(tx, a.id);
  const notices: Notice[] = [
    {
      to: { enterpriseIds: [a.enterpriseId], grant: AUCTION_PUBLISHERS },
      kind: 'auction.cancelled',
      category: 'trade',
      title: '竞价已撤销',
      content: `交易中心已撤销您发布的${describeAuction(a)}，原因：${reason}。本场竞价不成交。`,
      link: '/auctionTrade/query',
      urgent: true,
      sms: `您发布的竞价${a.tradeNo}已被交易中心撤销：${reason}`,
    },
  ];
  if (bidders.length > 0) {
    notices.push({
      to: { enterpriseIds: bidders, grant: BIDDERS },
      kind: 'auction.cancelled',
      category: 'trade',
      title: '竞价已撤销',
      content: `交易中心已撤销您报名的${describeAuction(a)}，原因：${reason}。本场竞价不成交，报名冻结的保证金 ${formatFen(a.depositFen)} 元已解冻退回可用资金。`,
      link: '/auctionTrade/sign',
      urgent: true,
      sms: `竞价${a.tradeNo}已撤销，保证金已解冻：${reason}`,
    });
  }
  return { notices };
};

// ---------- paper contracts ----------

async function uploadOf(tx: Tx, id: number) {
  const [row] = await tx
    .select({ u: contractUploads, c: contracts })
    .from(contractUploads)
    .innerJoin(contracts, eq(contracts.id, contractUploads.contractId))
    .where(eq(contractUploads.id, id))
    .limit(1);
  return row ?? null;
}

const paperSubmitted: NoticeRule = async (tx, payload) => {
  const row = await uploadOf(tx, Number(payload.id));
  if (!row || row.u.status !== 'submitted') return null;
  const { u, c } = row;
  return {
    notices: [
      {
        to: { staffGrant: CONTRACT_RULERS },
        kind: 'todo.paper_contract',
        category: 'todo',
        title: '待审核纸质合同',
        content: `${CONTRACT_SIDES[u.side as ContractSide] ?? ''}${await enterpriseName(tx, u.enterpriseId)} 上传了合同 ${c.contractNo} 的纸质合同「${u.fileName}」，请与平台生成的合同文本比对后确认或驳回。`,
        link: `/contract/info?id=${c.id}`,
      },
    ],
  };
};

function paperReviewed(accepted: boolean): NoticeRule {
  return async (tx, payload) => {
    const row = await uploadOf(tx, Number(payload.id));
    if (!row) return null;
    const { u, c } = row;
    return {
      notices: [
        {
          to: { enterpriseIds: [u.enterpriseId], grant: CONTRACT_PARTIES },
          kind: accepted ? 'contractupload.accepted' : 'contractupload.rejected',
          category: 'contract',
          title: accepted ? '纸质合同已确认' : '纸质合同被驳回',
          content: accepted
            ? `您上传的合同 ${c.contractNo} 纸质合同「${u.fileName}」已通过交易中心审核，视同双方签署，合同生效。`
            : `您上传的合同 ${c.contractNo} 纸质合同「${u.fileName}」未通过交易中心审核${u.reviewNote ? `，意见：${u.reviewNote}` : ''}。请在签署截止 ${formatDateTime(c.signDeadline)} 前重新上传或使用数字证书在线签署。`,
          dueAt: accepted ? null : c.signDeadline,
          link: `/contract/info?id=${c.id}`,
        },
      ],
    };
  };
}

export const TRADE_RULES: Record<string, NoticeRule> = {
  'listing.submitted': listingSubmitted,
  'listing.approved': listingApproved,
  'listing.rejected': listingRejected,
  'auction.submitted': auctionSubmitted,
  'auction.approved': auctionApproved,
  'auction.rejected': auctionRejected,
  'subscription.created': subscriptionCreated,
  'subscription.confirmed': subscriptionConfirmed,
  'subscription.declined': subscriptionDeclined,
  'auction.enrolled': enrolled,
  'auction.starting_30': startingIn(30),
  'auction.starting_5': startingIn(5),
  'auction.ended': ended,
  'auction.outbid': outbid,
  'auction.paused': paused,
  'auction.resumed': resumed,
  'auction.cancelled': cancelled,
  'contractupload.submitted': paperSubmitted,
  'contractupload.accepted': paperReviewed(true),
  'contractupload.rejected': paperReviewed(false),
};

// ---------- scheduled ----------

/** Auctions still before bidding whose start falls in (now + from, now + to]. */
function startingBetween(db: Db, now: Date, fromMs: number, toMs: number) {
  return db
    .select({ id: auctions.id, bidStart: auctions.bidStart })
    .from(auctions)
    .where(
      and(
        eq(auctions.status, 'approved'),
        lt(auctions.hangState, AuctionState.bidding),
        gt(auctions.bidStart, new Date(now.getTime() + fromMs)),
        lte(auctions.bidStart, new Date(now.getTime() + toMs)),
      ),
    );
}

/** The minute an outbid notice is recorded in (its key's last part): at most one per bidder and minute. */
const minuteOf = (ms: number) => Math.floor(ms / MINUTE_MS);
const outbidKey = (auctionId: number, enterpriseId: number, minute: number) =>
  `auction.outbid:${auctionId}:${enterpriseId}:${new Date(minute * MINUTE_MS).toISOString().slice(0, 16)}`;
/** An overtaking older than this is no news any more (the scheduler was down): nobody is told of it. */
const OUTBID_LOOKBACK_MS = 5 * MINUTE_MS;

/**
 * Outbid bidders. Accepted bids never pass through publish() (the bid path is the hot path: a group of bids is one
 * statement and its own NOTIFY, flows/place-bid.ts), so instead of an event per bid this scan runs every scheduler
 * round and reads what the bids left: for each auction in bidding, each enterprise whose last bid is no longer the
 * best was overtaken by the bid that followed it (seq + 1, found by the unique (auction, seq) index). It is told
 * once per overtaking and at most once a minute: a notice recorded since the overtaking, or in the last 60 s, holds
 * it back; the next round after the minute tells it if it is still behind. Those notices are the reminder's own
 * events, found by their keys (one minute each, so the lookups are exact and few: the minutes from the overtaking
 * to now, at most the look-back). The key carries the minute, so processes racing in one round record it once.
 * The cost is one grouped read of the running auctions' bids and one keyed read per round, off the bid path.
 */
const outbidScan: Reminder = {
  name: 'auction.outbid',
  async due(db, now) {
    const nowMs = now.getTime();
    const last = db
      .select({ auctionId: auctionBids.auctionId, enterpriseId: auctionBids.enterpriseId, lastSeq: sql<number>`max(${auctionBids.seq})`.as('last_seq') })
      .from(auctionBids)
      .innerJoin(auctions, eq(auctions.id, auctionBids.auctionId))
      .where(and(eq(auctions.status, 'approved'), lt(auctions.hangState, AuctionState.ended), lte(auctions.bidStart, now), gt(auctions.currentEnd, now)))
      .groupBy(auctionBids.auctionId, auctionBids.enterpriseId)
      .as('last_bid');
    const next = alias(auctionBids, 'next_bid');
    const overtaken = await db
      .select({ auctionId: last.auctionId, enterpriseId: last.enterpriseId, at: next.createdAt })
      .from(last)
      .innerJoin(auctions, eq(auctions.id, last.auctionId))
      .innerJoin(next, and(eq(next.auctionId, last.auctionId), eq(next.seq, sql`${last.lastSeq} + 1`)))
      .where(and(ne(auctions.bestEnterpriseId, last.enterpriseId), gte(next.createdAt, new Date(nowMs - OUTBID_LOOKBACK_MS)), lte(next.createdAt, now)));
    if (overtaken.length === 0) return [];
    const thisMinute = minuteOf(nowMs);
    const keysOf = (o: (typeof overtaken)[number]) => {
      const keys: string[] = [];
      for (let m = Math.min(minuteOf(o.at.getTime()), thisMinute - 1); m <= thisMinute; m++) keys.push(outbidKey(o.auctionId, o.enterpriseId, m));
      return keys;
    };
    const told = new Map(
      (await db.select({ key: messageEvents.eventKey, at: messageEvents.createdAt }).from(messageEvents).where(inArray(messageEvents.eventKey, overtaken.flatMap(keysOf)))).map((r) => [r.key, r.at]),
    );
    return overtaken
      .filter((o) => {
        const times = keysOf(o).flatMap((k) => (told.has(k) ? [told.get(k)!.getTime()] : []));
        return !times.some((t) => t >= o.at.getTime() || t > nowMs - MINUTE_MS);
      })
      .map((o) => ({ key: outbidKey(o.auctionId, o.enterpriseId, thisMinute), payload: { id: o.auctionId, enterpriseId: o.enterpriseId } }));
  },
};

export const TRADE_REMINDERS: Reminder[] = [
  {
    name: 'auction.starting_30',
    async due(db, now) {
      const rows = await startingBetween(db, now, 5 * MINUTE_MS, 30 * MINUTE_MS);
      return rows.map((r) => ({ key: `auction.starting_30:${r.id}:${r.bidStart.toISOString()}`, payload: { id: r.id } }));
    },
  },
  {
    name: 'auction.starting_5',
    async due(db, now) {
      const rows = await startingBetween(db, now, 0, 5 * MINUTE_MS);
      return rows.map((r) => ({ key: `auction.starting_5:${r.id}:${r.bidStart.toISOString()}`, payload: { id: r.id } }));
    },
  },
  outbidScan,
];
