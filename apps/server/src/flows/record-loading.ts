import { formatTons, loadingOverPlanProblem, type DispatchView, type WeighTicketInput } from '@coalx/shared';
import type { Db, Tx } from '../db/client';
import type { Dispatch, Order } from '../db/schema/index';
import { businessRule } from '../errors';
import type { Actor } from '../lib/actor';
import type { Clock } from '../lib/clock';
import { truckView } from '../modules/delivery/delivery.presenter';
import { renewArrivalPass } from '../modules/delivery/gate-pass';
import { moveTruck, requireShipping } from '../modules/delivery/trucks.service';
import { checkTicket, recordAsUser, saveWeighTicket, type TicketRecorder } from '../modules/delivery/weigh-tickets.service';
import { addLoadedKg, findOrder, maxDeliverableKg, recordOrderEvent } from '../modules/order/order.service';
import { parameterNumber } from '../modules/system/calendar';

/** The parameters a ticket is checked against, read before its transaction. */
export async function ticketParameters(db: Db) {
  return { overloadPct: await parameterNumber(db, 'weigh_overload_pct'), passDays: await parameterNumber(db, 'gate_pass_days') };
}

/**
 * 装车磅单 (the seller, at the mine): the truck 已派车 → 已装车, its net counted as loaded on the order. The net may
 * exceed neither the truck's plan (plus the weighing tolerance) nor what the order has left to deliver.
 */
export async function recordLoading(db: Db, clock: Clock, actor: Actor, id: number, input: WeighTicketInput): Promise<DispatchView> {
  const now = clock.now();
  const parameters = await ticketParameters(db);
  await recordAsUser(db, actor, id, input, 'load', (tx, scene, recorder) => loadTruck(tx, scene, recorder, actor, input, now, parameters));
  return truckView(db, actor, id);
}

/**
 * The loading ticket of a locked truck, whoever records it (a seller's user, or the mine's clerk with the QR
 * pass); `by` is who the order's timeline names.
 */
export async function loadTruck(
  tx: Tx,
  { truck, order }: { truck: Dispatch; order: Order },
  recorder: TicketRecorder,
  by: { userId: number | null; username: string },
  input: WeighTicketInput,
  now: Date,
  { overloadPct, passDays }: { overloadPct: number; passDays: number },
) {
  requireShipping(order, '录入磅单');
  await moveTruck(tx, truck.id, 'load', { updatedAt: now });
  const weighedAt = await checkTicket(tx, recorder, truck, input, now, overloadPct);
  if (weighedAt.getTime() < truck.createdAt.getTime()) throw businessRule('装车过磅时间不能早于派车时间');
  const overPlan = loadingOverPlanProblem(input.netKg, truck.plannedKg, overloadPct);
  if (overPlan) throw businessRule(overPlan);
  if (!(await addLoadedKg(tx, order.id, input.netKg))) {
    const latest = await findOrder(tx, order.id);
    const remaining = Math.max(0, maxDeliverableKg(latest) - latest.loadedKg);
    throw businessRule(`超出订单可交货量（合同数量含溢短装 ${formatTons(maxDeliverableKg(latest))}），剩余可装 ${formatTons(remaining)}`);
  }
  await saveWeighTicket(tx, recorder, truck, 'loading', input, weighedAt, now);
  await renewArrivalPass(tx, truck.id, now, passDays);
  await recordOrderEvent(tx, { orderId: order.id, action: '装车过磅', actor: by, note: `派车单 ${truck.dispatchNo}：磅单 ${input.ticketNo}，净重 ${formatTons(input.netKg)}`, at: now });
}
