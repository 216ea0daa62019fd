import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalFileStorage } from '../modules/files/storage';
import { reconcile } from '../modules/funds/ledger';
import { loadPlatformCa, type PlatformCa } from '../modules/ukey/ca';
import { platformCaVerifier } from '../modules/ukey/ukey.verifier';
import { openTestDatabase } from '../test/test-app';
import type { Database } from '../db/client';
import { fundJournal, orders, settlementStatements } from '../db/schema/index';
import { loadDemoData } from './index';
import { loadDemoSettlement } from './settlement';

describe('demo settlement', () => {
  let database: Database;
  let ca: PlatformCa;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-demo-settle-'));
  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    ca = await loadPlatformCa({ dataDir: dir });
  }, 300_000);
  afterAll(async () => {
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the demo data settles its delivered order: statement issued and confirmed in the past, money moved, order 已结算', async () => {
    const now = new Date();
    await loadDemoData(database.db, new LocalFileStorage(dir), ca, now);
    const db = database.db;
    // the spot order's statement (the long-term call-offs' statements are demo/long-term.ts's)
    const spotOrders = new Set((await db.select().from(orders)).filter((o) => o.tradeNo.startsWith('GP')).map((o) => o.id));
    const statements = (await db.select().from(settlementStatements)).filter((s) => spotOrders.has(s.orderId));
    expect(statements).toHaveLength(1);
    const statement = statements[0]!;
    expect(statement.status).toBe('confirmed');
    expect(statement.issuedAt.getTime()).toBeLessThan(now.getTime() - 11 * 24 * 3600_000);
    const [order] = await db.select().from(orders).where(eq(orders.id, statement.orderId));
    // settled, and then invoiced in part by demo/invoices.ts (still 已结算 with the rest to invoice)
    expect(order).toMatchObject({ status: 'settled', settlementNo: statement.statementNo, escrowFen: 0 });
    expect(order!.signedKg).toBeGreaterThan(0);
    const moves = await db.select().from(fundJournal).where(eq(fundJournal.refId, String(statement.id)));
    expect(moves.length).toBeGreaterThan(0);
    expect((await reconcile(db)).every((r) => r.balanced)).toBe(true);
    // a second call finds nothing left to settle
    expect(await loadDemoSettlement(db, platformCaVerifier(ca), now)).toBeNull();
  }, 300_000);
});
