import { formatFen } from '@coalx/shared';
import type { Db, Tx } from '../../db/client';
import { move, type MovementResult } from './ledger';

// ---------- order escrow (订单货款托管): the buyer's prepayment, frozen in its own account for one order ----------

/** What the journal calls an order's escrow movements; the key names the order, so each moves once. */
export const ORDER_ESCROW_REF = 'order_escrow';
const escrowKey = (orderId: number) => `order:${orderId}:escrow`;
const releaseKey = (orderId: number) => `order:${orderId}:escrow_release`;

export interface OrderEscrow {
  enterpriseId: number;
  orderId: number;
  orderNo: string;
  amount: number;
}

/**
 * Freezes the buyer's prepayment for the order, inside the caller's transaction. The per-order idempotency key
 * means a second call (a retry, a racing request) moves nothing and answers `replayed`; a shortfall is the
 * ledger's `funds_insufficient` refusal, with nothing moved.
 */
export function freezeOrderEscrow(tx: Tx, input: OrderEscrow & { createdBy?: number | null }): Promise<MovementResult> {
  return move(tx, {
    enterpriseId: input.enterpriseId,
    kind: 'freeze',
    amount: input.amount,
    refType: ORDER_ESCROW_REF,
    refId: String(input.orderId),
    idempotencyKey: escrowKey(input.orderId),
    remark: `订单 ${input.orderNo} 货款托管 ¥${formatFen(input.amount)}`,
    createdBy: input.createdBy ?? null,
  });
}

/** Gives the order's escrow back to the buyer's available balance (a terminated order); once per order. */
export function releaseOrderEscrow(tx: Tx, input: OrderEscrow): Promise<MovementResult> {
  return move(tx, {
    enterpriseId: input.enterpriseId,
    kind: 'release',
    amount: input.amount,
    refType: ORDER_ESCROW_REF,
    refId: String(input.orderId),
    idempotencyKey: releaseKey(input.orderId),
    remark: `订单 ${input.orderNo} 终止，货款托管解冻`,
  });
}
