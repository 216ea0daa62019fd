import { formatDateTime, maskMobile, maskPersonName, type GatePassTicketInput, type GatePassView } from '@coalx/shared';
import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { dispatches, weighTickets, type Dispatch, type GatePass, type Order } from '../db/schema/index';
import { appError } from '../errors';
import type { Clock } from '../lib/clock';
import { realnamesOf } from '../modules/auth/accounts.service';
import { presentTicket } from '../modules/delivery/delivery.presenter';
import { gatePassClosedReason, gatePassOf, type GatePassClaim } from '../modules/delivery/gate-pass';
import { requireImage } from '../modules/delivery/trucks.service';
import { withTicketNo, type TicketRecorder } from '../modules/delivery/weigh-tickets.service';
import { findOrder } from '../modules/order/order.service';
import { arrivalParameters, arriveTruck } from './record-arrival';
import { loadTruck, ticketParameters } from './record-loading';

/**
 * The weighbridge by QR code (issue 32): a clerk without an account opens a truck's pass, sees that truck only, and
 * records its one ticket (loading at the mine, arrival at the plant) with a photo. The pass's signature was checked
 * by the route (api/gate-pass.routes.ts); here its row decides whether it still records.
 */

/** The pass's row, truck and order; a pass the database does not hold for exactly that truck: 二维码无效. */
async function openPass(db: Db | Tx, claim: GatePassClaim, lockTruck = false) {
  // the truck first, as every other ticket write does: its row lock orders the pass's use against them
  const query = db.select().from(dispatches).where(eq(dispatches.id, claim.dispatchId)).limit(1);
  const [truck] = lockTruck ? await query.for('update') : await query;
  const pass = truck ? await gatePassOf(db, claim) : null;
  if (!truck || !pass) throw appError('gate_pass_invalid');
  return { pass, truck, order: await findOrder(db, truck.orderId) };
}

/** Why nothing may be recorded with the pass now, or null. */
function closedReason(pass: GatePass, truck: Dispatch, order: Order, now: Date): string | null {
  return gatePassClosedReason(pass, truck.status, now) ?? (order.status === 'shipping' ? null : '订单已不在发运中，不能录入磅单');
}

/** What the clerk sees: the truck (driver masked), the order, whether the pass records, the ticket once recorded. */
export async function gatePassView(db: Db, clock: Clock, claim: GatePassClaim): Promise<GatePassView> {
  const { pass, truck, order } = await openPass(db, claim);
  const [recorded] = await db
    .select()
    .from(weighTickets)
    .where(and(eq(weighTickets.dispatchId, truck.id), eq(weighTickets.stage, pass.stage)))
    .limit(1);
  const recorder = recorded ? (await realnamesOf(db, [recorded.createdBy])).get(recorded.createdBy ?? 0) ?? null : null;
  return {
    stage: pass.stage as GatePassView['stage'],
    enterpriseName: pass.stage === 'loading' ? order.sellerName : order.buyerName,
    dispatchNo: truck.dispatchNo,
    status: truck.status,
    plateNo: truck.plateNo,
    driverName: maskPersonName(truck.driverName),
    driverMobile: maskMobile(truck.driverMobile),
    vehicleType: truck.vehicleType,
    ratedLoadKg: truck.ratedLoadKg,
    plannedKg: truck.plannedKg,
    planDate: truck.planDate,
    orderNo: order.orderNo,
    productName: order.productName,
    sellerName: order.sellerName,
    buyerName: order.buyerName,
    deliveryPlace: order.terms.deliveryPlace,
    loadedNetKg: truck.loadedNetKg,
    expiresAt: formatDateTime(pass.expiresAt),
    closedReason: closedReason(pass, truck, order, clock.now()),
    ticket: recorded ? presentTicket(recorded, recorder) : null,
  };
}

/** The enterprise a photo taken with the pass belongs to; refused once the pass records no more. */
export async function gatePassPhotoOwner(db: Db, clock: Clock, claim: GatePassClaim): Promise<number> {
  const { pass, truck, order } = await openPass(db, claim);
  const closed = closedReason(pass, truck, order, clock.now());
  if (closed) throw appError('gate_pass_closed', closed);
  return pass.enterpriseId;
}

/** Records the pass's ticket: the same checks and moves as a signed-in user's, in the name the clerk gave. */
export async function recordAtGate(db: Db, clock: Clock, claim: GatePassClaim, input: GatePassTicketInput): Promise<GatePassView> {
  const now = clock.now();
  const { recorderName, ...ticket } = input;
  const [loading, arrival] = await Promise.all([ticketParameters(db), arrivalParameters(db)]);
  await requireImage(db, ticket.photo, '磅单照片');
  await withTicketNo(ticket.ticketNo, () =>
    db.transaction(async (tx) => {
      const { pass, truck, order } = await openPass(tx, claim, true);
      const closed = closedReason(pass, truck, order, now);
      if (closed) throw appError('gate_pass_closed', closed);
      const recorder: TicketRecorder = { enterpriseId: pass.enterpriseId, userId: null, gatePassId: pass.id, name: recorderName };
      const by = { userId: null, username: `${recorderName}（扫码）` };
      if (pass.stage === 'loading') await loadTruck(tx, { truck, order }, recorder, by, ticket, now, loading);
      else await arriveTruck(tx, { truck, order }, recorder, by, ticket, now, arrival);
    }),
  );
  return gatePassView(db, clock, claim);
}
