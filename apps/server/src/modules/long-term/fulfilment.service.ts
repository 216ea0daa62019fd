import {
  CALL_OFF_STATUS,
  ORDER_STATUS,
  formatDateTime,
  fulfilmentRate,
  type CallOff,
  type Fulfilment,
  type LongTermMonth,
} from '@coalx/shared';
import { asc, desc, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { longTermCallOffs, longTermMonths, type LongTermDealRow, type LongTermMonthRow } from '../../db/schema/index';
import type { Actor } from '../../lib/actor';
import { allowedActions, type GrantCheck } from '../../lib/policy';
import { contractsOfDeals } from '../contract/contract.service';
import { deliveryOfDeals } from '../order/order-delivery.service';
import { shanghaiMonth } from './long-term-deal';
import { longTermPolicy } from './long-term.policy';

type MonthPhase = LongTermMonth['phase'];

export interface Progress {
  months: LongTermMonth[];
  years: (Fulfilment & { year: string })[];
  overall: Fulfilment;
  callOffs: CallOff[];
}

function fulfilment(rows: { plannedKg: number; calledKg: number; deliveredKg: number; settledKg: number }[], warnPct: number, anyFlagged = false): Fulfilment {
  const sum = (key: 'plannedKg' | 'calledKg' | 'deliveredKg' | 'settledKg') => rows.reduce((s, r) => s + r[key], 0);
  const plannedKg = sum('plannedKg');
  const deliveredKg = sum('deliveredKg');
  const rate = fulfilmentRate(deliveredKg, plannedKg);
  return { plannedKg, calledKg: sum('calledKg'), deliveredKg, settledKg: sum('settledKg'), rate, flagged: anyFlagged || (rate !== null && rate < warnPct) };
}

/**
 * Planned vs called off vs delivered (signed tons of the call-offs' orders) vs settled, per month; the years and
 * the whole period over finished months only (a month in progress would read as a shortfall). A finished month
 * below the warning line is flagged, and so is the deal.
 */
export async function progressOf(
  db: Db | Tx,
  deals: LongTermDealRow[],
  now: Date,
  viewer: { actor: Actor; held: GrantCheck } | null,
  warnPct: number,
): Promise<Map<number, Progress>> {
  const ids = deals.map((d) => d.id);
  if (ids.length === 0) return new Map();
  const [monthRows, callOffRows] = await Promise.all([
    db.select().from(longTermMonths).where(inArray(longTermMonths.longTermId, ids)).orderBy(asc(longTermMonths.month)),
    db.select().from(longTermCallOffs).where(inArray(longTermCallOffs.longTermId, ids)).orderBy(desc(longTermCallOffs.id)),
  ]);
  const dealIds = callOffRows.map((c) => c.dealId).filter((d): d is number => d !== null);
  const [orderRows, contractRows] = await Promise.all([deliveryOfDeals(db, dealIds), contractsOfDeals(db, dealIds)]);
  const orderByDeal = new Map(orderRows.map((o) => [o.dealId, o]));
  const contractByDeal = new Map(contractRows.map((c) => [c.dealId, c]));
  const current = shanghaiMonth(now);
  const result = new Map<number, Progress>();
  for (const deal of deals) {
    const mine = callOffRows.filter((c) => c.longTermId === deal.id);
    const callOffs: CallOff[] = mine.map((c) => {
      const order = c.dealId !== null ? orderByDeal.get(c.dealId) : undefined;
      const contract = c.dealId !== null ? contractByDeal.get(c.dealId) : undefined;
      const pending = c.status === 'pending';
      const actions: CallOff['actions'] = viewer
        ? allowedActions(
            longTermPolicy.verdicts(viewer.actor, viewer.held, { deal, callOff: c }, {
              withdraw: { rule: 'withdrawCallOff', when: pending },
              accept: { rule: 'decideCallOff', when: pending },
              decline: { rule: 'decideCallOff', when: pending },
            }),
          )
        : [];
      return {
        id: c.id,
        callOffNo: c.callOffNo,
        month: c.month,
        quantityKg: c.quantityKg,
        priceFen: c.priceFen,
        amountFen: c.amountFen,
        deliveryDateStart: c.deliveryDateStart,
        deliveryDateEnd: c.deliveryDateEnd,
        initiator: c.initiator as 'seller' | 'buyer',
        status: c.status as CallOff['status'],
        statusText: CALL_OFF_STATUS[c.status as keyof typeof CALL_OFF_STATUS] ?? c.status,
        note: c.note,
        reason: c.reason,
        dealNo: c.dealNo,
        contractId: contract?.id ?? null,
        contractNo: contract?.contractNo ?? null,
        orderId: order?.id ?? null,
        orderNo: order?.orderNo ?? null,
        orderStatusText: order ? (ORDER_STATUS[order.status as keyof typeof ORDER_STATUS] ?? order.status) : null,
        deliveredKg: order?.signedKg ?? 0,
        createdAt: formatDateTime(c.createdAt),
        decidedAt: c.decidedAt ? formatDateTime(c.decidedAt) : null,
        actions,
      };
    });
    const running = ['executing', 'expired', 'terminated'].includes(deal.status);
    const months: LongTermMonth[] = monthRows
      .filter((m) => m.longTermId === deal.id)
      .map((m: LongTermMonthRow) => {
        const accepted = callOffs.filter((c) => c.month === m.month && c.status === 'accepted');
        const settledKg = accepted.reduce((s, c) => {
          const order = c.orderId !== null ? orderRows.find((o) => o.id === c.orderId) : undefined;
          return s + (order?.settledAt ? order.signedKg : 0);
        }, 0);
        const phase: MonthPhase = m.month < current ? 'past' : m.month === current ? 'current' : 'future';
        const row = { plannedKg: m.plannedKg, calledKg: accepted.reduce((s, c) => s + c.quantityKg, 0), deliveredKg: accepted.reduce((s, c) => s + c.deliveredKg, 0), settledKg };
        const rate = fulfilmentRate(row.deliveredKg, row.plannedKg);
        return {
          month: m.month,
          ...row,
          rate,
          flagged: running && phase === 'past' && rate !== null && rate < warnPct,
          price: m.price,
          phase,
          availableKg: Math.max(0, m.plannedKg - m.reservedKg),
        };
      });
    const finished = months.filter((m) => m.phase === 'past' && running);
    const years = [...new Set(months.map((m) => m.month.slice(0, 4)))].map((year) => {
      const inYear = finished.filter((m) => m.month.startsWith(year));
      return { year, ...fulfilment(inYear, warnPct, inYear.some((m) => m.flagged)) };
    });
    result.set(deal.id, { months, years, overall: fulfilment(finished, warnPct, finished.some((m) => m.flagged)), callOffs });
  }
  return result;
}
