import 'reflect-metadata';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contracts, orderEvents, orders } from '../../db/schema/index';
import { makeMissingOrders, makeOrderForContract } from '../../flows/make-order';
import { effectiveOrder } from '../../test/order-factory';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';
import { prepaymentOf } from './order.service';

describe('prepaymentOf', () => {
  it('rounds the ratio half up to the fen', () => {
    expect(prepaymentOf(42_275_000, 100)).toBe(42_275_000);
    expect(prepaymentOf(101, 50)).toBe(51);
    expect(prepaymentOf(99, 30)).toBe(30); // 29.7
    expect(prepaymentOf(12_345, 0)).toBe(0);
  });
});

describe.each(testDatabaseKinds())('orders made from effective contracts on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('one order per effective contract, 待付款 with the prepayment due; the contract is performing', async () => {
    const { order, contractId } = await effectiveOrder(t);
    expect(order).toMatchObject({ status: 'unpaid', quantityKg: 500_000, priceFen: 84_550, amountFen: 42_275_000, prepaymentFen: 42_275_000, escrowFen: 0, transportSide: 'buyer' }); // 出厂价: the buyer fetches
    expect(order.orderNo).toMatch(/^DD\d{12}$/);
    expect(order.paymentDeadline.getTime()).toBeGreaterThan(t.clock.now().getTime());
    const [contract] = await t.database.db.select().from(contracts).where(eq(contracts.id, contractId));
    expect(contract!.status).toBe('performing');
    // again, and the sweep: still one order
    expect(await makeOrderForContract(t.database.db, t.clock, contractId)).toBeNull();
    await makeMissingOrders(t.database.db, t.clock, (err) => {
      throw err;
    });
    expect(await t.database.db.select().from(orders).where(eq(orders.contractId, contractId))).toHaveLength(1);
    const timeline = await t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, order.id));
    expect(timeline.map((e) => e.action)).toEqual(['生成订单']);
  });

  it('no prepayment: the order starts at 待发货', async () => {
    const { order } = await effectiveOrder(t, { terms: { prepaymentPct: 0, transportArranger: 'seller' } });
    expect(order).toMatchObject({ status: 'awaiting_shipment', prepaymentFen: 0, transportSide: 'seller' });
  });
});
