import { SIGNING_SESSION_TTL_MS } from '@coalx/shared';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enterprises, signedDocuments, signSessions } from '../../db/schema/index';
import { appError } from '../../errors';
import { createTestCa, issueTestCertificate, type TestCa, type TestSigner } from '../../test/certificates';
import { signedIn } from '../../test/factories';
import { multipart } from '../../test/multipart';
import { pdfsig, sampleContractPdf, tamper } from '../../test/pdf';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';
import { noVerificationReference, type VerificationReference } from './sign.service';
import type { SignTrust } from './sign.trust';

const API = '/trade-api/api/sign';

interface Device {
  userId: number;
  signer: TestSigner;
}

describe.each(testDatabaseKinds())('PDF signing and public verification on %s', (kind) => {
  let t: TestApp;
  let ca: TestCa;
  const devices = new Map<number, Device>();
  const revoked = new Map<string, { revokedAt: Date; reason: string }>();
  let nextDevice = 1;
  // the document-number lookup the app is given; one test swaps in its own
  let reference: VerificationReference = noVerificationReference;

  /** An enterprise user with a key device certified by the test CA, as the key-device module would give. */
  async function trader(name: string, creditCode: string) {
    const { user, token } = await signedIn(t.app, t.database.db, { role: 'enterprise_admin' });
    await t.database.db.update(enterprises).set({ organName: name, creditCode }).where(eq(enterprises.id, user.enterpriseId!));
    const signer = await issueTestCertificate(ca, { enterprise: name, creditCode, user: `${name.slice(0, 2)}经办人` });
    const deviceId = nextDevice++;
    devices.set(deviceId, { userId: user.id, signer });
    return { user, token, signer, deviceId };
  }

  async function prepare(token: string, pdf: Uint8Array, deviceId: number, name = '合同.pdf') {
    const { payload, headers } = multipart({ name, data: pdf }, { deviceId: String(deviceId), reason: '签署合同' });
    return t.app.inject({ method: 'POST', url: `${API}/prepare`, payload, headers: { ...headers, 'x-access-token': token } });
  }

  /** What the browser does: sign the DER of the signed attributes with the device key. */
  async function browserSign(signer: TestSigner, signedAttributes: string) {
    return Buffer.from(await signer.sign(new Uint8Array(Buffer.from(signedAttributes, 'base64')))).toString('base64');
  }

  async function complete(token: string, sessionId: string, signature: string) {
    return t.app.inject({ method: 'POST', url: `${API}/complete`, payload: { sessionId, signature }, headers: { 'x-access-token': token } });
  }

  async function signPdf(who: { token: string; signer: TestSigner; deviceId: number }, pdf: Uint8Array) {
    const prepared = await prepare(who.token, pdf, who.deviceId);
    expect(prepared.statusCode, prepared.body).toBe(200);
    const { sessionId, signedAttributes } = prepared.json().result;
    const done = await complete(who.token, sessionId, await browserSign(who.signer, signedAttributes));
    expect(done.statusCode, done.body).toBe(200);
    const document = done.json().result;
    const file = await t.app.inject({ method: 'GET', url: `/trade-api/api/common/static/${document.url}`, headers: { 'x-access-token': who.token } });
    expect(file.statusCode).toBe(200);
    return { document, pdf: new Uint8Array(file.rawPayload) };
  }

  async function verify(pdf: Uint8Array, fields: Record<string, string> = {}) {
    const { payload, headers } = multipart({ name: '待验证.pdf', data: pdf }, fields);
    return t.app.inject({ method: 'POST', url: `${API}/verify`, payload, headers });
  }

  const documentsCount = async () => Number((await t.database.db.select({ n: count() }).from(signedDocuments))[0]!.n);

  beforeAll(async () => {
    ca = await createTestCa();
    const signTrust: SignTrust = {
      signingCertificate: async (_db, _clock, actor, deviceId) => {
        const device = devices.get(deviceId);
        if (!device || device.userId !== actor.userId) throw appError('no_signing_certificate', '该数字证书不属于当前用户');
        return device.signer.certificateDer;
      },
      caCertificates: async () => [ca.der],
      revocation: async (_db, serial) => revoked.get(serial) ?? null,
    };
    t = await createTestApp(kind, {}, { signTrust, verificationReference: (db, number) => reference(db, number) });
  });
  afterAll(async () => {
    await t.close();
  });

  it('draws the own enterprise seal as SVG, for enterprise users only', async () => {
    const seller = await trader('晋北煤业集团有限公司', '91140600MA0KXXXX1A');
    const seal = await t.app.inject({ method: 'GET', url: `${API}/seal`, headers: { 'x-access-token': seller.token } });
    expect(seal.statusCode).toBe(200);
    expect(seal.headers['content-type']).toContain('image/svg+xml');
    for (const char of '晋北煤业集团有限公司') expect(seal.body).toContain(`>${char}</text>`);
    expect(seal.body).toContain('91140600MA0KXXXX1A');
    const operator = await signedIn(t.app, t.database.db, { role: 'operator' });
    expect((await t.app.inject({ method: 'GET', url: `${API}/seal`, headers: { 'x-access-token': operator.token } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `${API}/seal` })).statusCode).toBe(401);
  });

  it('signs a PDF for two enterprises in turn: pdfsig and the public verification find both signatures valid', async () => {
    const seller = await trader('山西北岳煤业有限公司', '91140600MA0KAAAA1B');
    const buyer = await trader('江南电力燃料有限公司', '91310000MA1FBBBB2C');
    const first = await signPdf(seller, await sampleContractPdf());
    expect(first.document).toMatchObject({ fileName: '合同_已签章.pdf', enterpriseName: '山西北岳煤业有限公司', signerName: '山西经办人', signatureIndex: 1, reason: '签署合同' });
    const second = await signPdf(buyer, first.pdf);
    expect(second.document.signatureIndex).toBe(2);

    const report = pdfsig(second.pdf);
    expect(report.match(/Signature Validation: Signature is Valid\./g)).toHaveLength(2);
    expect(report).toContain('O=山西北岳煤业有限公司');
    expect(report).toContain('O=江南电力燃料有限公司');
    expect(report).toMatch(/Signature #2[\s\S]*Total document signed/);

    const verified = await verify(second.pdf);
    expect(verified.statusCode, verified.body).toBe(200);
    const result = verified.json().result;
    expect(result.allValid, JSON.stringify(result.signatures.map((s: { findings: string[] }) => s.findings))).toBe(true);
    expect(result.summary).toBe('共 2 个签章，全部有效，文件签署后未被修改');
    expect(result.signatures.map((s: { enterpriseName: string }) => s.enterpriseName)).toEqual(['山西北岳煤业有限公司', '江南电力燃料有限公司']);
    expect(result.signatures[0]).toMatchObject({ intact: true, trustedIssuer: true, validAtSigning: true, revoked: null, valid: true, coversWholeFile: false, changesAfter: 'signatures_only', creditCode: '91140600MA0KAAAA1B' });
    expect(result.signatures[1]).toMatchObject({ intact: true, valid: true, coversWholeFile: true, changesAfter: 'none' });
    expect(result.signatures[1].certificate.issuer).toContain('CoalX 测试根证书');

    // each enterprise lists what it signed, and only that
    const sellerList = await t.app.inject({ method: 'GET', url: `${API}/documents`, headers: { 'x-access-token': seller.token } });
    expect(sellerList.json().result.records.map((d: { id: number }) => d.id)).toEqual([first.document.id]);
    const other = await t.app.inject({ method: 'GET', url: `/trade-api/api/common/static/${first.document.url}`, headers: { 'x-access-token': buyer.token } });
    expect(other.statusCode).toBe(403);
  });

  it('reports a changed byte in pdfsig and in the public verification', async () => {
    const seller = await trader('朔州平鲁煤炭有限公司', '91140600MA0KCCCC3D');
    const { pdf } = await signPdf(seller, await sampleContractPdf());
    const tampered = tamper(pdf);
    expect(pdfsig(tampered)).toMatch(/Digest Mismatch/);
    const result = (await verify(tampered)).json().result;
    expect(result.allValid).toBe(false);
    expect(result.signatures[0]).toMatchObject({ intact: false, valid: false });
    expect(result.signatures[0].findings).toContain('签署后所签内容已被篡改（摘要不符）');
  });

  it('reports content appended after the last signature as a modification', async () => {
    const seller = await trader('大同塔山煤业有限公司', '91140200MA0KDDDD4E');
    const { pdf } = await signPdf(seller, await sampleContractPdf());
    // a later revision nobody signed: the same objects again, with a new trailer
    const text = Buffer.from(pdf).toString('latin1');
    const startxref = text.lastIndexOf('startxref');
    const appended = Buffer.concat([Buffer.from(pdf), Buffer.from(`% 修改\nstartxref\n${text.slice(startxref + 10).trim().split(/\s/)[0]}\n%%EOF\n`, 'latin1')]);
    const result = (await verify(new Uint8Array(appended))).json().result;
    expect(result.signatures[0]).toMatchObject({ intact: true, coversWholeFile: false, changesAfter: 'modified', valid: false });
    expect(result.allValid).toBe(false);
  });

  it('shows a revoked certificate and one from another CA as not valid', async () => {
    const seller = await trader('阳泉煤业贸易有限公司', '91140300MA0KEEEE5F');
    const { pdf, document } = await signPdf(seller, await sampleContractPdf());
    revoked.set(document.certificateSerial, { revokedAt: new Date(), reason: '密钥遗失' });
    const revokedResult = (await verify(pdf)).json().result;
    expect(revokedResult.signatures[0].revoked).toMatchObject({ reason: '密钥遗失' });
    expect(revokedResult.signatures[0].valid).toBe(false);
    expect(revokedResult.signatures[0].findings.some((f: string) => f.includes('吊销（密钥遗失）'))).toBe(true);

    const strangerCa = await createTestCa('外部 CA');
    const stranger = await issueTestCertificate(strangerCa, { enterprise: '外部煤业有限公司', creditCode: '91110000MA0GGGGG6H', user: '外人' });
    const outsider = await trader('外部煤业有限公司', '91110000MA0GGGGG6H');
    devices.set(outsider.deviceId, { userId: outsider.user.id, signer: stranger });
    const { pdf: strangerPdf } = await signPdf({ ...outsider, signer: stranger }, await sampleContractPdf());
    const strangerResult = (await verify(strangerPdf)).json().result;
    expect(strangerResult.signatures[0]).toMatchObject({ intact: true, trustedIssuer: false, valid: false });
  });

  it('refuses bad input, a foreign device, an altered or replayed signature, another user and an expired session; nothing is stored', async () => {
    const seller = await trader('吕梁东义煤业有限公司', '91141100MA0KHHHH7J');
    const colleague = await trader('吕梁东义能源有限公司', '91141100MA0KJJJJ8K');
    const before = await documentsCount();

    const notPdf = await prepare(seller.token, new TextEncoder().encode('hello, not a pdf'), seller.deviceId, 'a.pdf');
    expect(notPdf.statusCode).toBe(422);
    expect(notPdf.json().message).toBe('文件不是 PDF，请上传 .pdf 文件');
    const broken = await prepare(seller.token, new TextEncoder().encode('%PDF-1.7\n garbage'), seller.deviceId);
    expect(broken.statusCode).toBe(422);
    expect(broken.json().error).toBe('pdf_invalid');
    const foreignDevice = await prepare(seller.token, await sampleContractPdf(), colleague.deviceId);
    expect(foreignDevice.statusCode).toBe(422);
    expect(foreignDevice.json().message).toBe('该数字证书不属于当前用户');
    const badDevice = await prepare(seller.token, await sampleContractPdf(), 0);
    expect(badDevice.json().message).toBe('请选择签章使用的数字证书');

    const prepared = (await prepare(seller.token, await sampleContractPdf(), seller.deviceId)).json().result;
    // signed by another key, or over other bytes: refused, and the session stays open for the right signature
    const wrongKey = await complete(seller.token, prepared.sessionId, await browserSign(colleague.signer, prepared.signedAttributes));
    expect(wrongKey.statusCode).toBe(422);
    expect(wrongKey.json().error).toBe('signature_invalid');
    const altered = await complete(seller.token, prepared.sessionId, await browserSign(seller.signer, Buffer.from('altered').toString('base64')));
    expect(altered.json().error).toBe('signature_invalid');
    const malformed = await complete(seller.token, prepared.sessionId, 'bm90IGEgc2lnbmF0dXJl');
    expect(malformed.json().error).toBe('signature_invalid');
    expect((await complete(seller.token, 'not-a-uuid', 'AAAA')).statusCode).toBe(400);
    const signature = await browserSign(seller.signer, prepared.signedAttributes);
    const byColleague = await complete(colleague.token, prepared.sessionId, signature);
    expect(byColleague.statusCode).toBe(403);
    expect(await documentsCount()).toBe(before);

    // two completions at once: exactly one wins, the other finds the session spent
    const [a, b] = await Promise.all([complete(seller.token, prepared.sessionId, signature), complete(seller.token, prepared.sessionId, signature)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 422]);
    expect(await documentsCount()).toBe(before + 1);
    const replay = await complete(seller.token, prepared.sessionId, signature);
    expect(replay.json()).toMatchObject({ error: 'signing_session_invalid', message: '签章会话不存在、已使用或已过期，请重新签章' });

    const late = (await prepare(seller.token, await sampleContractPdf(), seller.deviceId)).json().result;
    t.clock.advance(SIGNING_SESSION_TTL_MS + 1000);
    const expired = await complete(seller.token, late.sessionId, await browserSign(seller.signer, late.signedAttributes));
    expect(expired.json().error).toBe('signing_session_invalid');
    expect(await documentsCount()).toBe(before + 1);
    const [spent] = await t.database.db.select().from(signSessions).where(eq(signSessions.id, late.sessionId));
    expect(spent!.usedAt).toBeNull();

    const operator = await signedIn(t.app, t.database.db, { role: 'operator' });
    expect((await prepare(operator.token, await sampleContractPdf(), seller.deviceId)).statusCode).toBe(403);
  });

  it('checks a document number through the registered lookup', async () => {
    const seller = await trader('神木能源集团有限公司', '91610800MA0KKKKK9L');
    const { pdf, document } = await signPdf(seller, await sampleContractPdf());
    reference = async (_db, number) => (number === 'HT20261123001' ? { title: '煤炭买卖合同', signedSha256: [document.sha256] } : null);
    try {
      const match = (await verify(pdf, { number: 'HT20261123001' })).json().result;
      expect(match.reference).toEqual({ number: 'HT20261123001', found: true, title: '煤炭买卖合同', matches: true });
      expect(match.summary).toContain('与平台保存的 HT20261123001 签署文件一致');
      const other = (await verify(await sampleContractPdf(), { number: 'HT20261123001' })).json().result;
      expect(other.reference.matches).toBe(false);
      expect(other.summary).toContain('该文件没有数字签章');
      const unknown = (await verify(pdf, { number: 'HT1' })).json().result;
      expect(unknown.reference.found).toBe(false);
    } finally {
      reference = noVerificationReference;
    }
  });
});
