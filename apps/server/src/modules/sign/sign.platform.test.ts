import { createHash, webcrypto } from 'node:crypto';
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

  /**
   * An enterprise whose admin holds a key device (签章管理 is the enterprise admin's): the admin's own request, with
   * the pay password, is issued at once.
   */
  async function enterpriseWithDevice(organName: string, creditCode: string) {
    const enterprise = await createEnterprise(t.database.db, { organName, creditCode });
    const admin = await createUser(t.database.db, { role: 'enterprise_admin', enterpriseId: enterprise.id });
    const token = await loginAs(t.app, admin.username);
    const payPassword = createHash('sha256').update(`${enterprise.clientId}:135790`).digest('hex');
    expect((await post('/api/funds/payPassword/set', token, { password: payPassword })).statusCode).toBe(200);
    const key = await newDeviceKey();
    const applied = await post('/api/ukey/device/apply', token, { deviceName: '管理员办公电脑', csr: key.csr, payPassword });
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json().result.status).toBe('active');
    return { token, payPassword, key, deviceId: applied.json().result.id as number };
  }

  /** 签章 step 1 (the server prepares the PDF) and what the browser then signs with the device key. */
  async function prepareAndSign(who: { token: string; key: TestKey; deviceId: number }, pdf: Uint8Array) {
    const { payload, headers } = multipart({ name: '煤炭买卖合同.pdf', data: pdf }, { deviceId: String(who.deviceId) });
    const prepared = await t.app.inject({ method: 'POST', url: '/trade-api/api/sign/prepare', payload, headers: { ...headers, 'x-access-token': who.token } });
    expect(prepared.statusCode, prepared.body).toBe(200);
    const { sessionId, signedAttributes } = prepared.json().result;
    const raw = await webcrypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, who.key.keys.privateKey, Buffer.from(signedAttributes, 'base64'));
    return { sessionId: sessionId as string, signature: Buffer.from(raw).toString('base64') };
  }

  async function sign(who: { token: string; key: TestKey; deviceId: number }, pdf: Uint8Array) {
    const done = await post('/api/sign/complete', who.token, await prepareAndSign(who, pdf));
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

  it('a certificate revoked or renewed between prepare and complete signs nothing', async () => {
    const seller = await enterpriseWithDevice('朔州煤业测试有限公司', '91140600MA0KRRRR3S');
    const documents = async () => (await t.app.inject({ method: 'GET', url: '/trade-api/api/sign/documents', headers: { 'x-access-token': seller.token } })).json().result.total;

    // renewed: the key the session was prepared with is superseded
    const beforeRenewal = await prepareAndSign(seller, await sampleContractPdf());
    const next = await newDeviceKey();
    const update = await post('/api/ukey/device/update', seller.token, { deviceId: seller.deviceId, csr: next.csr, payPassword: seller.payPassword });
    expect(update.statusCode, update.body).toBe(200);
    const superseded = await post('/api/sign/complete', seller.token, beforeRenewal);
    expect(superseded.statusCode).toBe(422);
    expect(superseded.json().message).toBe('数字证书已注销，签署未完成，请使用有效的数字证书重新签署');
    const renewed = { ...seller, key: next };
    await sign(renewed, await sampleContractPdf());
    expect(await documents()).toBe(1);

    // deleted (注销): refused, nothing stored; the session is not spent, but its certificate stays revoked
    const beforeDeletion = await prepareAndSign(renewed, await sampleContractPdf());
    expect((await post('/api/ukey/device/delete', seller.token, { deviceId: seller.deviceId, reason: 'keyCompromise' })).statusCode).toBe(200);
    const refused = await post('/api/sign/complete', seller.token, beforeDeletion);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe('数字证书已注销，签署未完成，请使用有效的数字证书重新签署');
    expect((await post('/api/sign/complete', seller.token, beforeDeletion)).statusCode).toBe(422);
    expect(await documents()).toBe(1);
  });
});
