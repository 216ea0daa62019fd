import { arrivalTimeProblem, formatTons, transitLoss, type DispatchView, type WeighTicketInput } from '@coalx/shared';
import type { Db, Tx } from '../db/client';
import type { Dispatch, Order } from '../db/schema/index';
import { businessRule } from '../errors';
import type { Actor } from '../lib/actor';
import type { Clock } from '../lib/clock';
import { truckView } from '../modules/delivery/delivery.presenter';
import { moveTruck, requireShipping } from '../modules/delivery/trucks.service';
import { checkTicket, recordAsUser, saveWeighTicket, type TicketRecorder } from '../modules/delivery/weigh-tickets.service';
import { addDeliveryProgress, recordOrderEvent } from '../modules/order/order.service';
import { parameterNumber, workingDaysDeadline } from '../modules/system/calendar';

/** The parameters an arrival is checked and timed by, read before its transaction. */
export async function arrivalParameters(db: Db) {
  return { overloadPct: await parameterNumber(db, 'weigh_overload_pct'), autoSignDays: await parameterNumber(db, 'auto_sign_for_days') };
}

/** 到货磅单 (the buyer): the truck 已装车 → 已到货; the transit loss is measured and the auto sign-for time set. */
export async function recordArrival(db: Db, clock: Clock, actor: Actor, id: number, input: WeighTicketInput): Promise<DispatchView> {
  const now = clock.now();
  const parameters = await arrivalParameters(db);
  await recordAsUser(db, actor, id, input, 'arrive', (tx, scene, recorder) => arriveTruck(tx, scene, recorder, actor, input, now, parameters));
  return truckView(db, actor, id);
}

/** The arrival ticket of a locked truck, whoever records it (a buyer's user, or the plant's clerk with the QR pass). */
export async function arriveTruck(
  tx: Tx,
  { truck, order }: { truck: Dispatch; order: Order },
  recorder: TicketRecorder,
  by: { userId: number | null; username: string },
  input: WeighTicketInput,
  now: Date,
  { overloadPct, autoSignDays }: { overloadPct: number; autoSignDays: number },
) {
  requireShipping(order, '录入磅单');
  const weighedAt = new Date(input.weighedAt);
  const { lossKg, lossExceeded } = transitLoss(truck.loadedNetKg ?? 0, input.netKg, order.terms.transitLossPct);
  await moveTruck(tx, truck.id, 'arrive', {
    arrivedNetKg: input.netKg,
    arrivedAt: weighedAt,
    lossKg,
    lossExceeded,
    autoSignAt: await workingDaysDeadline(tx, weighedAt, autoSignDays),
    updatedAt: now,
  });
  await checkTicket(tx, recorder, truck, input, now, overloadPct);
  const timeProblem = arrivalTimeProblem(truck.loadedAt!, weighedAt);
  if (timeProblem) throw businessRule(timeProblem);
  await saveWeighTicket(tx, recorder, truck, 'arrival', input, weighedAt, now);
  await addDeliveryProgress(tx, order.id, { arrivedKg: input.netKg, arrivedTrucks: 1 });
  const lossNote = lossKg > 0 ? `，途损 ${formatTons(lossKg)}${lossExceeded ? `，超过合理途损 ${order.terms.transitLossPct}%` : ''}` : '';
  await recordOrderEvent(tx, {
    orderId: order.id,
    action: '到货过磅',
    actor: by,
    note: `派车单 ${truck.dispatchNo}：磅单 ${input.ticketNo}，净重 ${formatTons(input.netKg)}${lossNote}`,
    at: now,
  });
}
