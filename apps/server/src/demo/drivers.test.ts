import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { idCardProblem, plateProblem } from '@coalx/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { drivers, fileObjects } from '../db/schema/index';
import { LocalFileStorage } from '../modules/files/storage';
import { createEnterprise, createUser } from '../test/factories';
import { openTestDatabase } from '../test/test-app';
import { seedDemoDrivers } from './drivers';

describe('demo drivers', () => {
  let database: Database;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-demo-drivers-'));
  beforeAll(async () => {
    database = await openTestDatabase('pglite');
  });
  afterAll(async () => {
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("gives seller01's enterprise 4 approved and 1 pending driver and buyer01's 3 approved, each with three private photos", async () => {
    const db = database.db;
    const mine = await createEnterprise(db, { organName: '晋北煤业集团有限公司' });
    const plant = await createEnterprise(db, { organName: '华东电力燃料有限公司' });
    await createUser(db, { username: 'seller01', role: 'trader', enterpriseId: mine.id });
    await createUser(db, { username: 'buyer01', role: 'trader', enterpriseId: plant.id });
    await createUser(db, { username: 'operator', role: 'operator' });
    const storage = new LocalFileStorage(dir);

    expect(await seedDemoDrivers(db, storage, new Date('2026-03-02T02:00:00Z'))).toBe(8);
    const rows = await db.select().from(drivers);
    const of = (enterpriseId: number, status: string) => rows.filter((r) => r.enterpriseId === enterpriseId && r.status === status).length;
    expect([of(mine.id, 'approved'), of(mine.id, 'pending'), of(plant.id, 'approved'), of(plant.id, 'pending')]).toEqual([4, 1, 3, 0]);
    for (const row of rows) {
      expect(idCardProblem(row.idCardNo)).toBeNull();
      expect(plateProblem(row.plateNo)).toBeNull();
      for (const fileId of [row.idCardFileId, row.drivingLicenceFileId, row.vehicleLicenceFileId]) {
        const [file] = await db.select().from(fileObjects).where(eq(fileObjects.id, fileId));
        expect(file).toMatchObject({ visibility: 'private', contentType: 'image/png', ownerEnterpriseId: row.enterpriseId });
        const png = fs.readFileSync(path.join(dir, file!.storageKey));
        expect(png.subarray(1, 4).toString()).toBe('PNG');
        if (process.env.DRIVER_SHOTS) fs.copyFileSync(path.join(dir, file!.storageKey), path.join(process.env.DRIVER_SHOTS, file!.originalName));
      }
    }
  });
});
