import { formatFen } from '@coalx/shared';
import type { Tx } from '../../db/client';
import { AppError, appError } from '../../errors';
import { ORDER_ESCROW_REF } from './escrow.service';
import { move } from './ledger';
import { releaseTradeDeposit } from './trade-deposits.service';

export interface StatementMoney {
  statementId: number;
  statementNo: string;
  orderId: number;
  orderNo: string;
  buyerEnterpriseId: number;
  sellerEnterpriseId: number;
  /** the platform's funds holder; needed only when feeFen > 0 */
  platformEnterpriseId: number | null;
  amountFen: number;
  /** the buyer's prepayment still frozen for the order */
  escrowFen: number;
  /** the platform's service fee, paid by the seller out of the amount */
  feeFen: number;
  /** performance deposits (履约保证金) to release, by trade_deposit id */
  depositIds: number[];
  createdBy: number | null;
}

/**
 * The money of a confirmed settlement statement, inside the caller's transaction (余额结算, DESIGN.md §8):
 *   1. the shortfall (amount − escrow), if any, is frozen from the buyer's available funds (refused with nothing moved);
 *   2. the amount leaves the buyer's frozen balance (the escrow part journaled as the order's escrow so 资金资产's
 *      breakdown stays right) and reaches the seller, less the fee, which reaches the platform's account;
 *   3. the rest of the escrow goes back to the buyer; the performance deposits are released.
 * Every key names the statement, so a replay moves nothing; Σ of all accounts is unchanged.
 */
export async function settleStatementMoney(tx: Tx, m: StatementMoney): Promise<void> {
  const ref = String(m.statementId);
  const key = (what: string) => `statement:${m.statementId}:${what}`;
  const fromEscrow = Math.min(m.amountFen, m.escrowFen);
  const shortfall = m.amountFen - fromEscrow;
  const rest = m.escrowFen - fromEscrow;
  const by = m.createdBy;

  if (shortfall > 0) {
    try {
      await move(tx, {
        enterpriseId: m.buyerEnterpriseId,
        kind: 'freeze',
        amount: shortfall,
        refType: 'settlement',
        refId: ref,
        idempotencyKey: key('shortfall_freeze'),
        remark: `结算单 ${m.statementNo} 补付货款 ¥${formatFen(shortfall)}`,
        createdBy: by,
      });
    } catch (error) {
      if (error instanceof AppError && error.code === 'funds_insufficient') {
        throw appError('funds_insufficient', `可用资金不足：本结算单需补付 ¥${formatFen(shortfall)}，请先入金后再确认`);
      }
      throw error;
    }
    await move(tx, {
      enterpriseId: m.buyerEnterpriseId,
      kind: 'pay_out_frozen',
      amount: shortfall,
      refType: 'settlement',
      refId: ref,
      idempotencyKey: key('shortfall_pay'),
      remark: `结算单 ${m.statementNo} 补付货款支付给卖方`,
      createdBy: by,
    });
  }
  if (fromEscrow > 0) {
    await move(tx, {
      enterpriseId: m.buyerEnterpriseId,
      kind: 'pay_out_frozen',
      amount: fromEscrow,
      refType: ORDER_ESCROW_REF,
      refId: String(m.orderId),
      idempotencyKey: key('escrow_pay'),
      remark: `结算单 ${m.statementNo} 托管货款支付给卖方 ¥${formatFen(fromEscrow)}`,
      createdBy: by,
    });
  }
  const sellerGets = m.amountFen - m.feeFen;
  if (sellerGets > 0) {
    await move(tx, {
      enterpriseId: m.sellerEnterpriseId,
      kind: 'credit',
      amount: sellerGets,
      refType: 'settlement',
      refId: ref,
      idempotencyKey: key('seller_receive'),
      remark: `结算单 ${m.statementNo} 收到货款 ¥${formatFen(m.amountFen)}${m.feeFen ? `，扣平台服务费 ¥${formatFen(m.feeFen)}` : ''}`,
      createdBy: by,
    });
  }
  if (m.feeFen > 0) {
    if (m.platformEnterpriseId === null) throw new Error('platform account missing for a fee');
    await move(tx, {
      enterpriseId: m.platformEnterpriseId,
      kind: 'credit',
      amount: m.feeFen,
      refType: 'settlement_fee',
      refId: ref,
      idempotencyKey: key('platform_fee'),
      remark: `结算单 ${m.statementNo}（订单 ${m.orderNo}）平台服务费`,
      createdBy: by,
    });
  }
  if (rest > 0) {
    await move(tx, {
      enterpriseId: m.buyerEnterpriseId,
      kind: 'release',
      amount: rest,
      refType: ORDER_ESCROW_REF,
      refId: String(m.orderId),
      idempotencyKey: key('escrow_refund'),
      remark: `结算单 ${m.statementNo} 托管余款退回 ¥${formatFen(rest)}`,
      createdBy: by,
    });
  }
  for (const id of m.depositIds) await releaseTradeDeposit(tx, id);
}
