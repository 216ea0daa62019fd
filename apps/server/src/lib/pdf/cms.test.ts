import { webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestCa, issueTestCertificate, type TestCa, type TestSigner } from '../../test/certificates';
import { OID, assembleSignedData, buildSignedAttributes, derEcdsaToRaw, parseSignedData, rawEcdsaToDer, sha256, verifyWithCertificate } from './cms';

describe('CMS for PDF signatures', () => {
  let ca: TestCa;
  let signer: TestSigner;
  beforeAll(async () => {
    ca = await createTestCa();
    signer = await issueTestCertificate(ca, { enterprise: '晋北煤业集团有限公司', creditCode: '91140600MA0KXXXX1A', user: '王经理' });
  });

  it('converts raw r || s to DER and back, keeping high-bit and leading-zero halves exact', () => {
    const cases = [new Uint8Array(64).fill(0xff), Uint8Array.from({ length: 64 }, (_, i) => (i === 0 || i === 32 ? 0 : i)), Uint8Array.from({ length: 64 }, (_, i) => (i < 3 ? 0 : 0x80 + (i % 7)))];
    for (const raw of cases) {
      const der = rawEcdsaToDer(raw);
      expect(der[0]).toBe(0x30);
      const parsed = asn1js.fromBER(der.buffer.slice(der.byteOffset, der.byteOffset + der.byteLength) as ArrayBuffer);
      const [r, s] = (parsed.result as asn1js.Sequence).valueBlock.value as asn1js.Integer[];
      // DER integers are positive: a high first bit gets a 0x00 in front, leading zeros are dropped
      expect(r!.toBigInt()).toBe(BigInt(`0x${Buffer.from(raw.subarray(0, 32)).toString('hex')}`));
      expect(s!.toBigInt()).toBe(BigInt(`0x${Buffer.from(raw.subarray(32)).toString('hex')}`));
      expect(Buffer.from(derEcdsaToRaw(der)).equals(Buffer.from(raw))).toBe(true);
    }
    expect(() => rawEcdsaToDer(new Uint8Array(63))).toThrow();
    expect(() => derEcdsaToRaw(new Uint8Array([0x30, 0x00]))).toThrow();
  });

  it('makes the signed attributes a DER SET in sorted order, with the digest, time and certificate hash', () => {
    const digest = sha256(Buffer.from('合同内容'));
    const signingTime = new Date('2026-11-23T08:00:00Z');
    const { der } = buildSignedAttributes({ digest, signingTime, certificateDer: signer.certificateDer });
    expect(der[0]).toBe(0x31);
    const set = asn1js.fromBER(der.buffer.slice(der.byteOffset, der.byteOffset + der.byteLength) as ArrayBuffer).result as asn1js.Set;
    const members = set.valueBlock.value.map((m) => Buffer.from(m.toBER()));
    const sorted = [...members].sort(Buffer.compare);
    expect(members.map((m) => m.toString('hex'))).toEqual(sorted.map((m) => m.toString('hex')));
    const types = set.valueBlock.value.map((m) => ((m as asn1js.Sequence).valueBlock.value[0] as asn1js.ObjectIdentifier).valueBlock.toString());
    expect(types.sort()).toEqual([OID.contentType, OID.messageDigest, OID.signingTime, OID.signingCertificateV2].sort());
    expect(Buffer.from(der).includes(Buffer.from(digest))).toBe(true);
    expect(Buffer.from(der).includes(Buffer.from(sha256(signer.certificateDer)))).toBe(true);
  });

  it('assembles a SignedData that reads back: signer certificate, digest, time and a signature its key verifies', async () => {
    const digest = sha256(Buffer.from('%PDF-1.7 ...'));
    const signingTime = new Date('2026-11-23T08:00:00Z');
    const attributes = buildSignedAttributes({ digest, signingTime, certificateDer: signer.certificateDer });
    const rawSignature = await signer.sign(attributes.der);
    const cms = assembleSignedData({ signedAttributes: attributes.attributes, certificateDer: signer.certificateDer, chainDer: [ca.der], rawSignature });
    const parsed = parseSignedData(cms);
    expect(Buffer.from(parsed.signerCertificateDer!).equals(Buffer.from(signer.certificateDer))).toBe(true);
    expect(parsed.certificatesDer).toHaveLength(2);
    expect(Buffer.from(parsed.messageDigest!).equals(Buffer.from(digest))).toBe(true);
    expect(parsed.signingTime?.toISOString()).toBe(signingTime.toISOString());
    // the bytes the signer signed come back exactly from the [0]-tagged attributes
    expect(Buffer.from(parsed.signedAttributesDer).equals(Buffer.from(attributes.der))).toBe(true);
    expect(await verifyWithCertificate(signer.certificateDer, parsed.signedAttributesDer, derEcdsaToRaw(parsed.signature))).toBe(true);
    const other = await webcrypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, ca.keys.privateKey, attributes.der);
    expect(await verifyWithCertificate(signer.certificateDer, parsed.signedAttributesDer, new Uint8Array(other))).toBe(false);
    expect(() => parseSignedData(new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x01]))).toThrow();
  });
});
