import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalFileStorage } from '../../modules/files/storage';
import { reconcile } from '../../modules/funds/ledger';
import { loadPlatformCa } from '../../modules/ukey/ca';
import { openTestDatabase } from '../../test/test-app';
import type { Database } from '../client';
import { fundJournal, orders, settlementStatements } from '../schema/index';
import { loadDemoData } from './index';
import { loadDemoSettlement } from './settlement';

describe('demo settlement', () => {
  let database: Database;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-demo-settle-'));
  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    await loadPlatformCa({ dataDir: dir });
  }, 300_000);
  afterAll(async () => {
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('settles the demo order in 待结算: statement issued and confirmed in the past, money moved, order 已结算', async () => {
    const now = new Date();
    await loadDemoData(database.db, new LocalFileStorage(dir), now);
    const db = database.db;
    const before = await db.select().from(orders).where(eq(orders.status, 'awaiting_settlement'));
    expect(before).toHaveLength(1);
    const statement = await loadDemoSettlement(db, now);
    expect(statement).toMatchObject({ status: 'confirmed', orderId: before[0]!.id });
    expect(statement!.trucks).toHaveLength(14);
    const [order] = await db.select().from(orders).where(eq(orders.id, before[0]!.id));
    expect(order).toMatchObject({ status: 'settled', settlementNo: statement!.statementNo, escrowFen: 0 });
    const [row] = await db.select().from(settlementStatements).where(eq(settlementStatements.id, statement!.id));
    expect(row!.issuedAt.getTime()).toBeLessThan(now.getTime() - 11 * 24 * 3600_000);
    const moves = await db.select().from(fundJournal).where(eq(fundJournal.refId, String(statement!.id)));
    expect(moves.length).toBeGreaterThan(0);
    expect((await reconcile(db)).every((r) => r.balanced)).toBe(true);
    // a second call finds nothing left to settle
    expect(await loadDemoSettlement(db, now)).toBeNull();
  }, 300_000);
});
