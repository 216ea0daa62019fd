import { BREACH_RULINGS, formatFen } from '@coalx/shared';
import type { Db } from '../db/client';
import type { Actor } from '../lib/actor';
import { grantsHeld } from '../modules/auth/grants.service';
import type { Clock } from '../lib/clock';
import { logRuling, presentContractDetail, voidContractInTx } from '../modules/contract/contract.service';
import { forfeitTradeDeposit, releaseTradeDeposit } from '../modules/funds/trade-deposits.service';

/**
 * The operator voids a contract and rules who breached (DESIGN.md §8): the defaulter's performance deposit goes
 * to the other side through the ledger, the other side's deposit is released; with no defaulter both are released.
 * One transaction: the contract and the money move together or not at all.
 */
export async function voidContract(db: Db, clock: Clock, actor: Actor, id: number, input: { reason: string; breachBy: 'seller' | 'buyer' | 'none' }) {
  const now = clock.now();
  const held = await grantsHeld(db, actor);
  return db.transaction(async (tx) => {
    const { before, updated } = await voidContractInTx(tx, now, actor, id, input);
    const moved: string[] = [];
    for (const side of ['seller', 'buyer'] as const) {
      const depositId = side === 'seller' ? before.sellerDepositId : before.buyerDepositId;
      if (depositId === null) continue;
      if (input.breachBy === side) {
        const payee = side === 'seller' ? before.buyerEnterpriseId : before.sellerEnterpriseId;
        const deposit = await forfeitTradeDeposit(tx, depositId, payee, before.contractNo);
        if (deposit) moved.push(`${side === 'seller' ? '卖方' : '买方'}履约保证金 ¥${formatFen(deposit.amount)} 划转给${side === 'seller' ? '买方' : '卖方'}`);
      } else {
        await releaseTradeDeposit(tx, depositId);
        moved.push(`${side === 'seller' ? '卖方' : '买方'}履约保证金已释放`);
      }
    }
    await logRuling(tx, id, now, actor, `${BREACH_RULINGS[input.breachBy]}：${input.reason}${moved.length ? `；${moved.join('；')}` : ''}`);
    return presentContractDetail(tx, actor, updated, held);
  });
}
