import 'reflect-metadata';
import { createHash, webcrypto } from 'node:crypto';
import fs from 'node:fs';
import * as x509 from '@peculiar/x509';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ukeyCertificates, ukeyChallenges, ukeyDevices } from '../../db/schema/index';
import { createUser, loginAs, signedIn } from '../../test/factories';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';
import { creditThroughDepositIn, fundedEnterprise, newRequestId, operatorActor } from '../funds/funds.test-helpers';
import { createProduct, post } from '../listing/listing.test-helpers';
import { auctionInput } from '../auction/auction.test-helpers';
import { eventBusOf } from '../../lib/events';
import { newDeviceKey, signAction, type TestKey } from './ukey.test-helpers';

const DAY = 86400_000;
const payHash = (clientId: string, digits: string) => createHash('sha256').update(`${clientId}:${digits}`).digest('hex');

describe.each(testDatabaseKinds())('key devices and signatures on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  const call = (url: string, token: string, payload?: object) =>
    t.app.inject({ method: 'POST', url: `/trade-api${url}`, headers: { 'x-access-token': token }, payload: payload ?? {} });
  const setSwitch = async (code: string, content: '0' | '1') => {
    const admin = await signedIn(t.app, t.database.db, { role: 'admin' });
    const r = await t.app.inject({ method: 'PUT', url: '/trade-api/sys/switch/update', headers: { 'x-access-token': admin.token }, payload: { code, content } });
    expect(r.statusCode, r.body).toBe(200);
  };
  const devicesOf = async (enterpriseId: number) => t.database.db.select().from(ukeyDevices).where(eq(ukeyDevices.enterpriseId, enterpriseId));

  /** An audited, funded enterprise: its admin (with a pay password) and one trader. */
  async function enterprise() {
    const admin = await fundedEnterprise(t.app, t.database.db);
    await creditThroughDepositIn(t.database.db, t.clock, admin.actor, await operatorActor(t.database.db), 100_000_000);
    const payPassword = payHash(admin.enterprise.clientId, '135790');
    expect((await call('/api/funds/payPassword/set', admin.token, { password: payPassword })).statusCode).toBe(200);
    const traderUser = await createUser(t.database.db, { role: 'trader', enterpriseId: admin.enterprise.id });
    const trader = { user: traderUser, token: await loginAs(t.app, traderUser.username) };
    return { ...admin, payPassword, trader };
  }

  /** A trader's request approved by the admin: the device id and its key. */
  async function issuedTraderDevice(e: Awaited<ReturnType<typeof enterprise>>): Promise<{ deviceId: number; key: TestKey }> {
    const key = await newDeviceKey();
    const applied = await call('/api/ukey/device/apply', e.trader.token, { deviceName: '交易员办公电脑', csr: key.csr });
    expect(applied.statusCode, applied.body).toBe(200);
    const deviceId = applied.json().result.id as number;
    expect((await call('/api/ukey/device/approve', e.token, { deviceId })).statusCode).toBe(200);
    return { deviceId, key };
  }

  it('a trader applies, the enterprise admin approves, the CA issues a one-year signing certificate', async () => {
    const e = await enterprise();
    const key = await newDeviceKey();
    const applied = await call('/api/ukey/device/apply', e.trader.token, { deviceName: '交易员办公电脑', csr: key.csr });
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json().result.status).toBe('pending');
    const deviceId = applied.json().result.id;

    // a trader cannot approve, not even their own request
    expect((await call('/api/ukey/device/approve', e.trader.token, { deviceId })).statusCode).toBe(403);
    const issuedEvents: number[] = [];
    const stop = eventBusOf(t.database.db).on('ukey.device_issued', ({ id }) => void issuedEvents.push(id));
    const approved = await call('/api/ukey/device/approve', e.token, { deviceId });
    stop();
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().result.status).toBe('active');
    expect(issuedEvents).toEqual([deviceId]);
    expect((await call('/api/ukey/device/approve', e.token, { deviceId })).statusCode).toBe(409);

    const list = (await call('/api/ukey/device/query', e.trader.token)).json().result;
    const device = list.records.find((d: { id: number }) => d.id === deviceId);
    expect(device).toMatchObject({ name: '交易员办公电脑', status: 'active', mine: true, lastUsedAt: null });
    expect(device.certificate).toMatchObject({ status: 'valid' });
    expect(device.certificate.subject).toContain(e.enterprise.organName);
    expect(device.certificate.subject).toContain(`统一社会信用代码=${e.enterprise.creditCode}`);
    expect(device.certificate.subject).toContain(e.trader.user.username);
    expect(device.certificate.issuer).toContain('CoalX 平台数字证书根 CA');
    expect(device.certificate.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(list.canApprove).toBe(false);

    // the certificate itself: chains to the CA file on disk, one year, signing key usages, the browser's key
    const [row] = await t.database.db.select().from(ukeyCertificates).where(eq(ukeyCertificates.deviceId, deviceId));
    const cert = new x509.X509Certificate(Buffer.from(row!.der, 'base64'));
    const caCert = new x509.X509Certificate(fs.readFileSync(t.config.caCertFile!, 'utf8'));
    expect(await cert.verify({ publicKey: caCert.publicKey, signatureOnly: true }, webcrypto)).toBe(true);
    expect(cert.notAfter.getTime() - cert.notBefore.getTime()).toBe(365 * DAY);
    const usage = cert.getExtension(x509.KeyUsagesExtension)!;
    expect(usage.usages).toBe(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation);
    const spki = Buffer.from(await webcrypto.subtle.exportKey('spki', key.keys.publicKey));
    expect(Buffer.from(cert.publicKey.rawData).equals(spki)).toBe(true);

    const certs = (await call('/api/ukey/certificate/query', e.token, { deviceId })).json().result;
    expect(certs).toHaveLength(1);
    expect(certs[0].serialNumber).toBe(cert.serialNumber);
  });

  it("the admin's own request is issued at once with the pay password, and refused without it (nothing stored)", async () => {
    const e = await enterprise();
    const key = await newDeviceKey();
    const without = await call('/api/ukey/device/apply', e.token, { deviceName: '管理员电脑', csr: key.csr });
    expect(without.statusCode).toBe(422);
    expect(without.json().message).toContain('支付密码');
    const wrong = await call('/api/ukey/device/apply', e.token, { deviceName: '管理员电脑', csr: key.csr, payPassword: payHash(e.enterprise.clientId, '000000') });
    expect(wrong.json().message).toContain('支付密码错误');
    expect(await devicesOf(e.enterprise.id)).toHaveLength(0);
    const right = await call('/api/ukey/device/apply', e.token, { deviceName: '管理员电脑', csr: key.csr, payPassword: e.payPassword });
    expect(right.statusCode, right.body).toBe(200);
    expect(right.json().result.status).toBe('active');
  });

  it('a malformed or forged certificate request is refused with 400 and nothing is stored', async () => {
    const e = await enterprise();
    const bad = await call('/api/ukey/device/apply', e.trader.token, { deviceName: '电脑', csr: 'bm90IGEgY3Ny' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('证书请求');
    const notBase64 = await call('/api/ukey/device/apply', e.trader.token, { deviceName: '电脑', csr: '<script>' });
    expect(notBase64.statusCode).toBe(400);
    // a request whose signature does not match its key (a byte of the signature changed)
    const key = await newDeviceKey();
    const der = Buffer.from(key.csr, 'base64');
    der.writeUInt8(der.readUInt8(der.length - 5) ^ 0x01, der.length - 5);
    const forged = await call('/api/ukey/device/apply', e.trader.token, { deviceName: '电脑', csr: der.toString('base64') });
    expect(forged.statusCode).toBe(400);
    expect(await devicesOf(e.enterprise.id)).toHaveLength(0);
  });

  it('with UkeySwitch on, a withdrawal goes through with a valid signature and is refused without, replayed or altered', async () => {
    const e = await enterprise();
    const { deviceId, key } = await issuedTraderDevice(e);
    await setSwitch('UkeySwitch', '1');
    try {
      const body = { amount: 12_345, remark: '', requestId: newRequestId() };
      const missing = await call('/api/funds/withdraw/apply', e.trader.token, body);
      expect(missing.statusCode).toBe(422);
      expect(missing.json().message).toContain('UKey');

      const ukeySignature = await signAction(call, e.trader.token, key, deviceId, 'withdrawal', body);
      const done = await call('/api/funds/withdraw/apply', e.trader.token, { ...body, ukeySignature });
      expect(done.statusCode, done.body).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: '/trade-api/api/fundinfo/getFundInfo', headers: { 'x-access-token': e.token } })).json().result.withdrawalFrozen).toBe(12_345);
      const [device] = await t.database.db.select().from(ukeyDevices).where(eq(ukeyDevices.id, deviceId));
      expect(device!.lastUsedAt).not.toBeNull();

      // the same signature for another withdrawal: the challenge is spent
      const replay = await call('/api/funds/withdraw/apply', e.trader.token, { ...body, requestId: newRequestId(), ukeySignature });
      expect(replay.statusCode).toBe(422);
      expect(replay.json().message).toContain('已使用');

      // signed for ¥123.45, sent for ¥9,999.99: the payload hash differs
      const other = { amount: 12_345, remark: '', requestId: newRequestId() };
      const signed = await signAction(call, e.trader.token, key, deviceId, 'withdrawal', other);
      const altered = await call('/api/funds/withdraw/apply', e.trader.token, { ...other, amount: 999_999, ukeySignature: signed });
      expect(altered.statusCode).toBe(422);
      expect(altered.json().message).toContain('不一致');

      // a signature made by another key over the right challenge
      const stranger = await newDeviceKey();
      const wrongKey = await signAction(call, e.trader.token, stranger, deviceId, 'withdrawal', other);
      const refused = await call('/api/funds/withdraw/apply', e.trader.token, { ...other, ukeySignature: wrongKey });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().message).toContain('验证未通过');

      // a challenge older than 5 minutes
      const late = await signAction(call, e.trader.token, key, deviceId, 'withdrawal', other);
      t.clock.advance(5 * 60 * 1000 + 1000);
      const expired = await call('/api/funds/withdraw/apply', e.trader.token, { ...other, ukeySignature: late });
      expect(expired.json().message).toContain('5 分钟');

      // malformed signatures: 4xx, nothing moves
      const [challengeId, , raw] = ukeySignature.split('.');
      for (const bad of ['sig', `${challengeId}.${deviceId}.${raw!.slice(0, 20)}`]) {
        const r = await call('/api/funds/withdraw/apply', e.trader.token, { ...other, ukeySignature: bad });
        expect(r.statusCode).toBeGreaterThanOrEqual(400);
        expect(r.statusCode).toBeLessThan(500);
      }
      expect((await t.app.inject({ method: 'GET', url: '/trade-api/api/fundinfo/getFundInfo', headers: { 'x-access-token': e.token } })).json().result.withdrawalFrozen).toBe(12_345);
    } finally {
      await setSwitch('UkeySwitch', '0');
    }
  });

  it('with UkeySwitch on, an auction enrolment goes through with a valid signature and is refused without', async () => {
    const stockCode = await createProduct(t.database.db);
    const operator = await signedIn(t.app, t.database.db, { role: 'operator' });
    const seller = await fundedEnterprise(t.app, t.database.db);
    const created = await post(t.app, '/api/bidApply', seller.token, auctionInput(stockCode, t.clock.now()));
    const tradeId = created.json().result.tradeId as string;
    expect((await post(t.app, '/api/auction/audit/approve', operator.token, { tradeId })).statusCode).toBe(200);
    const e = await enterprise();
    const { deviceId, key } = await issuedTraderDevice(e);
    await setSwitch('UkeySwitch', '1');
    try {
      const body = { tradeId, acceptRules: true, requestId: newRequestId() };
      const unsigned = await call('/api/bidEnroll/add', e.trader.token, body);
      expect(unsigned.statusCode).toBe(422);
      const ukeySignature = await signAction(call, e.trader.token, key, deviceId, 'auction_enrol', body);
      const enrolled = await call('/api/bidEnroll/add', e.trader.token, { ...body, ukeySignature });
      expect(enrolled.statusCode, enrolled.body).toBe(200);
    } finally {
      await setSwitch('UkeySwitch', '0');
    }
  });

  it('refuses a device of another enterprise or another user, a revoked, an expired and a foreign-CA certificate', async () => {
    const e = await enterprise();
    const other = await enterprise();
    const mine = await issuedTraderDevice(e);
    const payload = { amount: 100, remark: '', requestId: newRequestId() };
    const { verifyActionSignature } = await import('./ukey.service');
    const actorOf = (userId: number, enterpriseId: number, role: 'trader' | 'enterprise_admin' = 'trader') => ({ userId, username: 'x', role, enterpriseId, sessionId: 0 });
    const traderActor = actorOf(e.trader.user.id, e.enterprise.id);
    const verify = (token: string, actor: ReturnType<typeof actorOf>, device: { deviceId: number; key: TestKey }) =>
      signAction(call, token, device.key, device.deviceId, 'withdrawal', payload).then((signature) =>
        verifyActionSignature(t.database.db, t.clock, t.app.platformCa, actor, { action: 'withdrawal', payload, signature }),
      );

    // another enterprise's trader presenting our device: not found for them
    await expect(verify(other.trader.token, actorOf(other.trader.user.id, other.enterprise.id), mine)).rejects.toMatchObject({ status: 404 });
    // the enterprise admin (same enterprise, other user) cannot sign with the trader's key
    await expect(verify(e.token, actorOf(e.user.id, e.enterprise.id, 'enterprise_admin'), mine)).rejects.toMatchObject({ status: 403 });
    // the owner can
    await expect(verify(e.trader.token, traderActor, mine)).resolves.toMatchObject({ serialNumber: expect.any(String) });

    // a certificate made by another CA, stored as if it were ours
    const foreignCaKeys = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
    const foreign = await x509.X509CertificateGenerator.create(
      {
        serialNumber: '0a0b0c0d',
        subject: 'CN=冒名证书',
        issuer: t.app.platformCa.certificate.subject,
        publicKey: mine.key.keys.publicKey,
        signingKey: foreignCaKeys.privateKey,
        signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
        notBefore: t.clock.now(),
        notAfter: new Date(t.clock.now().getTime() + 30 * DAY),
      },
      webcrypto,
    );
    const [real] = await t.database.db.select().from(ukeyDevices).where(eq(ukeyDevices.id, mine.deviceId));
    const [fake] = await t.database.db
      .insert(ukeyCertificates)
      .values({ deviceId: mine.deviceId, enterpriseId: e.enterprise.id, userId: e.trader.user.id, serialNumber: '0a0b0c0d', subject: 'x', issuer: 'x', notBefore: foreign.notBefore, notAfter: foreign.notAfter, fingerprint: '00'.repeat(32), keyId: 'x', der: Buffer.from(foreign.rawData).toString('base64') })
      .returning();
    await t.database.db.update(ukeyDevices).set({ currentCertificateId: fake!.id }).where(eq(ukeyDevices.id, mine.deviceId));
    await expect(verify(e.trader.token, traderActor, mine)).rejects.toThrow('不是本平台 CA 签发');
    await t.database.db.update(ukeyDevices).set({ currentCertificateId: real!.currentCertificateId }).where(eq(ukeyDevices.id, mine.deviceId));

    // a year and a day later the certificate has expired (the challenge itself is fresh)
    t.clock.advance(366 * DAY);
    try {
      const later = await loginAs(t.app, e.trader.user.username);
      await expect(verify(later, traderActor, mine)).rejects.toThrow('过期');
    } finally {
      t.clock.advance(-366 * DAY);
    }

    // revoked: refused, and on the public CRL with its reason
    const revoked = await call('/api/ukey/device/delete', e.trader.token, { deviceId: mine.deviceId, reason: 'keyCompromise' });
    expect(revoked.statusCode, revoked.body).toBe(200);
    await expect(verify(e.trader.token, traderActor, mine)).rejects.toThrow('注销');
    const crlResponse = await t.app.inject({ method: 'GET', url: '/trade-api/ukey/crl' });
    expect(crlResponse.statusCode).toBe(200);
    const crl = new x509.X509Crl(crlResponse.rawPayload);
    expect(await crl.verify({ publicKey: t.app.platformCa.certificate.publicKey }, webcrypto)).toBe(true);
    const [revokedRow] = await t.database.db.select().from(ukeyCertificates).where(eq(ukeyCertificates.id, real!.currentCertificateId!));
    expect(crl.findRevoked(revokedRow!.serialNumber)?.reason).toBe(x509.X509CrlReason.keyCompromise);
    expect((await t.app.inject({ method: 'GET', url: '/trade-api/ukey/ca.crt' })).body).toContain('BEGIN CERTIFICATE');
  });

  it('renews with a new key: the old certificate is superseded, the new key signs', async () => {
    const e = await enterprise();
    const first = await issuedTraderDevice(e);
    const next = await newDeviceKey();
    const renewal = await call('/api/ukey/device/update', e.trader.token, { deviceId: first.deviceId, csr: next.csr });
    expect(renewal.json().result.status).toBe('renewing');
    // the old key still signs while the renewal waits
    const payload = { amount: 100, remark: '', requestId: newRequestId() };
    const { verifyActionSignature } = await import('./ukey.service');
    const actor = { userId: e.trader.user.id, username: e.trader.user.username, role: 'trader' as const, enterpriseId: e.enterprise.id, sessionId: 0 };
    const sig = (key: TestKey) => signAction(call, e.trader.token, key, first.deviceId, 'withdrawal', payload);
    await expect(verifyActionSignature(t.database.db, t.clock, t.app.platformCa, actor, { action: 'withdrawal', payload, signature: await sig(first.key) })).resolves.toBeTruthy();
    expect((await call('/api/ukey/device/approve', e.token, { deviceId: first.deviceId })).json().result.status).toBe('active');
    await expect(verifyActionSignature(t.database.db, t.clock, t.app.platformCa, actor, { action: 'withdrawal', payload, signature: await sig(first.key) })).rejects.toThrow('验证未通过');
    await expect(verifyActionSignature(t.database.db, t.clock, t.app.platformCa, actor, { action: 'withdrawal', payload, signature: await sig(next) })).resolves.toBeTruthy();
    const certs = (await call('/api/ukey/certificate/query', e.trader.token, { deviceId: first.deviceId })).json().result;
    expect(certs.map((c: { status: string }) => c.status)).toEqual(['valid', 'revoked']);
    expect(certs[1].revokeReason).toBe('证书已更新');
    // someone else's device cannot be renewed
    expect((await call('/api/ukey/device/update', e.token, { deviceId: first.deviceId, csr: next.csr, payPassword: e.payPassword })).statusCode).toBe(403);
  });

  it('challenges are single use under concurrency: five requests with one signature move money once', async () => {
    const e = await enterprise();
    const { deviceId, key } = await issuedTraderDevice(e);
    await setSwitch('UkeySwitch', '1');
    try {
      const body = { amount: 500, remark: '', requestId: newRequestId() };
      const ukeySignature = await signAction(call, e.trader.token, key, deviceId, 'withdrawal', body);
      const results = await Promise.all([1, 2, 3, 4, 5].map(() => call('/api/funds/withdraw/apply', e.trader.token, { ...body, ukeySignature })));
      // one spends the challenge; the others either find that withdrawal (same request id) or the spent challenge
      expect(results.some((r) => r.statusCode === 200)).toBe(true);
      for (const r of results.filter((r) => r.statusCode !== 200)) expect(r.json().message).toContain('已使用');
      const rows = await t.database.db.select().from(ukeyChallenges).where(eq(ukeyChallenges.userId, e.trader.user.id));
      expect(rows.filter((r) => r.usedAt)).toHaveLength(1);
      const info = await t.app.inject({ method: 'GET', url: '/trade-api/api/fundinfo/getFundInfo', headers: { 'x-access-token': e.token } });
      expect(info.json().result.withdrawalFrozen).toBe(500);
    } finally {
      await setSwitch('UkeySwitch', '0');
    }
  });
});
