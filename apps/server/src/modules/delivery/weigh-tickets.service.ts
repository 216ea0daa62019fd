import { WEIGH_CLOCK_SKEW_MS, weighTicketProblem, type WeighTicketInput } from '@coalx/shared';
import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { dispatches, weighTickets, type Dispatch, type Order } from '../../db/schema/index';
import { businessRule } from '../../errors';
import { uniqueViolation } from '../../lib/db-errors';
import type { Actor } from '../../lib/actor';
import { ownedFileId } from '../files/files.service';
import { deliveryPolicy } from './delivery.policy';
import { useGatePass } from './gate-pass';
import { requireImage, truckForActor } from './trucks.service';

/** Weigh tickets (磅单): the seller's at loading, the buyer's at arrival, one number used once per enterprise. */

/** Who records a weigh ticket: a signed-in user of the side, or a gate clerk holding the truck's QR pass. */
export interface TicketRecorder {
  enterpriseId: number;
  userId: number | null;
  gatePassId: number | null;
  /** the clerk's name with a pass; '' for a user (the account says who) */
  name: string;
}

export const userRecorder = (actor: Actor): TicketRecorder => ({ enterpriseId: actor.enterpriseId!, userId: actor.userId, gatePassId: null, name: '' });

const ticketNoUsed = (ticketNo: string) => businessRule(`磅单号 ${ticketNo} 已录入过，不能重复使用`);

/** The ticket's time, weights and number; returns the time weighed. */
export async function checkTicket(tx: Tx, recorder: TicketRecorder, truck: Dispatch, input: WeighTicketInput, now: Date, overloadPct: number) {
  const weighedAt = new Date(input.weighedAt);
  if (weighedAt.getTime() > now.getTime() + WEIGH_CLOCK_SKEW_MS) throw businessRule('过磅时间不能晚于当前时间');
  const problem = weighTicketProblem(input, truck.ratedLoadKg, overloadPct);
  if (problem) throw businessRule(problem);
  const [used] = await tx
    .select({ id: weighTickets.id })
    .from(weighTickets)
    .where(and(eq(weighTickets.enterpriseId, recorder.enterpriseId), eq(weighTickets.ticketNo, input.ticketNo)))
    .limit(1);
  if (used) throw ticketNoUsed(input.ticketNo);
  return weighedAt;
}

/**
 * A signed-in user's ticket: the photo checked, then in one transaction the truck locked, the side's rule asked
 * ('load' the seller, 'arrive' the buyer) and `record` run with the user as recorder.
 */
export async function recordAsUser(
  db: Db,
  actor: Actor,
  id: number,
  input: WeighTicketInput,
  rule: 'load' | 'arrive',
  record: (tx: Tx, scene: { truck: Dispatch; order: Order }, recorder: TicketRecorder) => Promise<void>,
) {
  await requireImage(db, input.photo, '磅单照片');
  await withTicketNo(input.ticketNo, () =>
    db.transaction(async (tx) => {
      const scene = await truckForActor(tx, actor, id, true);
      deliveryPolicy.can(actor, rule, scene.order);
      await record(tx, scene, userRecorder(actor));
    }),
  );
}

/** A unique ticket number lost to a concurrent request: the same Chinese refusal (the transaction is gone). */
export async function withTicketNo<T>(ticketNo: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (uniqueViolation(err) === 'weigh_ticket_no_uq') throw ticketNoUsed(ticketNo);
    throw err;
  }
}

/**
 * Saves the ticket with its photo (which must be the enterprise's); at loading also the truck's loading net. The
 * stage's QR pass records no more, whoever recorded the ticket.
 */
export async function saveWeighTicket(
  tx: Tx,
  recorder: TicketRecorder,
  truck: Dispatch,
  stage: 'loading' | 'arrival',
  input: WeighTicketInput,
  weighedAt: Date,
  now: Date,
) {
  const photoFileId = await ownedFileId(tx, input.photo, recorder.enterpriseId);
  if (stage === 'loading') await tx.update(dispatches).set({ loadedNetKg: input.netKg, loadedAt: weighedAt }).where(eq(dispatches.id, truck.id));
  await tx.insert(weighTickets).values({
    dispatchId: truck.id,
    orderId: truck.orderId,
    stage,
    enterpriseId: recorder.enterpriseId,
    ticketNo: input.ticketNo,
    grossKg: input.grossKg,
    tareKg: input.tareKg,
    netKg: input.netKg,
    weighedAt,
    photoFileId,
    createdBy: recorder.userId,
    gatePassId: recorder.gatePassId,
    recorderName: recorder.name,
    createdAt: now,
  });
  await useGatePass(tx, truck.id, stage, now);
}
