import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { pdfsig, sampleContractPdf, tamper } from '../../test/pdf';
import { createTestCa, issueTestCertificate, type TestCa, type TestSigner } from '../../test/certificates';
import { assembleSignedData, buildSignedAttributes } from './cms';
import { embedSignature, prepareSignature } from './pdf-signature';
import { checkPdfSignatures } from './pdf-verify';

const SELLER = { name: '晋北煤业集团有限公司', creditCode: '91140600MA0KXXXX1A' };
const BUYER = { name: '华东电力燃料有限公司', creditCode: '91310000MA1FYYYY2B' };

async function sign(pdf: Uint8Array, signer: TestSigner, ca: TestCa, seal: { name: string; creditCode: string }) {
  const signingTime = new Date();
  const prepared = await prepareSignature({ pdf, seal, signerName: `${seal.name} 经办人`, reason: '签署合同', signingTime });
  const attributes = buildSignedAttributes({ digest: prepared.digest, signingTime, certificateDer: signer.certificateDer });
  const rawSignature = await signer.sign(attributes.der);
  const cms = assembleSignedData({ signedAttributes: attributes.attributes, certificateDer: signer.certificateDer, chainDer: [ca.der], rawSignature });
  return embedSignature(prepared, cms);
}

describe('PDF signatures, checked by poppler pdfsig and by our own verification', () => {
  let ca: TestCa;
  let seller: TestSigner;
  let buyer: TestSigner;
  let twiceSigned: Uint8Array;

  beforeAll(async () => {
    ca = await createTestCa();
    seller = await issueTestCertificate(ca, { enterprise: SELLER.name, creditCode: SELLER.creditCode, user: '王经理' });
    buyer = await issueTestCertificate(ca, { enterprise: BUYER.name, creditCode: BUYER.creditCode, user: '李采购' });
    const once = await sign(await sampleContractPdf(), seller, ca, SELLER);
    twiceSigned = await sign(once, buyer, ca, BUYER);
  });

  it('keeps the first signature valid after the second, as an incremental update', async () => {
    const report = pdfsig(twiceSigned);
    expect(report).toContain('Signature #1');
    expect(report).toContain('Signature #2');
    expect(report.match(/Signature Validation: Signature is Valid\./g)).toHaveLength(2);
    expect(report).toContain('ETSI.CAdES.detached');
    // the second signature covers the whole file; the first covers its own revision, which the second appended to
    expect(report).toMatch(/Signature #2[\s\S]*Total document signed/);

    const checks = await checkPdfSignatures(twiceSigned);
    expect(checks).toHaveLength(2);
    for (const check of checks) {
      expect(check.problem).toBeNull();
      expect(check.digestMatches).toBe(true);
      expect(check.signatureValid).toBe(true);
      expect(check.subFilter).toBe('ETSI.CAdES.detached');
    }
    expect(checks[0]!.coversWholeFile).toBe(false);
    expect(checks[1]!.coversWholeFile).toBe(true);
    expect(checks[0]!.coveredLength).toBeLessThan(checks[1]!.coveredLength);
    expect(Buffer.from(checks[0]!.signerCertificateDer!).equals(Buffer.from(seller.certificateDer))).toBe(true);
    expect(Buffer.from(checks[1]!.signerCertificateDer!).equals(Buffer.from(buyer.certificateDer))).toBe(true);
  });

  it('reports a changed byte: pdfsig sees a digest mismatch and so do we', async () => {
    const tampered = tamper(twiceSigned);
    const report = pdfsig(tampered);
    expect(report.match(/Signature is Valid\./g) ?? []).toHaveLength(0);
    expect(report).toMatch(/Digest Mismatch/);

    const checks = await checkPdfSignatures(tampered);
    expect(checks).toHaveLength(2);
    expect(checks.every((c) => !c.digestMatches)).toBe(true);
  });

  it('reports a signature whose key does not match its certificate', async () => {
    const impostor = await issueTestCertificate(ca, { enterprise: BUYER.name, creditCode: BUYER.creditCode, user: '冒名者' });
    const signingTime = new Date();
    const prepared = await prepareSignature({ pdf: await sampleContractPdf(), seal: BUYER, signerName: '冒名者', reason: '测试', signingTime });
    const attributes = buildSignedAttributes({ digest: prepared.digest, signingTime, certificateDer: buyer.certificateDer });
    const cms = assembleSignedData({ signedAttributes: attributes.attributes, certificateDer: buyer.certificateDer, rawSignature: await impostor.sign(attributes.der) });
    const [check] = await checkPdfSignatures(embedSignature(prepared, cms));
    expect(check!.digestMatches).toBe(true);
    expect(check!.signatureValid).toBe(false);
    expect(pdfsig(embedSignature(prepared, cms))).not.toContain('Signature is Valid.');
  });

  it('draws the seal and keeps the Chinese text, rendered by pdftoppm', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-render-'));
    fs.writeFileSync(path.join(dir, 'signed.pdf'), twiceSigned);
    execFileSync('pdftoppm', ['-png', '-r', '60', path.join(dir, 'signed.pdf'), path.join(dir, 'page')]);
    const png = fs.readdirSync(dir).find((f) => f.endsWith('.png'));
    expect(png).toBeDefined();
    if (process.env.KEEP_RENDER) fs.copyFileSync(path.join(dir, png!), process.env.KEEP_RENDER);
    const text = execFileSync('pdftotext', [path.join(dir, 'signed.pdf'), '-'], { encoding: 'utf8' });
    expect(text).toContain('煤炭买卖合同');
    expect(text).toContain('叁佰叁拾万元整');
  });
});
