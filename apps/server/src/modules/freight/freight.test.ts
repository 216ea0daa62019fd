import 'reflect-metadata';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { freightLines, freightStatements, type Order } from '../../db/schema/index';
import { shanghaiDate, shanghaiDayStart } from '../../lib/shanghai-time';
import { deliveryFixture } from '../../test/delivery-fixture';
import { testDatabaseKinds } from '../../test/test-app';

const HOUR = 3600_000;

describe.each(testDatabaseKinds())('freight statements on %s', (kind) => {
  const fixture = deliveryFixture(kind);
  const { t, seller, buyer, outsider, operator, db, later, call, upload, driverOf } = fixture;
  /**
   * A paid order the seller transports (0.2 % transit loss, the buyer's scale counts) and a new driver of the seller.
   * Each truck moves the clock an hour and a statement's period is today, so a test starts early in a Shanghai day:
   * its trucks are all signed on the same day whenever the suite runs.
   */
  async function readyOrder() {
    const dayStart = shanghaiDayStart(t.clock.now()).getTime();
    if (t.clock.now().getTime() - dayStart > 8 * HOUR) await later(shanghaiDayStart(t.clock.now(), 1).getTime() + HOUR - t.clock.now().getTime());
    return fixture.readyOrder({ quantityKg: 400_000 });
  }

  let ticketSeq = 0;
  const ticket = (prefix: string, netKg: number, photo: string) => ({
    ticketNo: `${prefix}-${kind}-${++ticketSeq}`,
    grossKg: netKg + 15_000,
    tareKg: 15_000,
    netKg,
    weighedAt: t.clock.now().toISOString(),
    photo,
  });

  /** A truck loaded with 40 t, arrived with the given net, and signed by the buyer unless told not to. */
  async function truck(order: Order, driverId: number, arrivedNetKg: number, sign = true): Promise<number> {
    const sent = await call('POST', '/delivery/dispatch', seller.traderToken, { orderId: order.id, driverId, plannedKg: 40_000, planDate: order.terms.deliveryDateStart });
    expect(sent.statusCode, sent.body).toBe(200);
    const id = sent.json().result.id as number;
    expect((await call('POST', `/delivery/dispatch/${id}/loading`, seller.traderToken, ticket('ZC', 40_000, await upload(seller.traderToken)))).statusCode).toBe(200);
    await later(HOUR);
    const arrival = await call('POST', `/delivery/dispatch/${id}/arrival`, buyer.traderToken, ticket('DH', arrivedNetKg, await upload(buyer.traderToken)));
    expect(arrival.statusCode, arrival.body).toBe(200);
    if (sign) expect((await call('POST', `/delivery/dispatch/${id}/sign`, buyer.traderToken, {})).statusCode).toBe(200);
    return id;
  }

  const today = () => shanghaiDate(t.clock.now());
  const scope = (driverId: number) => ({ carrierKind: 'driver', driverId, periodFrom: today(), periodTo: today(), rateFen: 8_550 });

  it('draft: rate × signed weight, less the excess loss at the order price, 9 % VAT, each half up to the fen; confirmed with the signed copy, paid with the voucher', async () => {
    const { order, driver } = await readyOrder();
    // 100 kg lost of 40 t: 20 kg beyond the 80 kg tolerance; 30 kg lost: within
    const first = await truck(order, driver.id, 39_900);
    const second = await truck(order, driver.id, 39_970);

    const preview = await call('POST', '/freight/preview', seller.traderToken, scope(driver.id));
    expect(preview.statusCode, preview.body).toBe(200);
    const money = preview.json().result;
    expect(money.carrierName).toBe(driver.name);
    expect(money.lines.map((l: { dispatchId: number }) => l.dispatchId)).toEqual([first, second]);
    // 85.50 × 39.9 = 3411.45; 20 kg × 845.50 = 16.91; 85.50 × 39.97 = 3417.435 → 3417.44
    expect(money.lines[0]).toMatchObject({ signedKg: 39_900, lossKg: 100, excessLossKg: 20, orderPriceFen: 84_550, freightFen: 341_145, lossDeductionFen: 1_691, lineFen: 339_454 });
    expect(money.lines[1]).toMatchObject({ signedKg: 39_970, lossKg: 30, excessLossKg: 0, freightFen: 341_744, lossDeductionFen: 0, lineFen: 341_744 });
    // 6811.98 × 9 % = 613.0782 → 613.08
    expect(money).toMatchObject({ trucks: 2, signedKg: 79_870, subtotalFen: 681_198, taxFen: 61_308, totalFen: 742_506 });

    // a line may have its own rate
    const ownRate = await call('POST', '/freight/preview', seller.traderToken, { ...scope(driver.id), lines: [{ dispatchId: first }, { dispatchId: second, rateFen: 9_000 }] });
    expect(ownRate.json().result.lines[1]).toMatchObject({ rateFen: 9_000, freightFen: 359_730 });

    const saved = await call('POST', '/freight', seller.traderToken, scope(driver.id));
    expect(saved.statusCode, saved.body).toBe(200);
    const statement = saved.json().result;
    expect(statement.statementNo).toMatch(/^YF\d{12}$/);
    expect(statement).toMatchObject({ status: 'draft', statusText: '草稿', totalFen: 742_506, orderNos: [order.orderNo], actions: ['confirm', 'cancel'] });
    expect(statement.lines).toHaveLength(2);

    // paying a draft is refused: the carrier has not confirmed
    expect((await call('POST', `/freight/${statement.id}/pay`, seller.traderToken, { voucher: await upload(seller.traderToken) })).statusCode).toBe(409);
    // another enterprise's upload is no signed copy
    const foreignCopy = await call('POST', `/freight/${statement.id}/confirm`, seller.traderToken, { signedCopy: await upload(outsider.traderToken), carrierSigner: '李师傅' });
    expect(foreignCopy.statusCode).toBe(422);
    const confirmed = await call('POST', `/freight/${statement.id}/confirm`, seller.traderToken, { signedCopy: await upload(seller.traderToken), carrierSigner: '李师傅' });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().result).toMatchObject({ status: 'confirmed', carrierSigner: '李师傅', actions: ['pay'] });
    expect(confirmed.json().result.signedCopy.url).toMatch(/\.png$/);
    const paid = await call('POST', `/freight/${statement.id}/pay`, seller.traderToken, { voucher: await upload(seller.traderToken), note: '网银转账' });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().result).toMatchObject({ status: 'paid', statusText: '已付款', actions: [] });
    expect(paid.json().result.voucher).not.toBeNull();

    // 物流结算 lists the payable and paid ones; the operator sees it, the buyer and the outsider do not
    const payable = await call('GET', `/freight/list?payable=1&statementNo=${statement.statementNo}`, seller.traderToken);
    expect(payable.json().result.records.map((r: { id: number }) => r.id)).toEqual([statement.id]);
    expect((await call('GET', `/freight/list?orderNo=${order.orderNo}`, seller.traderToken)).json().result.total).toBe(1);
    expect((await call('GET', `/freight/${statement.id}`, operator.token)).statusCode).toBe(200);
    expect((await call('GET', '/freight/summary', operator.token)).json().result.total.paidFen).toBeGreaterThanOrEqual(742_506);
    expect((await call('GET', `/freight/list?orderNo=${order.orderNo}`, buyer.traderToken)).json().result.total).toBe(0);
  });

  it('refuses in Chinese and stores nothing: unsigned, foreign, duplicated or out-of-scope trucks, an empty period, bad rates', async () => {
    const { order, driver } = await readyOrder();
    const signed = await truck(order, driver.id, 40_000);
    const unsigned = await truck(order, driver.id, 40_000, false);
    const other = await readyOrder();
    const othersTruck = await truck(other.order, other.driver.id, 40_000);
    const before = (await db().select().from(freightStatements)).length;

    const refused = async (body: object, status: number, message: string | RegExp) => {
      const answer = await call('POST', '/freight', seller.traderToken, body);
      expect(answer.statusCode, answer.body).toBe(status);
      expect(answer.json().message).toMatch(message);
    };
    await refused({ ...scope(driver.id), lines: [{ dispatchId: unsigned }] }, 422, /尚未签收，不能结算运费/);
    await refused({ ...scope(driver.id), lines: [{ dispatchId: othersTruck }] }, 422, /不在该承运方本期间签收的车辆中/);
    await refused({ ...scope(driver.id), lines: [{ dispatchId: signed }, { dispatchId: signed }] }, 422, '同一车辆不能重复列入结算单');
    await refused({ ...scope(driver.id), periodFrom: '2020-01-01', periodTo: '2020-01-31' }, 422, '该承运方在所选期间没有可结算的已签收车辆');
    await refused({ ...scope(driver.id), rateFen: -1 }, 400, /运价须大于 0/);
    await refused({ ...scope(driver.id), rateFen: 1e20 }, 400, /运价不超过 1000 元\/吨/);
    await refused({ ...scope(driver.id), rateFen: 85.5 }, 400, /运价最多两位小数/);
    // the outsider's trucks and drivers do not exist for the seller
    const outsiderDriver = await driverOf(outsider);
    await refused({ ...scope(outsiderDriver.id) }, 404, '司机不存在');
    const foreign = await call('POST', '/freight/preview', outsider.traderToken, { carrierKind: 'company', carrierName: '晋运物流', periodFrom: today(), periodTo: today(), rateFen: 8_000, lines: [{ dispatchId: signed }] });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('派车单不存在');
    expect((await db().select().from(freightStatements)).length).toBe(before);

    // a truck on a live statement cannot go on another; voiding the draft frees it
    const draft = (await call('POST', '/freight', seller.traderToken, scope(driver.id))).json().result;
    expect(draft.lines.map((l: { dispatchId: number }) => l.dispatchId)).toEqual([signed]);
    await refused({ carrierKind: 'company', carrierName: '晋运物流', periodFrom: today(), periodTo: today(), rateFen: 8_000, lines: [{ dispatchId: signed }] }, 422, `派车单 ${draft.lines[0].dispatchNo} 已在运费结算单 ${draft.statementNo} 中`);
    await refused(scope(driver.id), 422, '该承运方在所选期间没有可结算的已签收车辆');
    expect((await call('POST', `/freight/${draft.id}/cancel`, outsider.traderToken)).statusCode).toBe(404);
    expect((await call('POST', `/freight/${draft.id}/cancel`, operator.token)).statusCode).toBe(403);
    const cancelled = await call('POST', `/freight/${draft.id}/cancel`, seller.traderToken);
    expect(cancelled.json().result.status).toBe('cancelled');
    const again = await call('POST', '/freight', seller.traderToken, { carrierKind: 'company', carrierName: '晋运物流', periodFrom: today(), periodTo: today(), rateFen: 8_000, lines: [{ dispatchId: signed }] });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().result).toMatchObject({ carrierKind: 'company', carrierName: '晋运物流', trucks: 1 });
  });

  it("another enterprise's statement is not found: no detail, no confirmation, no payment", async () => {
    const { order, driver } = await readyOrder();
    await truck(order, driver.id, 40_000);
    const statement = (await call('POST', '/freight', seller.traderToken, scope(driver.id))).json().result;
    for (const party of [outsider, buyer]) {
      const detail = await call('GET', `/freight/${statement.id}`, party.traderToken);
      expect(detail.statusCode).toBe(404);
      expect(detail.json().message).toBe('运费结算单不存在');
      const confirm = await call('POST', `/freight/${statement.id}/confirm`, party.traderToken, { signedCopy: await upload(party.traderToken), carrierSigner: '李师傅' });
      expect(confirm.statusCode).toBe(404);
    }
    expect((await db().select().from(freightStatements).where(eq(freightStatements.id, statement.id)))[0]!.status).toBe('draft');
  });

  it('the same truck drafted by 8 requests at once goes on one statement only', async () => {
    const { order, driver } = await readyOrder();
    const id = await truck(order, driver.id, 40_000);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call('POST', '/freight', seller.traderToken, i % 2 ? scope(driver.id) : { carrierKind: 'company', carrierName: `承运公司${i}`, periodFrom: today(), periodTo: today(), rateFen: 8_000, lines: [{ dispatchId: id }] }),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    for (const refused of answers.filter((a) => a.statusCode !== 200)) expect(refused.statusCode, refused.body).toBe(422);
    expect(await db().select().from(freightLines).where(eq(freightLines.dispatchId, id))).toHaveLength(1);
  });

  it('运费汇总 groups by carrier and month, void statements left out; both exports are workbooks', async () => {
    const { order, driver } = await readyOrder();
    await truck(order, driver.id, 40_000);
    await truck(order, driver.id, 40_000);
    const statement = (await call('POST', '/freight', seller.traderToken, { ...scope(driver.id), rateFen: 10_000 })).json().result;
    const summary = await call('GET', `/freight/summary?carrierName=${encodeURIComponent(driver.name)}`, seller.traderToken);
    expect(summary.statusCode, summary.body).toBe(200);
    expect(summary.json().result.rows).toEqual([
      { carrierName: driver.name, month: today().slice(0, 7), trucks: 2, signedKg: 80_000, freightFen: 800_000, lossDeductionFen: 0, subtotalFen: 800_000, taxFen: 72_000, totalFen: 872_000, paidFen: 0 },
    ]);
    expect((await call('GET', `/freight/summary?carrierName=${encodeURIComponent(driver.name)}`, outsider.traderToken)).json().result.rows).toEqual([]);
    await call('POST', `/freight/${statement.id}/cancel`, seller.traderToken);
    expect((await call('GET', `/freight/summary?carrierName=${encodeURIComponent(driver.name)}`, seller.traderToken)).json().result.rows).toEqual([]);
    for (const url of ['/freight/summary/export', '/freight/export?status=cancelled']) {
      const excel = await call('GET', url, seller.traderToken);
      expect(excel.statusCode, excel.body).toBe(200);
      expect(excel.headers['content-type']).toContain('spreadsheetml');
    }
  });
});
