import { formatPrice, formatTons } from '@coalx/shared';
import { eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { enterprises, longTermApplications, longTermCallOffs, longTermDeals, type LongTermCallOffRow, type LongTermDealRow } from '../../db/schema/index';
import { progressOf } from '../../modules/long-term/fulfilment.service';
import { longTermPolicy } from '../../modules/long-term/long-term.policy';
import { parameterNumber } from '../../modules/system/calendar';
import type { NoticeRule, Reminder } from './types';

// who may act, as the routes ask (api/long-term.routes.ts)
const SELLERS = longTermPolicy.grantOf('actAsSeller') ?? 'longTermDeal.edit';
const APPLICANTS = longTermPolicy.grantOf('apply') ?? 'longTermDeal.add';
const CALLERS = longTermPolicy.grantOf('callOff') ?? 'longTermDeal.add';
const DECIDERS = longTermPolicy.grantOf('decideCallOff') ?? 'longTermDeal.edit';
/** anyone of a side who may open the deal */
const READERS = 'longTermDeal-info';

async function dealOf(tx: Db | Tx, id: number): Promise<LongTermDealRow | null> {
  const [row] = await tx.select().from(longTermDeals).where(eq(longTermDeals.id, id)).limit(1);
  return row ?? null;
}

async function namesOf(tx: Tx, ids: (number | null)[]): Promise<Map<number, string>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await tx.select({ id: enterprises.id, name: enterprises.organName }).from(enterprises).where(inArray(enterprises.id, wanted));
  return new Map(rows.map((r) => [r.id, r.name]));
}

const dealLink = (d: LongTermDealRow) => `/longTermDeal/info?id=${d.id}`;
/** 「长协 CX…（5500大卡动力煤，2026-11 至 2027-01）」 */
const describedDeal = (d: LongTermDealRow) => `长协 ${d.longTermNo}（${d.productName}，${d.periodStart} 至 ${d.periodEnd}）`;
/** 「月度调运 DY…（2026-11，8,000.00 吨，687.50 元/吨，交收 11-20 至 11-30）」 */
const describedCallOff = (c: LongTermCallOffRow) =>
  `月度调运 ${c.callOffNo}（${c.month}，${formatTons(c.quantityKg)}，${formatPrice(c.priceFen)}，交收 ${c.deliveryDateStart} 至 ${c.deliveryDateEnd}）`;
const sideName = (side: string) => (side === 'seller' ? '卖方' : '买方');

/** A buyer applied to an open offer: the seller accepts one application (or lets it lapse). */
const applied: NoticeRule = async (tx, payload) => {
  const d = await dealOf(tx, Number(payload.id));
  if (!d) return null;
  const [application] = await tx.select().from(longTermApplications).where(eq(longTermApplications.id, Number(payload.applicationId))).limit(1);
  if (!application || application.status !== 'pending') return null;
  const names = await namesOf(tx, [application.buyerEnterpriseId]);
  return {
    notices: [
      {
        to: { enterpriseIds: [d.sellerEnterpriseId], grant: SELLERS },
        kind: 'longterm.applied',
        category: 'longTerm',
        title: '长协收到新申请',
        content: `${names.get(application.buyerEnterpriseId) ?? '买方'} 申请了本企业发布的${describedDeal(d)}${application.note ? `，留言：${application.note}` : ''}。请在申请列表中选择接受一家，接受后生成框架合同，其他申请自动谢绝。`,
        link: `${dealLink(d)}#applications`,
      },
    ],
  };
};

/** The seller accepted the application, or it was declined (another buyer accepted, the offer withdrawn). */
function applicationAnswered(accepted: boolean): NoticeRule {
  return async (tx, payload) => {
    const [application] = await tx.select().from(longTermApplications).where(eq(longTermApplications.id, Number(payload.id))).limit(1);
    if (!application) return null;
    const d = await dealOf(tx, application.longTermId);
    if (!d) return null;
    const names = await namesOf(tx, [d.sellerEnterpriseId]);
    const seller = `卖方 ${names.get(d.sellerEnterpriseId) ?? ''}`;
    const why = d.status === 'withdrawn' ? `${seller} 已撤回该长协` : d.buyerEnterpriseId !== null ? `${seller} 已接受其他买方的申请` : `${seller} 未接受本次申请`;
    return {
      notices: [
        {
          to: { enterpriseIds: [application.buyerEnterpriseId], grant: APPLICANTS },
          kind: accepted ? 'longtermapplication.accepted' : 'longtermapplication.declined',
          category: 'longTerm',
          title: accepted ? '长协申请已被接受' : '长协申请未被接受',
          content: accepted
            ? `${seller} 已接受本企业对${describedDeal(d)}的申请。框架合同生成后请在「合同管理 › 合同上传与签署」按期签署，合同生效后按月调运。`
            : `本企业对${describedDeal(d)}的申请未被接受：${why}。`,
          link: dealLink(d),
        },
      ],
    };
  };
}

async function callOffOf(tx: Tx, id: number) {
  const [row] = await tx.select().from(longTermCallOffs).innerJoin(longTermDeals, eq(longTermDeals.id, longTermCallOffs.longTermId)).where(eq(longTermCallOffs.id, id)).limit(1);
  return row ? { callOff: row.long_term_call_off, deal: row.long_term_deal } : null;
}
const sideOf = (d: LongTermDealRow, side: string) => (side === 'seller' ? d.sellerEnterpriseId : d.buyerEnterpriseId);
const dealParties = (d: LongTermDealRow) => [d.sellerEnterpriseId, d.buyerEnterpriseId].filter((id): id is number => id !== null);

/** A call-off waits for the other side: confirming makes the month's deal and contract. */
const callOffCreated: NoticeRule = async (tx, payload) => {
  const found = await callOffOf(tx, Number(payload.id));
  if (!found) return null;
  const { callOff: c, deal: d } = found;
  const other = c.initiator === 'seller' ? 'buyer' : 'seller';
  const otherId = sideOf(d, other);
  const names = await namesOf(tx, [d.sellerEnterpriseId, d.buyerEnterpriseId]);
  const by = `${sideName(c.initiator)} ${names.get(sideOf(d, c.initiator) ?? -1) ?? ''}`;
  return {
    notices:
      c.status === 'pending' && otherId !== null
        ? [
            {
              to: { enterpriseIds: [otherId], grant: DECIDERS },
              kind: 'calloff.to_confirm',
              category: 'longTerm',
              title: '月度调运待确认',
              content: `${by} ${c.initiator === 'seller' ? '发起' : '申请'}了${describedDeal(d)}的${describedCallOff(c)}${c.note ? `，备注：${c.note}` : ''}。请确认或拒绝，确认后生成成交与月度合同。`,
              link: dealLink(d),
            },
          ]
        : [],
    webhook: {
      type: 'calloff.created',
      enterpriseIds: dealParties(d),
      data: {
        callOffNo: c.callOffNo,
        longTermNo: d.longTermNo,
        month: c.month,
        quantityKg: c.quantityKg,
        priceFen: c.priceFen,
        amountFen: c.amountFen,
        deliveryDateStart: c.deliveryDateStart,
        deliveryDateEnd: c.deliveryDateEnd,
        initiator: c.initiator,
        status: c.status,
        seller: names.get(d.sellerEnterpriseId) ?? '',
        buyer: d.buyerEnterpriseId !== null ? (names.get(d.buyerEnterpriseId) ?? '') : '',
      },
    },
  };
};

/** The other side answered a call-off: its initiator hears it. */
function callOffAnswered(accepted: boolean): NoticeRule {
  return async (tx, payload) => {
    const found = await callOffOf(tx, Number(payload.id));
    if (!found) return null;
    const { callOff: c, deal: d } = found;
    const initiatorId = sideOf(d, c.initiator);
    if (initiatorId === null) return null;
    const other = c.initiator === 'seller' ? 'buyer' : 'seller';
    const names = await namesOf(tx, [sideOf(d, other)]);
    const by = `${sideName(other)} ${names.get(sideOf(d, other) ?? -1) ?? ''}`;
    return {
      notices: [
        {
          to: { enterpriseIds: [initiatorId], grant: CALLERS },
          kind: accepted ? 'calloff.accepted' : 'calloff.declined',
          category: 'longTerm',
          title: accepted ? '月度调运已确认' : '月度调运被拒绝',
          content: accepted
            ? `${by} 已确认${describedDeal(d)}的${describedCallOff(c)}${c.dealNo ? `，成交编号 ${c.dealNo}` : ''}。月度合同生成后请按期签署。`
            : `${by} 拒绝了${describedDeal(d)}的${describedCallOff(c)}${c.reason ? `，原因：${c.reason}` : ''}。该数量已退回本月计划，可调整后重新发起。`,
          link: dealLink(d),
        },
      ],
    };
  };
}

/** The newest finished month of an executing deal that is below the warning line, or null. */
async function flaggedMonthOf(db: Db | Tx, deals: LongTermDealRow[], now: Date) {
  const warnPct = await parameterNumber(db, 'long_term_fulfilment_warn_pct');
  const progress = await progressOf(db, deals, now, null, warnPct);
  return {
    warnPct,
    flagged: (deal: LongTermDealRow) => progress.get(deal.id)?.months.filter((m) => m.flagged).at(-1) ?? null,
  };
}

/** Scheduled: a finished month delivered below the warning line; both sides adjust the months to come. */
const fulfilmentWarning: NoticeRule = async (tx, payload, at) => {
  const d = await dealOf(tx, Number(payload.id));
  if (!d || d.status !== 'executing') return null;
  const { warnPct, flagged } = await flaggedMonthOf(tx, [d], at);
  const month = flagged(d);
  if (!month || month.month !== payload.month) return null;
  return {
    notices: [
      {
        to: { enterpriseIds: dealParties(d), grant: READERS },
        kind: 'longterm.fulfilment_warning',
        category: 'longTerm',
        title: '长协履约率低于预警线',
        content: `${describedDeal(d)}：${month.month} 月计划 ${formatTons(month.plannedKg)}，已签收 ${formatTons(month.deliveredKg)}，履约率 ${month.rate}%，低于预警线 ${warnPct}%。请双方协商调整后续月度计划。`,
        link: dealLink(d),
      },
    ],
  };
};

export const LONG_TERM_RULES: Record<string, NoticeRule> = {
  'longterm.applied': applied,
  'longtermapplication.accepted': applicationAnswered(true),
  'longtermapplication.declined': applicationAnswered(false),
  'calloff.created': callOffCreated,
  'calloff.accepted': callOffAnswered(true),
  'calloff.declined': callOffAnswered(false),
  'longterm.fulfilment_warning': fulfilmentWarning,
};

/**
 * The fulfilment warning (the workbench's 履约率低于预警线的长协): for each deal in execution whose newest finished
 * month is below the warning line, once per deal and month.
 */
export const LONG_TERM_REMINDERS: Reminder[] = [
  {
    name: 'longterm.fulfilment_warning',
    async due(db, now) {
      const running = await db.select().from(longTermDeals).where(eq(longTermDeals.status, 'executing')).limit(1000);
      if (running.length === 0) return [];
      const { flagged } = await flaggedMonthOf(db, running, now);
      return running.flatMap((deal) => {
        const month = flagged(deal);
        return month ? [{ key: `longterm.fulfilment_warning:${deal.id}:${month.month}`, payload: { id: deal.id, month: month.month } }] : [];
      });
    },
  },
];
