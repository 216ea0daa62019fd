import { WEIGH_CLOCK_SKEW_MS, weighTicketProblem, type WeighTicketInput } from '@coalx/shared';
import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { dispatches, weighTickets, type Dispatch } from '../../db/schema/index';
import { businessRule } from '../../errors';
import { uniqueViolation } from '../../lib/db-errors';
import type { Actor } from '../../lib/actor';
import { ownedFileId } from '../files/files.service';

/** Weigh tickets (磅单): the seller's at loading, the buyer's at arrival, one number used once per enterprise. */

const ticketNoUsed = (ticketNo: string) => businessRule(`磅单号 ${ticketNo} 已录入过，不能重复使用`);

/** The ticket's time, weights and number; returns the time weighed. */
export async function checkTicket(tx: Tx, actor: Actor, truck: Dispatch, input: WeighTicketInput, now: Date, overloadPct: number) {
  const weighedAt = new Date(input.weighedAt);
  if (weighedAt.getTime() > now.getTime() + WEIGH_CLOCK_SKEW_MS) throw businessRule('过磅时间不能晚于当前时间');
  const problem = weighTicketProblem(input, truck.ratedLoadKg, overloadPct);
  if (problem) throw businessRule(problem);
  const [used] = await tx
    .select({ id: weighTickets.id })
    .from(weighTickets)
    .where(and(eq(weighTickets.enterpriseId, actor.enterpriseId!), eq(weighTickets.ticketNo, input.ticketNo)))
    .limit(1);
  if (used) throw ticketNoUsed(input.ticketNo);
  return weighedAt;
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

/** Saves the ticket with its photo (which must be the enterprise's); at loading also the truck's loading net. */
export async function saveWeighTicket(
  tx: Tx,
  actor: Actor,
  truck: Dispatch,
  stage: 'loading' | 'arrival',
  input: WeighTicketInput,
  weighedAt: Date,
  now: Date,
) {
  const photoFileId = await ownedFileId(tx, input.photo, actor.enterpriseId!);
  if (stage === 'loading') await tx.update(dispatches).set({ loadedNetKg: input.netKg, loadedAt: weighedAt }).where(eq(dispatches.id, truck.id));
  await tx.insert(weighTickets).values({
    dispatchId: truck.id,
    orderId: truck.orderId,
    stage,
    enterpriseId: actor.enterpriseId!,
    ticketNo: input.ticketNo,
    grossKg: input.grossKg,
    tareKg: input.tareKg,
    netKg: input.netKg,
    weighedAt,
    photoFileId,
    createdBy: actor.userId,
    createdAt: now,
  });
}
