import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DailyReportFigures, StatisticsAnswer } from '@coalx/shared';
import { dailyReports, deals, dispatches, fileObjects, fundJournal, longTermDeals, systemParameters } from '../../db/schema/index';
import { makeDailyReportOnDemand, makeScheduledDailyReport } from '../../flows/make-daily-report';
import { openPostgres } from '../../lib/database';
import { shanghaiDate } from '../../lib/shanghai-time';
import { runScheduledJobs } from '../../plugins/scheduler';
import { signedIn } from '../../test/factories';
import { effectiveOrder, tradingParty } from '../../test/order-factory';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

describe.each(testDatabaseKinds())('运营统计 and 交易日报 (%s)', (kind) => {
  let t: TestApp;
  /** the Shanghai day the trading happens on; the report is made for it the day after */
  let day = '';
  let orderId = 0;

  const get = (url: string, token: string) => t.app.inject({ method: 'GET', url: `/trade-api${url}`, headers: { 'x-access-token': token } });
  const post = (url: string, token: string, payload: object) => t.app.inject({ method: 'POST', url: `/trade-api${url}`, headers: { 'x-access-token': token }, payload });

  beforeAll(async () => {
    t = await createTestApp(kind);
    // the funds journal is dated by the database's clock, the rest by the app's: both are today here. The schedule
    // must not make today's report while the day is being set up (whatever the hour the suite runs at)
    await t.database.db.insert(systemParameters).values({ code: 'daily_report_time', value: '2359' });
    day = shanghaiDate(t.clock.now());
    const seller = await tradingParty(t);
    const buyer = await tradingParty(t);
    const first = await effectiveOrder(t, { seller, buyer, quantityKg: 500_000 });
    await effectiveOrder(t, { seller, buyer, quantityKg: 320_000 });
    orderId = first.order.id;
    // a long-term deal's monthly call-off becomes a deal of kind long_term under the long-term deal's number
    // (flows/decide-call-off.ts); its province and price type are the long-term deal's
    const longTermNo = `CQ${randomUUID().slice(0, 10)}`;
    await t.database.db.insert(longTermDeals).values({
      longTermNo,
      status: 'executing',
      sellerEnterpriseId: seller.enterprise.id,
      buyerEnterpriseId: buyer.enterprise.id,
      stockCode: first.order.stockCode,
      productName: '长协动力煤 5000',
      quality: {},
      priceType: 'delivered',
      transport: 'road',
      deliveryProvince: '内蒙古自治区',
      deliveryCity: '鄂尔多斯市',
      deliveryPlace: '准格尔旗集运站',
      periodStart: day.slice(0, 7),
      periodEnd: day.slice(0, 7),
      plannedKg: 3_000_000,
      pricing: {} as never,
      applyDeadline: day,
    });
    await t.database.db.insert(deals).values({
      dealNo: `CJ${randomUUID().slice(0, 10)}`,
      tradeKind: 'long_term',
      tradeNo: longTermNo,
      tradeType: 0,
      sourceId: 900_001,
      sellerEnterpriseId: seller.enterprise.id,
      buyerEnterpriseId: buyer.enterprise.id,
      stockCode: first.order.stockCode,
      productName: '长协动力煤 5000',
      quantityKg: 1_000_000,
      priceFen: 80_000,
      amountFen: 80_000_000,
      depositFen: 0,
      createdAt: t.clock.now(),
    });
    // two trucks signed for on the day (their own life is the delivery suite's; here only the figures count)
    // and a third disputed by the buyer and refused by the operator's ruling the same day
    for (const signedKg of [31_250, 29_980, 0]) {
      const disputed = signedKg === 0;
      await t.database.db.insert(dispatches).values({
        dispatchNo: `PC${randomUUID().slice(0, 12)}`,
        orderId,
        enterpriseId: first.order.buyerEnterpriseId,
        driverId: 1,
        driverName: '张师傅',
        driverMobile: '13800000000',
        driverIdCardNo: '110101199001011234',
        plateNo: '晋A12345',
        vehicleType: '重型半挂',
        ratedLoadKg: 35_000,
        plannedKg: 32_000,
        planDate: day,
        gateToken: randomUUID(),
        status: disputed ? 'refused' : 'signed',
        loadedNetKg: disputed ? 30_000 : signedKg,
        arrivedNetKg: disputed ? 26_000 : signedKg,
        ...(disputed
          ? { disputeReason: '亏吨超出合理途损', disputedAt: t.clock.now(), rulingNote: '拒收', ruledAt: t.clock.now() }
          : { signedKg, signedAt: t.clock.now(), signedHow: 'buyer' }),
        createdBy: first.operator.user.id,
      });
    }
  }, 240_000);

  afterAll(async () => {
    await t?.close();
  });

  it("the day's report equals sums computed here from the deal rows, the funds journal and the trucks of the day", async () => {
    t.clock.advance(DAY); // the day is past: the operator may make its report
    const operator = await signedIn(t.app, t.database.db, { role: 'operator' });
    const made = await post('/api/statistics/daily-reports', operator.token, { reportDate: day });
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json().result.alreadyMade).toBe(false);

    const [report] = await t.database.db.select().from(dailyReports).where(eq(dailyReports.reportDate, day));
    const figures = report!.figures as unknown as DailyReportFigures;

    const ofDay = (at: Date | null) => at !== null && shanghaiDate(at) === day;
    const dealRows = (await t.database.db.select().from(deals)).filter((d) => ofDay(d.createdAt));
    const journal = (await t.database.db.select().from(fundJournal)).filter((j) => ofDay(j.createdAt));
    const trucks = (await t.database.db.select().from(dispatches)).filter((d) => d.status === 'signed' && ofDay(d.signedAt));
    const sum = <T>(rows: T[], of: (r: T) => number) => rows.reduce((s, r) => s + of(r), 0);
    const journalSum = (kind: string, refType: string) => sum(journal.filter((j) => j.kind === kind && j.refType === refType), (j) => j.amount);

    expect(dealRows.length).toBe(3);
    expect(figures.summary.dealCount).toBe(dealRows.length);
    expect(figures.summary.quantityKg).toBe(sum(dealRows, (d) => d.quantityKg));
    expect(figures.summary.amountFen).toBe(sum(dealRows, (d) => d.amountFen));
    expect(figures.summary.activeEnterprises).toBe(new Set(dealRows.flatMap((d) => [d.sellerEnterpriseId, d.buyerEnterpriseId])).size);
    const listingRows = dealRows.filter((d) => d.tradeKind === 'listing');
    const listing = figures.byKind.find((k) => k.key === 'listing')!;
    expect(listing.label).toBe('挂牌');
    expect(listing.amountFen).toBe(sum(listingRows, (d) => d.amountFen));
    expect(figures.byKindProduct.reduce((s, r) => s + r.amountFen, 0)).toBe(sum(dealRows, (d) => d.amountFen));
    expect(figures.summary.fundsInFen).toBeGreaterThan(0);
    expect(figures.summary.fundsInFen).toBe(journalSum('credit', 'deposit_in'));
    expect(figures.summary.fundsOutFen).toBe(journalSum('debit_frozen', 'withdrawal'));
    expect(figures.summary.depositsFrozenFen).toBeGreaterThan(0);
    expect(figures.summary.depositsFrozenFen).toBe(journalSum('freeze', 'trade_deposit'));
    expect(figures.summary.depositsReleasedFen).toBe(journalSum('release', 'trade_deposit'));
    expect(trucks.length).toBe(2);
    expect(figures.summary.trucksSigned).toBe(trucks.length);
    expect(figures.summary.trucksSignedKg).toBe(sum(trucks, (d) => d.signedKg ?? 0));
    const allTrucks = await t.database.db.select().from(dispatches);
    const truckDisputes = figures.disputes.find((d) => d.key === 'truck')!;
    expect(truckDisputes.opened).toBe(allTrucks.filter((d) => ofDay(d.disputedAt)).length);
    expect(truckDisputes.ruled).toBe(allTrucks.filter((d) => ofDay(d.ruledAt)).length);
    expect(truckDisputes.opened).toBe(1);
    expect(figures.summary.disputesOpened).toBe(figures.disputes.reduce((s, d) => s + d.opened, 0));
    // both contracts took effect that day, within their sign deadline
    expect(figures.summary.contractsSigned).toBe(2);
    expect(figures.summary.contractsSignedOnTime).toBe(2);
    // province and price type come from the listing the deals were made on
    expect(figures.byProvince.reduce((s, r) => s + r.dealCount, 0)).toBe(3);
    const longTerm = figures.byKind.find((k) => k.key === 'long_term')!;
    expect(longTerm).toMatchObject({ label: '长协调运', dealCount: 1, quantityKg: 1_000_000, amountFen: 80_000_000, avgPriceFen: 80_000 });
    expect(figures.byProvince.find((r) => r.key === '内蒙古自治区')?.amountFen).toBe(80_000_000);
    expect(figures.byPriceType.find((r) => r.key === 'delivered')?.label).toBe('到厂价');
    expect(figures.byProvince.every((r) => r.label !== '未知')).toBe(true);
    expect(figures.byPriceType.every((r) => r.label !== '未知')).toBe(true);

    // the statistics route gives the same figures for the same day
    const stats = await get(`/api/statistics/overview?from=${day}&to=${day}&granularity=day`, operator.token);
    expect(stats.statusCode, stats.body).toBe(200);
    const answer = stats.json().result as StatisticsAnswer;
    expect(answer.summary).toEqual(figures.summary);
    expect(answer.byKind).toEqual(figures.byKind);
    expect(answer.byProduct).toEqual(figures.byProduct);

    // its files are archived, one pair, and open as a PDF and a workbook with numeric cells
    const files = await t.database.db.select().from(fileObjects).where(eq(fileObjects.scene, 'daily_report'));
    expect(files.map((f) => f.contentType).sort()).toEqual(['application/pdf', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet']);
    const pdf = await get(`/api/statistics/daily-reports/${report!.id}/pdf`, operator.token);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const xlsx = await get(`/api/statistics/daily-reports/${report!.id}/xlsx`, operator.token);
    expect(xlsx.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const detail = book.getWorksheet('成交明细')!;
    expect(detail.rowCount).toBeGreaterThan(1);
    const amountCells = detail.getColumn(5).values.slice(2);
    expect(amountCells.every((v) => typeof v === 'number')).toBe(true);
    expect(Math.round((amountCells as number[]).reduce((s, v) => s + v, 0) * 100)).toBe(sum(dealRows, (d) => d.amountFen));

    // listed with its maker; the audit trail has the make
    const list = await get('/api/statistics/daily-reports', operator.token);
    expect(list.json().result.records[0]).toMatchObject({ reportDate: day, dealCount: 3, pdfName: `交易日报_${day}.pdf` });
    expect(list.json().result.reportTime).toBe('23:59');
    const audit = await t.database.db.execute(sql`SELECT count(*)::int AS n FROM sys_audit_log WHERE action = '生成交易日报' AND result = 'success'`);
    expect((audit as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(1);
  });

  it('a day already made is not made again: the make answers with the archived report; concurrent makes leave one row and one pair of files', async () => {
    const operator = await signedIn(t.app, t.database.db, { role: 'operator' });
    const again = await post('/api/statistics/daily-reports', operator.token, { reportDate: day });
    expect(again.statusCode).toBe(200);
    expect(again.json().result.alreadyMade).toBe(true);
    expect(again.json().message).toContain('已生成过');

    // an earlier day, made by several at once: through this app and, on PostgreSQL, through a second connection
    // pool on the same database, as a second server process would
    const earlier = shanghaiDate(t.clock.now().getTime() - 3 * DAY);
    const other = kind === 'postgres' ? await secondPool(t) : null;
    try {
      const actor = { userId: operator.user.id, username: operator.user.username, role: 'operator' as const, enterpriseId: null, sessionId: 0 };
      const dbs = [t.app.db, other?.db ?? t.app.db, t.app.db, other?.db ?? t.app.db];
      const results = await Promise.all(dbs.map((db) => makeDailyReportOnDemand(db, t.app.storage, t.clock, actor, earlier)));
      expect(results.filter((r) => !r.alreadyMade)).toHaveLength(1);
      expect(new Set(results.map((r) => r.report.id)).size).toBe(1);
    } finally {
      await other?.close();
    }
    const rows = await t.database.db.select().from(dailyReports).where(eq(dailyReports.reportDate, earlier));
    expect(rows).toHaveLength(1);
    const files = await t.database.db.select().from(fileObjects).where(and(eq(fileObjects.scene, 'daily_report'), sql`${fileObjects.originalName} LIKE ${`%${earlier}%`}`));
    expect(files).toHaveLength(2);
  }, 120_000);

  it("the schedule makes the day's report once from the set time on", async () => {
    await t.database.db.delete(systemParameters).where(eq(systemParameters.code, 'daily_report_time')); // back to 17:30
    const now = t.clock.now();
    const today = shanghaiDate(now);
    const atTime = (hhmm: string) => new Date(`${today}T${hhmm}:00+08:00`);
    expect(await makeScheduledDailyReport(t.app.db, t.app.storage, atTime('17:29'))).toBeNull();
    const [a, b] = await Promise.all([makeScheduledDailyReport(t.app.db, t.app.storage, atTime('17:30')), makeScheduledDailyReport(t.app.db, t.app.storage, atTime('17:31'))]);
    expect([a, b].filter((r) => r && !r.alreadyMade)).toHaveLength(1);
    const rows = await t.database.db.select().from(dailyReports).where(eq(dailyReports.reportDate, today));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.madeBy).toBeNull();
    // the registered job asks no more once made
    t.clock.advance(atTime('18:00').getTime() - now.getTime());
    await runScheduledJobs(t.app);
    expect(await t.database.db.select().from(dailyReports).where(eq(dailyReports.reportDate, today))).toHaveLength(1);
  }, 120_000);

  it('grants: a trader is refused, the admin reads but cannot make; bad input is refused in Chinese', async () => {
    const trader = await tradingParty(t);
    const admin = await signedIn(t.app, t.database.db, { role: 'admin' });
    const operator = await signedIn(t.app, t.database.db, { role: 'operator' });
    const range = `from=${day}&to=${day}`;
    expect((await get(`/api/statistics/overview?${range}`, trader.adminToken)).statusCode).toBe(403);
    expect((await get(`/api/statistics/daily-reports`, trader.adminToken)).statusCode).toBe(403);
    expect((await post('/api/statistics/daily-reports', trader.adminToken, { reportDate: day })).statusCode).toBe(403);
    expect((await get(`/api/statistics/overview?${range}`, admin.token)).statusCode).toBe(200);
    expect((await get(`/api/statistics/export?${range}`, admin.token)).statusCode).toBe(200);
    expect((await get(`/api/statistics/daily-reports`, admin.token)).statusCode).toBe(200);
    expect((await post('/api/statistics/daily-reports', admin.token, { reportDate: day })).statusCode).toBe(403);

    const reversed = await get(`/api/statistics/overview?from=${day}&to=2020-01-01`, operator.token);
    expect(reversed.statusCode).toBe(400);
    expect(reversed.body).toContain('结束日期不能早于开始日期');
    const today = shanghaiDate(t.clock.now());
    const future = await post('/api/statistics/daily-reports', operator.token, { reportDate: today });
    expect(future.statusCode).toBe(422);
    expect(future.json().message).toContain('以前的日期');
  });

  it('the Excel export has numeric cells and the same totals as the page', async () => {
    const operator = await signedIn(t.app, t.database.db, { role: 'operator' });
    const from = shanghaiDate(t.clock.now().getTime() - 10 * DAY);
    const to = shanghaiDate(t.clock.now());
    const answer = (await get(`/api/statistics/overview?from=${from}&to=${to}&granularity=week`, operator.token)).json().result as StatisticsAnswer;
    expect(answer.trend.reduce((s, r) => s + r.amountFen, 0)).toBe(answer.summary.amountFen);
    const response = await get(`/api/statistics/export?from=${from}&to=${to}&granularity=week`, operator.token);
    expect(response.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const trend = book.worksheets[1]!;
    const amounts = trend.getColumn(4).values.slice(2);
    expect(amounts.length).toBe(answer.trend.length);
    expect(amounts.every((v) => typeof v === 'number')).toBe(true);
    expect(Math.round((amounts as number[]).reduce((s, v) => s + v, 0) * 100)).toBe(answer.summary.amountFen);
  });
});

/** A second connection pool on the test's PostgreSQL database: what a second server process would hold. */
async function secondPool(t: TestApp) {
  const result = await t.database.db.execute(sql`SELECT current_database() AS name`);
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${(result as unknown as { rows: { name: string }[] }).rows[0]!.name}`;
  return openPostgres(url.toString(), 4);
}
