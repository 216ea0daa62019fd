import {
  LONG_TERM_APPLICATION_STATUS,
  LONG_TERM_STATUS,
  formatDateTime,
  type LongTermAction,
  type LongTermDetail,
  type LongTermQuery,
  type LongTermSummary,
} from '@coalx/shared';
import { and, asc, count, desc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { longTermApplications, longTermCallOffs, longTermDeals, type LongTermDealRow } from '../../db/schema/index';
import type { Actor } from '../../lib/actor';
import { allowedActions, type GrantCheck } from '../../lib/policy';
import type { Clock } from '../../lib/clock';
import { shanghaiDate } from '../../lib/shanghai-time';
import { contractsByIds } from '../contract/contract.service';
import { enterpriseNames, findEnterprise } from '../enterprise/enterprise.service';
import { parameterNumber } from '../system/calendar';
import { progressOf, type Progress } from './fulfilment.service';
import { shanghaiMonth, viewableLongTerm } from './long-term-deal';
import { grantsHeld } from '../auth/grants.service';
import { longTermPolicy, longTermSideOf } from './long-term.policy';
import { pricingTextOf } from './pricing.service';

const escapeLike = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

interface PresentContext {
  now: Date;
  names: Map<number, string>;
  progress: Progress;
  applications: { status: string; buyerEnterpriseId: number }[];
  contract: { id: number; contractNo: string } | null;
  /** the viewer's grants (lib/policy.ts verdicts) */
  held: GrantCheck;
}

/** What the actor may do with the deal now: the policy's verdicts (rule, route grant, the deal's state), in page order. */
function actionsOf(actor: Actor, deal: LongTermDealRow, ctx: PresentContext): LongTermAction[] {
  const month = ctx.progress.months.find((m) => m.month === shanghaiMonth(ctx.now));
  const canCallOff = deal.status === 'executing' && month !== undefined && month.availableKg > 0;
  const applying = ctx.applications.some((a) => a.buyerEnterpriseId === actor.enterpriseId && a.status === 'pending');
  const asSeller = longTermSideOf(actor, deal) === 'seller';
  return allowedActions(
    longTermPolicy.verdicts(actor, ctx.held, deal, {
      edit: { rule: 'actAsSeller', when: deal.status === 'draft' },
      publish: { rule: 'actAsSeller', when: deal.status === 'draft' },
      withdraw: { rule: 'actAsSeller', when: deal.status === 'draft' || deal.status === 'open' },
      accept: { rule: 'actAsSeller', when: deal.status === 'open' && ctx.applications.some((a) => a.status === 'pending') },
      callOff: { rule: 'callOff', when: canCallOff && asSeller },
      requestCallOff: { rule: 'callOff', when: canCallOff && !asSeller },
      withdrawApplication: { rule: 'apply', when: applying },
      apply: { rule: 'apply', when: !applying && deal.applyDeadline >= shanghaiDate(ctx.now) },
      terminate: { rule: 'operate', when: deal.status === 'executing' },
    }),
  );
}

function presentSummary(actor: Actor, deal: LongTermDealRow, ctx: PresentContext): LongTermSummary {
  const side = longTermSideOf(actor, deal);
  const seesParties = longTermPolicy.allows(actor, 'seeParties', deal);
  const current = ctx.progress.months.find((m) => m.month === shanghaiMonth(ctx.now));
  const mine = actor.enterpriseId !== null ? ctx.applications.filter((a) => a.buyerEnterpriseId === actor.enterpriseId) : [];
  const myLatest = mine[mine.length - 1];
  return {
    id: deal.id,
    dealNo: deal.longTermNo,
    status: deal.status as LongTermSummary['status'],
    statusText: LONG_TERM_STATUS[deal.status as keyof typeof LONG_TERM_STATUS] ?? deal.status,
    mySide: side,
    sellerName: ctx.names.get(deal.sellerEnterpriseId) ?? '',
    // the buyer is told to its sides and the trading centre only
    buyerName: deal.buyerEnterpriseId !== null && seesParties ? (ctx.names.get(deal.buyerEnterpriseId) ?? '') : null,
    targetName: deal.targetEnterpriseId !== null ? (ctx.names.get(deal.targetEnterpriseId) ?? '') : null,
    stockCode: deal.stockCode,
    productName: deal.productName,
    periodStart: deal.periodStart,
    periodEnd: deal.periodEnd,
    plannedKg: deal.plannedKg,
    pricingMode: deal.pricing.mode,
    pricingText: pricingTextOf(deal.pricing),
    basePriceFen: deal.pricing.basePriceFen,
    currentPriceFen: current?.price?.priceFen ?? null,
    applyDeadline: deal.applyDeadline,
    applicationCount: ctx.applications.length,
    myApplicationStatus: myLatest ? (LONG_TERM_APPLICATION_STATUS[myLatest.status as keyof typeof LONG_TERM_APPLICATION_STATUS] ?? myLatest.status) : null,
    contractId: seesParties ? (ctx.contract?.id ?? null) : null,
    contractNo: seesParties ? (ctx.contract?.contractNo ?? null) : null,
    fulfilment: ctx.progress.overall,
    createdAt: formatDateTime(deal.createdAt),
    actions: actionsOf(actor, deal, ctx),
  };
}

function listWhere(enterpriseId: number | null, query: Omit<LongTermQuery, 'pageNo' | 'pageSize'>, today: string): SQL | undefined {
  const keyword = query.keyword ? escapeLike(query.keyword) : null;
  const scope =
    query.scope === 'market'
      ? and(
          eq(longTermDeals.status, 'open'),
          sql`${longTermDeals.applyDeadline} >= ${today}`,
          enterpriseId === null ? undefined : sql`${longTermDeals.sellerEnterpriseId} <> ${enterpriseId}`,
          enterpriseId === null ? undefined : or(isNull(longTermDeals.targetEnterpriseId), eq(longTermDeals.targetEnterpriseId, enterpriseId)),
        )
      : enterpriseId === null
        ? undefined
        : or(
            eq(longTermDeals.sellerEnterpriseId, enterpriseId),
            eq(longTermDeals.buyerEnterpriseId, enterpriseId),
            sql`EXISTS (SELECT 1 FROM ${longTermApplications} WHERE ${longTermApplications.longTermId} = ${longTermDeals.id} AND ${longTermApplications.buyerEnterpriseId} = ${enterpriseId})`,
          );
  return and(
    scope,
    query.status ? eq(longTermDeals.status, query.status) : undefined,
    keyword ? or(ilike(longTermDeals.longTermNo, keyword), ilike(longTermDeals.productName, keyword)) : undefined,
  );
}

async function present(db: Db, actor: Actor, deals: LongTermDealRow[], now: Date) {
  const [warnPct, held] = await Promise.all([parameterNumber(db, 'long_term_fulfilment_warn_pct'), grantsHeld(db, actor)]);
  const ids = deals.map((d) => d.id);
  const [progress, applications, names, contracts] = await Promise.all([
    progressOf(db, deals, now, { actor, held }, warnPct),
    ids.length ? db.select().from(longTermApplications).where(inArray(longTermApplications.longTermId, ids)).orderBy(asc(longTermApplications.id)) : [],
    enterpriseNames(db, deals.flatMap((d) => [d.sellerEnterpriseId, d.buyerEnterpriseId, d.targetEnterpriseId]).filter((x): x is number => x !== null)),
    contractNumbers(db, deals),
  ]);
  return { warnPct, progress, applications, names, contracts, held };
}

function contractNumbers(db: Db | Tx, deals: LongTermDealRow[]) {
  return contractsByIds(db, deals.map((d) => d.contractId).filter((x): x is number => x !== null));
}

async function summaries(db: Db, actor: Actor, deals: LongTermDealRow[], now: Date): Promise<LongTermSummary[]> {
  const p = await present(db, actor, deals, now);
  return deals.map((deal) =>
    presentSummary(actor, deal, {
      now,
      names: p.names,
      progress: p.progress.get(deal.id)!,
      applications: p.applications.filter((a) => a.longTermId === deal.id),
      contract: deal.contractId !== null ? (p.contracts.get(deal.contractId) ?? null) : null,
      held: p.held,
    }),
  );
}

/** 长协交易: an enterprise's own (as seller, buyer or applicant) or the market of open offers; the trading centre all. */
export async function listLongTerm(db: Db, clock: Clock, actor: Actor, query: LongTermQuery) {
  const enterpriseId = longTermPolicy.can(actor, 'list');
  const now = clock.now();
  const where = and(listWhere(enterpriseId, query, shanghaiDate(now)));
  if (query.flagged) {
    // the flag needs the delivered tons: computed over the matching deals, then paged
    const all = await db.select().from(longTermDeals).where(where).orderBy(desc(longTermDeals.id)).limit(1000);
    const flagged = (await summaries(db, actor, all, now)).filter((s) => s.fulfilment.flagged);
    const start = (query.pageNo - 1) * query.pageSize;
    return { records: flagged.slice(start, start + query.pageSize), total: flagged.length, current: query.pageNo, size: query.pageSize };
  }
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(longTermDeals).where(where);
  const rows = await db
    .select()
    .from(longTermDeals)
    .where(where)
    .orderBy(desc(longTermDeals.id))
    .limit(query.pageSize)
    .offset((query.pageNo - 1) * query.pageSize);
  return { records: await summaries(db, actor, rows, now), total, current: query.pageNo, size: query.pageSize };
}

export async function longTermForExport(db: Db, clock: Clock, actor: Actor, query: Omit<LongTermQuery, 'pageNo' | 'pageSize'>) {
  const enterpriseId = longTermPolicy.can(actor, 'list');
  const now = clock.now();
  const rows = await db.select().from(longTermDeals).where(listWhere(enterpriseId, query, shanghaiDate(now))).orderBy(desc(longTermDeals.id)).limit(5000);
  const all = await summaries(db, actor, rows, now);
  return query.flagged ? all.filter((s) => s.fulfilment.flagged) : all;
}

export async function longTermDetail(db: Db, clock: Clock, actor: Actor, id: number): Promise<LongTermDetail> {
  const now = clock.now();
  const deal = await viewableLongTerm(db, actor, id);
  const p = await present(db, actor, [deal], now);
  const progress = p.progress.get(deal.id)!;
  const applications = p.applications.filter((a) => a.longTermId === deal.id);
  const summary = presentSummary(actor, deal, {
    now,
    names: p.names,
    progress,
    applications,
    contract: deal.contractId !== null ? (p.contracts.get(deal.contractId) ?? null) : null,
    held: p.held,
  });
  // the seller and the trading centre see every application; an applicant its own
  const visible = longTermPolicy.allows(actor, 'seeApplications', deal) ? applications : applications.filter((a) => a.buyerEnterpriseId === actor.enterpriseId);
  const applicantNames = await enterpriseNames(db, visible.map((a) => a.buyerEnterpriseId));
  const seesCallOffs = longTermPolicy.allows(actor, 'seeParties', deal);
  // the seller's draft keeps its 定向 buyer (the edit form shows its credit code)
  const target = longTermPolicy.allows(actor, 'actAsSeller', deal) && deal.targetEnterpriseId !== null ? await findEnterprise(db, deal.targetEnterpriseId) : null;
  return {
    ...summary,
    quality: deal.quality,
    priceType: deal.priceType,
    transport: deal.transport,
    deliveryProvince: deal.deliveryProvince,
    deliveryCity: deal.deliveryCity,
    deliveryDistrict: deal.deliveryDistrict,
    deliveryPlace: deal.deliveryPlace,
    pricing: deal.pricing,
    remark: deal.remark,
    targetCreditCode: target?.creditCode ?? null,
    terminateReason: deal.terminateReason,
    months: seesCallOffs ? progress.months : progress.months.map((m) => ({ ...m, calledKg: 0, deliveredKg: 0, settledKg: 0, rate: null, flagged: false, availableKg: m.plannedKg })),
    years: seesCallOffs ? progress.years : [],
    callOffs: seesCallOffs ? progress.callOffs : [],
    applications: visible.map((a) => ({
      id: a.id,
      buyerName: applicantNames.get(a.buyerEnterpriseId) ?? '',
      note: a.note,
      status: a.status as 'pending',
      statusText: LONG_TERM_APPLICATION_STATUS[a.status as keyof typeof LONG_TERM_APPLICATION_STATUS] ?? a.status,
      createdAt: formatDateTime(a.createdAt),
    })),
    warnPct: p.warnPct,
  };
}

/** Counts for the workbench: pending applications to my offers, call-offs waiting for my side, flagged deals. */
export async function longTermTodoCounts(db: Db, now: Date, enterpriseId: number | null) {
  const mine = enterpriseId === null ? undefined : or(eq(longTermDeals.sellerEnterpriseId, enterpriseId), eq(longTermDeals.buyerEnterpriseId, enterpriseId));
  const [applications] = await db
    .select({ n: count() })
    .from(longTermApplications)
    .innerJoin(longTermDeals, eq(longTermDeals.id, longTermApplications.longTermId))
    .where(and(eq(longTermApplications.status, 'pending'), eq(longTermDeals.status, 'open'), enterpriseId === null ? undefined : eq(longTermDeals.sellerEnterpriseId, enterpriseId)));
  const [callOffs] =
    enterpriseId === null
      ? [{ n: 0 }]
      : await db
          .select({ n: count() })
          .from(longTermCallOffs)
          .innerJoin(longTermDeals, eq(longTermDeals.id, longTermCallOffs.longTermId))
          .where(
            and(
              eq(longTermCallOffs.status, 'pending'),
              // waiting for my side: the other side initiated it
              or(
                and(eq(longTermDeals.sellerEnterpriseId, enterpriseId), eq(longTermCallOffs.initiator, 'buyer')),
                and(eq(longTermDeals.buyerEnterpriseId, enterpriseId), eq(longTermCallOffs.initiator, 'seller')),
              ),
            ),
          );
  const running = await db
    .select()
    .from(longTermDeals)
    .where(and(mine, inArray(longTermDeals.status, ['executing'])))
    .limit(1000);
  const warnPct = await parameterNumber(db, 'long_term_fulfilment_warn_pct');
  const progress = await progressOf(db, running, now, null, warnPct);
  const flagged = running.filter((d) => progress.get(d.id)?.overall.flagged).length;
  return { applications: Number(applications?.n ?? 0), callOffs: Number(callOffs?.n ?? 0), flagged };
}
