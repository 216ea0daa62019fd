import type { ContractTerms } from '@coalx/shared';
import { afterAll, beforeAll, expect } from 'vitest';
import { drivers, type NewDriver } from '../db/schema/index';
import { gradientPng } from '../lib/simple-png';
import { findStoredFile } from '../modules/files/files.service';
import { loginAs, signedIn } from './factories';
import { multipart } from './multipart';
import { effectiveOrder, tradingParty, type TradingParty } from './order-factory';
import { createTestApp, type TestApp, type TestDatabaseKind } from './test-app';

const PNG = gradientPng(8, 8, [10, 20, 30], [200, 210, 220]);

export interface ReadyOrderOptions {
  /** kg the buyer takes (default 200 t) */
  quantityKg?: number;
  transportArranger?: ContractTerms['transportArranger'];
  weighingBasis?: ContractTerms['weighingBasis'];
  testingBasis?: ContractTerms['testingBasis'];
}

/** What a test may set on a driver it makes; the rest is made up, distinct per driver. */
export type DriverFields = Partial<Pick<NewDriver, 'name' | 'plateNo' | 'ratedLoadKg' | 'status'>>;

/**
 * The scene the delivery tests play in, for one describe block on one database: a test app, a seller, a buyer and an
 * outsider (trading parties with money) and an operator, made before its tests and closed after them; calls as any of
 * them, uploads, drivers, and paid orders ready for delivery.
 *
 * The app and the parties are handed out at once, so a test can name them in its describe block, and filled in
 * by `beforeAll`: use them inside hooks and tests only.
 */
export function deliveryFixture(kind: TestDatabaseKind) {
  const t = {} as TestApp;
  const seller = {} as TradingParty;
  const buyer = {} as TradingParty;
  const outsider = {} as TradingParty;
  /** the operator's token, and its username to sign in again */
  const operator = { token: '', username: '' };

  beforeAll(async () => {
    Object.assign(t, await createTestApp(kind));
    Object.assign(seller, await tradingParty(t));
    Object.assign(buyer, await tradingParty(t));
    Object.assign(outsider, await tradingParty(t));
    const signed = await signedIn(t.app, t.database.db, { role: 'operator' });
    operator.token = signed.token;
    operator.username = signed.user.username;
  }, 120_000);
  afterAll(async () => t.close?.());

  const db = () => t.database.db;

  /** Moves the clock and signs everyone in again (sessions end after 2 idle hours). */
  async function later(ms: number) {
    t.clock.advance(ms);
    await seller.refresh();
    await buyer.refresh();
    await outsider.refresh();
    operator.token = await loginAs(t.app, operator.username);
  }

  /** A call to the trading API (`url` below /trade-api/api) with the token. */
  const call = (method: 'GET' | 'POST', url: string, token: string, body?: object) =>
    t.app.inject({ method, url: `/trade-api/api${url}`, headers: { 'x-access-token': token }, ...(body ? { payload: body } : {}) });

  /** Uploads a small PNG as the token's user; returns the file's URL. */
  async function upload(token: string, name = 'upload.png'): Promise<string> {
    const { payload, headers } = multipart({ name, data: PNG });
    const response = await t.app.inject({ method: 'POST', url: '/trade-api/api/common/upload', payload, headers: { ...headers, 'x-access-token': token } });
    expect(response.statusCode).toBe(200);
    return response.json().result.url as string;
  }

  let driverSeq = 0;
  /** An approved driver of the party's enterprise (the drivers module registers them; the test inserts one). */
  async function driverOf(party: TradingParty, fields: DriverFields = {}) {
    const file = await findStoredFile(db(), await upload(party.traderToken, 'id.png'));
    const seq = ++driverSeq;
    const [row] = await db()
      .insert(drivers)
      .values({
        enterpriseId: party.enterprise.id,
        name: `李师傅${seq}`,
        idCardNo: `14010219900307${String(1000 + seq).slice(-4)}`,
        mobile: '13912345678',
        licenceNo: '140102199003071234',
        plateNo: `晋B${String(10_000 + seq).slice(-5)}`,
        vehicleType: 'heavy_semi_trailer',
        ratedLoadKg: 40_000,
        idCardFileId: file!.id,
        drivingLicenceFileId: file!.id,
        vehicleLicenceFileId: file!.id,
        status: 'approved',
        createdBy: party.trader.id,
        ...fields,
      })
      .returning();
    return row!;
  }

  /**
   * A paid order between the seller and the buyer (no prepayment: 待发货 at once; 0.2 % transit loss, 5 % quantity
   * tolerance; by default the seller transports, the buyer's scale and the seller's lab count), and a new approved
   * driver of the side that transports.
   */
  async function readyOrder(options: ReadyOrderOptions = {}, driver: DriverFields = {}) {
    const { order } = await effectiveOrder(t, {
      seller,
      buyer,
      quantityKg: options.quantityKg ?? 200_000,
      terms: {
        prepaymentPct: 0,
        transportArranger: options.transportArranger ?? 'seller',
        weighingBasis: options.weighingBasis ?? 'buyer',
        testingBasis: options.testingBasis ?? 'seller',
        transitLossPct: 0.2,
        quantityTolerancePct: 5,
      },
    });
    return { order, driver: await driverOf(options.transportArranger === 'buyer' ? buyer : seller, driver) };
  }

  return { t, seller, buyer, outsider, operator, db, later, call, upload, driverOf, readyOrder };
}
