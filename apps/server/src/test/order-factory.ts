import { ContractStates, type ContractTerms } from '@coalx/shared';
import { eq } from 'drizzle-orm';
import { contracts, deals, orders, type Order } from '../db/schema/index';
import { makeContractForDeal } from '../flows/make-contract';
import { makeOrderForContract } from '../flows/make-order';
import { transition } from '../lib/transition';
import { creditThroughDepositIn, fundedEnterprise, newRequestId, operatorActor } from '../modules/funds/funds.test-helpers';
import { createProduct, listingInput, post } from '../modules/listing/listing.test-helpers';
import { runScheduledJobs } from '../plugins/scheduler';
import { createUser, loginAs, signedIn } from './factories';
import type { TestApp } from './test-app';

/** An audited enterprise with 1,000,000.00 元 available, its admin and a trader signed in. */
export async function tradingParty(t: TestApp, creditFen = 100_000_000) {
  const admin = await fundedEnterprise(t.app, t.database.db);
  await creditThroughDepositIn(t.database.db, t.clock, admin.actor, await operatorActor(t.database.db), creditFen);
  const traderUser = await createUser(t.database.db, { role: 'trader', enterpriseId: admin.enterprise.id });
  const traderToken = await loginAs(t.app, traderUser.username);
  return {
    enterprise: admin.enterprise,
    admin: admin.user,
    adminToken: admin.token,
    adminActor: admin.actor,
    trader: traderUser,
    traderToken,
    traderActor: { userId: traderUser.id, username: traderUser.username, role: 'trader' as const, enterpriseId: admin.enterprise.id, sessionId: 0 },
    /** sessions end after 12 hours: tests that move the clock by days sign in again */
    async refresh() {
      this.adminToken = await loginAs(t.app, admin.user.username);
      this.traderToken = await loginAs(t.app, traderUser.username);
    },
  };
}
export type TradingParty = Awaited<ReturnType<typeof tradingParty>>;

export interface EffectiveOrderOptions {
  /** kg the buyer subscribes (default 500 t) at 845.50 元/t */
  quantityKg?: number;
  /** contract terms to change before it takes effect (e.g. transportArranger, prepaymentPct, transitLossPct) */
  terms?: Partial<ContractTerms>;
  seller?: TradingParty;
  buyer?: TradingParty;
}

/**
 * A real deal (the seller's listing, audited, subscribed by the buyer), its generated contract with the given terms
 * made effective (as if both had signed), and the order that follows it: what the order and delivery tests start
 * from. Returns both parties, an operator's token and the order row.
 */
export async function effectiveOrder(t: TestApp, options: EffectiveOrderOptions = {}) {
  const db = t.database.db;
  const seller = options.seller ?? (await tradingParty(t));
  const buyer = options.buyer ?? (await tradingParty(t));
  const operator = await signedIn(t.app, db, { role: 'operator' });
  const stockCode = await createProduct(db);
  const quantity = options.quantityKg ?? 500_000;
  const listing = listingInput(stockCode, t.clock.now(), { autoConfirm: true, price: 84_550, maxSubscribe: Math.max(quantity, 500_000), quantity: Math.max(quantity, 10_000_000) });
  const created = await post(t.app, '/api/addListedApply', seller.adminToken, listing);
  if (created.statusCode !== 200) throw new Error(`listing: ${created.body}`);
  const tradeId = created.json().result.tradeId as string;
  const approved = await post(t.app, '/api/listing/audit/approve', operator.token, { tradeId });
  if (approved.statusCode !== 200) throw new Error(`approve: ${approved.body}`);
  t.clock.advance(61_000);
  await runScheduledJobs(t.app);
  const subscribed = await post(t.app, '/api/listedAnswerApply', buyer.adminToken, { tradeId, quantity, requestId: newRequestId() });
  if (subscribed.statusCode !== 200) throw new Error(`subscribe: ${subscribed.body}`);
  const [deal] = await db.select().from(deals).where(eq(deals.tradeNo, tradeId));
  await makeContractForDeal(db, t.app.storage, t.clock, deal!.id);
  const [contract] = await db.select().from(contracts).where(eq(contracts.dealId, deal!.id));
  if (options.terms) {
    await db.update(contracts).set({ terms: { ...contract!.terms, ...options.terms } }).where(eq(contracts.id, contract!.id));
  }
  await transition(db, ContractStates, 'takeEffect', { table: contracts, where: eq(contracts.id, contract!.id), set: { effectiveAt: t.clock.now() } });
  await makeOrderForContract(db, t.clock, contract!.id);
  const [order] = await db.select().from(orders).where(eq(orders.contractId, contract!.id));
  if (!order) throw new Error('order not made');
  return { seller, buyer, operator, contractId: contract!.id, order: order as Order };
}
