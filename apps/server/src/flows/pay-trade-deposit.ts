import type { Db, Tx } from '../db/client';
import { notFound } from '../errors';
import type { Clock } from '../lib/clock';
import { freezeTradeDeposit } from '../modules/funds/trade-deposits.service';
import { verifyPaymentAuth } from '../modules/funds/pay-auth';
import type { Actor } from '../lib/actor';

/**
 * POST /api/hangDepositPay: pays a trade's deposit from the enterprise's account. The trade modules (listing,
 * auction) register how to find what a trade requires of the payer; the freeze happens in their transaction so
 * the deposit and what it secures are recorded together.
 */
export interface TradeDepositResolver {
  /** Returns the deposit to freeze for the actor on this trade, after checking the trade's own rules. */
  resolve(tx: Tx, actor: Actor, tradeId: string): Promise<{ tradeKind: 'listing' | 'auction'; refId: string; amount: number } | null>;
}

const resolvers: TradeDepositResolver[] = [];
export function registerTradeDepositResolver(resolver: TradeDepositResolver) {
  resolvers.push(resolver);
}

export async function payTradeDeposit(
  db: Db,
  clock: Clock,
  actor: Actor,
  input: { tradeId: string; requestId: string; payPassword?: string; ukeySignature?: string },
) {
  await verifyPaymentAuth(db, clock, actor, 'trade_deposit', input);
  return db.transaction(async (tx) => {
    for (const resolver of resolvers) {
      const need = await resolver.resolve(tx, actor, input.tradeId);
      if (!need) continue;
      return freezeTradeDeposit(tx, { enterpriseId: actor.enterpriseId!, tradeId: input.tradeId, createdBy: actor.userId, ...need });
    }
    throw notFound('交易不存在，或该交易无需缴纳保证金');
  });
}
