import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '../../db/client';
import { auditJobs } from '../../jobs/audit.jobs';
import { startOpensslTsa, type TestTsa } from '../../test/openssl-tsa';
import { openTestDatabase, testDatabaseKinds } from '../../test/test-app';
import { chainAuditRows, chainedRowsAfter, chainHash, GENESIS_HASH } from './audit-chain';
import { readTimestampToken, sealAuditChain, sealImprint } from './audit-seal';
import { describeAuditVerification, exportAuditChain, verifyAuditTrail } from './audit-verify';
import { recordAudits, type AuditEntry } from './audit.service';

const README = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../README.md');

async function rows<Row>(db: Db, query: SQL): Promise<Row[]> {
  return ((await db.execute(query)) as unknown as { rows: Row[] }).rows;
}

/** The database's own refusal, whichever driver wrapped it. */
async function refusal(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (err) {
    const e = err as Error & { cause?: Error };
    return `${e.message} ${e.cause?.message ?? ''}`;
  }
  return 'not refused';
}

/** A day of the market as the trail records it: bids, listings, funds, refusals, and text of every kind. */
function marketDay(count: number, start = Date.parse('2026-03-02T01:00:00.000Z')): AuditEntry[] {
  const kinds = [
    { action: '出价', method: 'POST', route: '/trade-api/api/bidRecord/bid', objectType: '竞价' },
    { action: '挂牌审核通过', method: 'POST', route: '/trade-api/api/listing/audit', objectType: '挂牌' },
    { action: '出金申请', method: 'POST', route: '/trade-api/api/funds/withdraw', objectType: '出金' },
    { action: '签署合同', method: 'POST', route: '/trade-api/api/contract/:id/sign', objectType: '合同' },
    { action: '修改系统开关', method: 'PUT', route: '/trade-api/sys/switch/update', objectType: '系统开关' },
  ];
  return Array.from({ length: count }, (_, i): AuditEntry => {
    const kind = kinds[i % kinds.length]!;
    const refused = i % 7 === 3;
    return {
      ...kind,
      // milliseconds, and a microsecond part on some rows: the canonical text drops trailing zeros
      at: new Date(start + i * 61_001 + (i % 3 === 0 ? 0 : 120)),
      userId: 100 + (i % 4),
      username: ['zhangsan', '李四', "o'brien", 'wang"wu'][i % 4]!,
      enterpriseId: null,
      role: i % 2 ? '交易员' : '企业管理员',
      objectId: `JJ2026030200${String(i).padStart(2, '0')}`,
      changes: i % 5 === 4 ? { UkeySwitch: ['0', '1'] } : i % 5 === 0 ? { priceFen: [65000 + i, 65100 + i] } : null,
      body: { tradeId: `JJ2026030200${i}`, 备注: '动力煤 5500 大卡\n"港口"\\平仓 😀', amounts: [1.5, 2.50, 10], nested: { a: null, 中: true } },
      result: refused ? 'refused' : 'success',
      errorCode: refused ? 'bid_too_low' : '',
      statusCode: refused ? 422 : 200,
      ip: `10.0.0.${i % 250}`,
      requestId: `req-${i}`,
    };
  });
}

/** Changes rows behind the trigger, as only someone with the database's keys could, and puts the trigger back. */
async function behindTheTrigger(db: Db, table: 'sys_audit_log' | 'sys_audit_seal', statement: SQL) {
  await db.execute(sql.raw(`ALTER TABLE ${table} DISABLE TRIGGER ALL`));
  try {
    await db.execute(statement);
  } finally {
    await db.execute(sql.raw(`ALTER TABLE ${table} ENABLE TRIGGER ALL`));
  }
}

let tsa: TestTsa;
beforeAll(async () => {
  tsa = await startOpensslTsa();
});
afterAll(async () => tsa?.close());

describe.each(testDatabaseKinds())('audit chain on %s', (kind) => {
  let database: Database;
  let db: Db;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    db = database.db;
  });
  afterAll(async () => database?.close());

  const chainOf = () => rows<{ id: number; chain_seq: number | null; hash: string | null }>(db, sql`SELECT id, chain_seq, hash FROM sys_audit_log ORDER BY id`);

  it('chains every row once, in id order, from 64 zeros, and the chain verifies', async () => {
    await recordAudits(db, marketDay(60));
    expect((await chainOf()).every((r) => r.chain_seq === null && r.hash === null)).toBe(true);
    expect(await chainAuditRows(db)).toBe(60);
    expect(await chainAuditRows(db)).toBe(0);

    const chain = await chainOf();
    expect(chain.map((r) => Number(r.chain_seq))).toEqual(chain.map((_, i) => i + 1));
    // the first row by the README's formula: SHA-256 over 64 zeros and its canonical text in UTC
    const [first] = await rows<{ canonical: string }>(
      db,
      sql`SELECT (to_jsonb(l) - 'chain_seq' - 'hash')::text AS canonical FROM sys_audit_log l WHERE chain_seq = 1`,
    );
    expect(first!.canonical).toMatch(/^\{"at": "2026-03-02T01:00:00\+00:00", "id": \d+, "ip": "10\.0\.0\.0", /);
    expect(chain[0]!.hash).toBe(createHash('sha256').update(GENESIS_HASH + first!.canonical).digest('hex'));
    expect(chainHash(chain[0]!.hash!, 'x')).toBe(createHash('sha256').update(`${chain[0]!.hash}x`).digest('hex'));

    // more rows continue the chain
    await recordAudits(db, marketDay(5, Date.parse('2026-03-02T06:00:00Z')));
    expect(await chainAuditRows(db)).toBe(5);
    const verification = await verifyAuditTrail(db);
    expect(verification).toMatchObject({ ok: true, firstProblem: null, chain: { rows: 65, chained: 65, unchained: 0, brokenCount: 0, head: { chainSeq: 65 } } });
    expect(describeAuditVerification(verification)).toContain('结论: 通过');
  });

  it("does not depend on the session's time zone", async () => {
    // PGlite has one session, so this is the session the next chaining and verification run in
    await db.execute(sql`SET TimeZone = 'Asia/Shanghai'`);
    try {
      await recordAudits(db, marketDay(2, Date.parse('2026-03-02T06:30:00Z')));
      expect(await chainAuditRows(db)).toBe(2);
      expect((await verifyAuditTrail(db)).ok).toBe(true);
    } finally {
      await db.execute(sql`RESET TimeZone`);
    }
    expect((await verifyAuditTrail(db)).ok).toBe(true);
  });

  it('lets only the empty chain columns be filled, once, and refuses every other change', async () => {
    const [chained] = await chainOf();
    for (const statement of [
      sql`UPDATE sys_audit_log SET username = 'someone' WHERE id = ${chained!.id}`,
      sql`UPDATE sys_audit_log SET hash = ${GENESIS_HASH} WHERE id = ${chained!.id}`,
      sql`UPDATE sys_audit_log SET chain_seq = NULL, hash = NULL WHERE id = ${chained!.id}`,
      sql`DELETE FROM sys_audit_log WHERE id = ${chained!.id}`,
      sql`TRUNCATE sys_audit_log`,
    ]) {
      expect(await refusal(db.execute(statement))).toContain('append-only');
    }
    await recordAudits(db, marketDay(1, Date.parse('2026-03-02T07:00:00Z')));
    const waiting = (await chainOf()).at(-1)!;
    expect(waiting.chain_seq).toBeNull();
    expect(await refusal(db.execute(sql`UPDATE sys_audit_log SET username = 'someone' WHERE id = ${waiting.id}`))).toContain('append-only');
    expect(
      await refusal(db.execute(sql`UPDATE sys_audit_log SET chain_seq = 999, hash = ${GENESIS_HASH}, action = '别的' WHERE id = ${waiting.id}`)),
    ).toContain('append-only');
    expect(await chainAuditRows(db)).toBe(1);
    expect((await verifyAuditTrail(db)).ok).toBe(true);
  });

  it('names a row changed behind the trigger, a row removed, and a changed row whose hash was recomputed', async () => {
    const chain = await chainOf();
    const victim = chain[9]!;
    const [original] = await rows<{ username: string }>(db, sql`SELECT username FROM sys_audit_log WHERE id = ${victim.id}`);
    await behindTheTrigger(db, 'sys_audit_log', sql`UPDATE sys_audit_log SET username = '某人' WHERE id = ${victim.id}`);
    let verification = await verifyAuditTrail(db);
    expect(verification.ok).toBe(false);
    expect(verification.chain.brokenCount).toBe(1);
    expect(verification.chain.broken[0]).toMatchObject({ id: victim.id, chainSeq: 10 });
    expect(verification.firstProblem).toContain(`记录 id=${victim.id} (第 10 号)`);
    expect(describeAuditVerification(verification)).toContain(`结论: 不通过。第一处不符: 记录 id=${victim.id}`);
    await behindTheTrigger(db, 'sys_audit_log', sql`UPDATE sys_audit_log SET username = ${original!.username} WHERE id = ${victim.id}`);
    expect((await verifyAuditTrail(db)).ok).toBe(true);

    // removed: the row after the gap is named
    const [saved] = await rows<{ row: unknown }>(db, sql`SELECT to_jsonb(l) AS row FROM sys_audit_log l WHERE id = ${victim.id}`);
    await behindTheTrigger(db, 'sys_audit_log', sql`DELETE FROM sys_audit_log WHERE id = ${victim.id}`);
    verification = await verifyAuditTrail(db);
    expect(verification.chain.broken).toEqual([{ id: chain[10]!.id, chainSeq: 11, reason: expect.stringContaining('缺少第 10 号') }]);
    await db.execute(sql`INSERT INTO sys_audit_log SELECT * FROM jsonb_populate_record(NULL::sys_audit_log, ${JSON.stringify(saved!.row)}::jsonb)`);
    expect((await verifyAuditTrail(db)).ok).toBe(true);

    // changed with its hash recomputed: the next row no longer links to it
    const [canonical] = await rows<{ text: string }>(
      db,
      sql`SELECT (to_jsonb(l) - 'chain_seq' - 'hash' || '{"username": "某人"}'::jsonb)::text AS text FROM sys_audit_log l WHERE id = ${victim.id}`,
    );
    const forged = chainHash(chain[8]!.hash!, canonical!.text);
    await behindTheTrigger(db, 'sys_audit_log', sql`UPDATE sys_audit_log SET username = '某人', hash = ${forged} WHERE id = ${victim.id}`);
    verification = await verifyAuditTrail(db);
    expect(verification.chain.broken.map((r) => r.id)).toEqual([chain[10]!.id]);
    await behindTheTrigger(db, 'sys_audit_log', sql`UPDATE sys_audit_log SET username = ${original!.username}, hash = ${victim.hash} WHERE id = ${victim.id}`);
    expect((await verifyAuditTrail(db)).ok).toBe(true);
  });

  it('gives the README export the same canonical texts, and the auditor recomputes the same hashes', async () => {
    const readme = fs.readFileSync(README, 'utf8');
    const line = readme.split('\n').find((l) => l.startsWith('\\copy (SELECT l.chain_seq'))!;
    const query = line.slice('\\copy ('.length, line.lastIndexOf(') TO '));
    const exported = await db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL TimeZone = 'UTC'`);
      return ((await tx.execute(sql.raw(query))) as unknown as { rows: { chain_seq: number; id: number; hash: string; canonical: string }[] }).rows;
    });
    let previous = GENESIS_HASH;
    for (const [i, row] of exported.entries()) {
      expect(Number(row.chain_seq)).toBe(i + 1);
      previous = createHash('sha256').update(previous + row.canonical, 'utf8').digest('hex');
      expect(row.hash).toBe(previous);
    }
    expect(exported.length).toBe((await chainOf()).length);

    // --export writes the same rows as PostgreSQL's CSV, which the README's Python reads
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-audit-export-'));
    try {
      expect(await exportAuditChain(db, folder)).toEqual({ rows: exported.length, seals: 0 });
      const python = readme.slice(readme.indexOf('```python\n') + '```python\n'.length, readme.indexOf('```', readme.indexOf('```python\n') + 10));
      const out = execFileSync('python3', ['-c', python], { cwd: folder, encoding: 'utf8' });
      expect(out).toContain(`通过: ${exported.length} 条, 链头 ${previous}`);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('covers a column added later from the next row on, and still verifies the rows chained before it', async () => {
    await db.execute(sql`ALTER TABLE sys_audit_log ADD COLUMN chain_test_note text NOT NULL DEFAULT '旧'`);
    expect((await verifyAuditTrail(db)).ok).toBe(true);
    await recordAudits(db, marketDay(3, Date.parse('2026-03-02T08:00:00Z')));
    expect(await chainAuditRows(db)).toBe(3);
    const stretches = await rows<{ from_chain_seq: number; columns: string[] | string }>(db, sql`SELECT from_chain_seq, columns FROM sys_audit_chain_columns ORDER BY from_chain_seq`);
    expect(stretches.length).toBe(2);
    expect(String(stretches[1]!.columns)).toContain('chain_test_note');
    expect(String(stretches[0]!.columns)).not.toContain('chain_test_note');
    expect((await verifyAuditTrail(db)).ok).toBe(true);

    const newest = (await chainOf()).at(-1)!;
    await behindTheTrigger(db, 'sys_audit_log', sql`UPDATE sys_audit_log SET chain_test_note = '新' WHERE id = ${newest.id}`);
    expect((await verifyAuditTrail(db)).chain.broken.map((r) => r.id)).toEqual([newest.id]);
    await behindTheTrigger(db, 'sys_audit_log', sql`UPDATE sys_audit_log SET chain_test_note = '旧' WHERE id = ${newest.id}`);
    expect((await verifyAuditTrail(db)).ok).toBe(true);
  });

  it('seals the head with a real RFC 3161 authority; the token verifies, and a tampered token does not', async () => {
    await recordAudits(db, marketDay(2, Date.parse('2026-03-02T09:00:00Z')));
    const seal = (await sealAuditChain(db, tsa.url, new Date()))!;
    const chain = await chainOf();
    expect(chain.every((r) => r.chain_seq !== null)).toBe(true); // sealing chains what waits first
    expect(seal).toMatchObject({ chainSeq: chain.length, headHash: chain.at(-1)!.hash, tsaUrl: tsa.url, dailyFor: null });
    const info = readTimestampToken(seal.token);
    expect(Buffer.from(info.imprint).toString('hex')).toBe(Buffer.from(sealImprint(seal.headHash)).toString('hex'));
    expect(Math.abs(info.genTime.getTime() - Date.now())).toBeLessThan(60_000);

    let verification = await verifyAuditTrail(db, { tsaCaFile: tsa.caFile });
    expect(verification).toMatchObject({ ok: true, signaturesChecked: true });
    expect(verification.seals.map((s) => s.problems)).toEqual([[]]);
    expect(describeAuditVerification(verification)).toContain('封存 (RFC 3161 时间戳): 1 次，通过 1 次');

    // one bit of the signature (the token's last byte): the imprint still matches, openssl refuses the signature
    const flipLastByte = sql`UPDATE sys_audit_seal SET token = set_byte(token, length(token) - 1, get_byte(token, length(token) - 1) # 1) WHERE id = ${seal.id}`;
    await behindTheTrigger(db, 'sys_audit_seal', flipLastByte);
    verification = await verifyAuditTrail(db, { tsaCaFile: tsa.caFile });
    expect(verification.ok).toBe(false);
    expect(verification.firstProblem).toContain(`封存 #${seal.id}`);
    expect(verification.seals[0]!.problems.join()).toContain('时间戳签名核验失败');
    expect((await verifyAuditTrail(db)).ok).toBe(true); // without the CA only the imprint is compared
    await behindTheTrigger(db, 'sys_audit_seal', flipLastByte);
    expect((await verifyAuditTrail(db, { tsaCaFile: tsa.caFile })).ok).toBe(true);

    // a head hash changed with the seal: neither the chain nor the token agrees with it
    await behindTheTrigger(db, 'sys_audit_seal', sql`UPDATE sys_audit_seal SET head_hash = ${GENESIS_HASH} WHERE id = ${seal.id}`);
    verification = await verifyAuditTrail(db);
    expect(verification.seals[0]!.problems).toEqual([expect.stringContaining('封存的链头哈希与现在'), '时间戳令牌的摘要与封存的链头哈希不符']);
    await behindTheTrigger(db, 'sys_audit_seal', sql`UPDATE sys_audit_seal SET head_hash = ${seal.headHash} WHERE id = ${seal.id}`);
    expect(await refusal(db.execute(sql`DELETE FROM sys_audit_seal WHERE id = ${seal.id}`))).toContain('append-only');
  });

  it('seals once per Asia/Shanghai day from the configured hour; without TSA_URL only chains', async () => {
    expect(auditJobs({ tsaUrl: null, auditSealHour: 0 }).map((j) => j.name)).toEqual(['audit.chain']);
    const jobs = auditJobs({ tsaUrl: tsa.url, auditSealHour: 9 });
    const round = async (iso: string) => {
      for (const job of jobs) await job.run(db, new Date(iso));
    };
    const dailySeals = () => rows<{ daily_for: string }>(db, sql`SELECT daily_for::text AS daily_for FROM sys_audit_seal WHERE daily_for IS NOT NULL ORDER BY id`);
    const asked = tsa.requests;
    await recordAudits(db, marketDay(1, Date.parse('2030-01-01T00:00:00Z')));
    await round('2030-01-01T00:30:00Z'); // 08:30 in Shanghai
    expect(await dailySeals()).toEqual([]);
    expect((await chainOf()).at(-1)!.chain_seq).not.toBeNull(); // chained all the same
    await round('2030-01-01T01:10:00Z'); // 09:10
    await round('2030-01-01T01:20:00Z');
    await round('2030-01-01T15:59:00Z'); // 23:59, still the 1st
    expect(await dailySeals()).toEqual([{ daily_for: '2030-01-01' }]);
    await round('2030-01-02T01:00:00Z'); // 09:00 on the 2nd
    expect(await dailySeals()).toEqual([{ daily_for: '2030-01-01' }, { daily_for: '2030-01-02' }]);
    expect(tsa.requests - asked).toBe(2);
    // another process's job (its own memory) finds the day sealed and asks no one
    await auditJobs({ tsaUrl: tsa.url, auditSealHour: 9 })[1]!.run(db, new Date('2030-01-02T02:00:00Z'));
    expect(tsa.requests - asked).toBe(2);
    expect((await verifyAuditTrail(db, { tsaCaFile: tsa.caFile })).ok).toBe(true);
  });

  it('a chain rewritten from a row on, every hash recomputed, passes row by row but not its seals', async () => {
    const chain = await chainOf();
    const victim = chain[4]!;
    await behindTheTrigger(db, 'sys_audit_log', sql`UPDATE sys_audit_log SET username = '某人' WHERE id = ${victim.id}`);
    // the forger recomputes every hash from the changed row on
    await db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL TimeZone = 'UTC'`);
      await tx.execute(sql`ALTER TABLE sys_audit_log DISABLE TRIGGER ALL`);
      // the canonical texts as the verification makes them (the rows before chain_test_note leave it out)
      const texts = ((await tx.execute(chainedRowsAfter(4, 100_000))) as unknown as { rows: { id: number; canonical: string }[] }).rows;
      let previous = chain[3]!.hash!;
      for (const row of texts) {
        previous = chainHash(previous, row.canonical);
        await tx.execute(sql`UPDATE sys_audit_log SET hash = ${previous} WHERE id = ${row.id}`);
      }
      await tx.execute(sql`ALTER TABLE sys_audit_log ENABLE TRIGGER ALL`);
    });
    const verification = await verifyAuditTrail(db, { tsaCaFile: tsa.caFile });
    expect(verification.chain.brokenCount).toBe(0);
    expect(verification.ok).toBe(false);
    expect(verification.seals.every((s) => s.problems[0]?.includes('封存的链头哈希与现在'))).toBe(true);
    expect(verification.firstProblem).toMatch(/^封存 #\d+/);
  });
});

// the same rows give the same canonical texts and hashes on both databases
describe.runIf(testDatabaseKinds().length > 1)('audit chain across databases', () => {
  it('is byte-identical on PGlite and PostgreSQL', async () => {
    const chains: unknown[] = [];
    for (const kind of testDatabaseKinds()) {
      const database = await openTestDatabase(kind);
      try {
        await recordAudits(database.db, marketDay(25));
        await chainAuditRows(database.db);
        chains.push(await rows(database.db, sql`SELECT chain_seq::int, hash FROM sys_audit_log ORDER BY chain_seq`));
      } finally {
        await database.close();
      }
    }
    expect((chains[0] as unknown[]).length).toBe(25);
    expect(chains[1]).toEqual(chains[0]);
  });
});
