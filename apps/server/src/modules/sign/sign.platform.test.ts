import { webcrypto } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEnterprise, createUser, loginAs } from '../../test/factories';
import { multipart } from '../../test/multipart';
import { pdfsig, sampleContractPdf } from '../../test/pdf';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';
import { newDeviceKey, type TestKey } from '../ukey/ukey.test-helpers';

/** PDF signing with certificates the platform CA issued to key devices, through the key-device API. */
describe.each(testDatabaseKinds())('PDF signing with platform key devices on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  const post = (url: string, token: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/trade-api${url}`, headers: { 'x-access-token': token }, payload });

  /** An enterprise whose trader holds a key device the enterprise admin approved. */
  async function enterpriseWithDevice(organName: string, creditCode: string) {
    const enterprise = await createEnterprise(t.database.db, { organName, creditCode });
    const admin = await createUser(t.database.db, { role: 'enterprise_admin', enterpriseId: enterprise.id });
    const trader = await createUser(t.database.db, { role: 'trader', enterpriseId: enterprise.id });
    const [adminToken, token] = [await loginAs(t.app, admin.username), await loginAs(t.app, trader.username)];
    const key = await newDeviceKey();
    const applied = await post('/api/ukey/device/apply', token, { deviceName: '交易员办公电脑', csr: key.csr });
    expect(applied.statusCode, applied.body).toBe(200);
    const deviceId = applied.json().result.id as number;
    expect((await post('/api/ukey/device/approve', adminToken, { deviceId })).statusCode).toBe(200);
    return { token, key, deviceId };
  }

  async function sign(who: { token: string; key: TestKey; deviceId: number }, pdf: Uint8Array) {
    const { payload, headers } = multipart({ name: '煤炭买卖合同.pdf', data: pdf }, { deviceId: String(who.deviceId) });
    const prepared = await t.app.inject({ method: 'POST', url: '/trade-api/api/sign/prepare', payload, headers: { ...headers, 'x-access-token': who.token } });
    expect(prepared.statusCode, prepared.body).toBe(200);
    const { sessionId, signedAttributes } = prepared.json().result;
    const raw = await webcrypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, who.key.keys.privateKey, Buffer.from(signedAttributes, 'base64'));
    const done = await post('/api/sign/complete', who.token, { sessionId, signature: Buffer.from(raw).toString('base64') });
    expect(done.statusCode, done.body).toBe(200);
    const file = await t.app.inject({ method: 'GET', url: `/trade-api/api/common/static/${done.json().result.url}`, headers: { 'x-access-token': who.token } });
    return new Uint8Array(file.rawPayload);
  }

  async function verify(pdf: Uint8Array) {
    const { payload, headers } = multipart({ name: 'a.pdf', data: pdf });
    return (await t.app.inject({ method: 'POST', url: '/trade-api/api/sign/verify', payload, headers })).json().result;
  }

  it('signs with two enterprises’ devices; the platform CA vouches for both; a revoked device can no longer sign and shows revoked', async () => {
    const seller = await enterpriseWithDevice('晋北煤业集团测试有限公司', '91140600MA0KPPPP1Q');
    const buyer = await enterpriseWithDevice('华东电力燃料测试有限公司', '91310000MA1FQQQQ2R');
    const signed = await sign(buyer, await sign(seller, await sampleContractPdf()));

    expect(pdfsig(signed).match(/Signature is Valid\./g)).toHaveLength(2);
    const result = await verify(signed);
    expect(result.allValid).toBe(true);
    expect(result.signatures.map((s: { enterpriseName: string; creditCode: string }) => [s.enterpriseName, s.creditCode])).toEqual([
      ['晋北煤业集团测试有限公司', '91140600MA0KPPPP1Q'],
      ['华东电力燃料测试有限公司', '91310000MA1FQQQQ2R'],
    ]);
    for (const s of result.signatures) {
      expect(s).toMatchObject({ trustedIssuer: true, validAtSigning: true, revoked: null, intact: true, signerName: '测试用户' });
      expect(s.certificate.issuer).toContain('CoalX 平台数字证书根 CA');
    }

    const revoked = await post('/api/ukey/device/delete', seller.token, { deviceId: seller.deviceId, reason: 'keyCompromise' });
    expect(revoked.statusCode, revoked.body).toBe(200);
    const { payload, headers } = multipart({ name: 'b.pdf', data: await sampleContractPdf() }, { deviceId: String(seller.deviceId) });
    const refused = await t.app.inject({ method: 'POST', url: '/trade-api/api/sign/prepare', payload, headers: { ...headers, 'x-access-token': seller.token } });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toContain('注销');
    const after = await verify(signed);
    expect(after.signatures[0].revoked).not.toBeNull();
    expect(after.signatures[0].valid).toBe(false);
    expect(after.signatures[1].valid).toBe(true);
    expect(after.allValid).toBe(false);
  });
});
