/**
 * CMS SignedData for PDF signatures (ETSI.CAdES.detached): the signed attributes the signer's key signs, and the
 * SignedData assembled around that signature. The key never comes here: the browser (or a hardware key) signs the
 * DER of the signed attributes, and hands back a raw ECDSA P-256 signature (r || s, as WebCrypto makes it).
 */
import { createHash, webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

export const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  sha256: '2.16.840.1.101.3.4.2.1',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  ecPublicKey: '1.2.840.10045.2.1',
} as const;

const P256_COORDINATE_BYTES = 32;

export function sha256(...parts: Uint8Array[]): Uint8Array {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return new Uint8Array(hash.digest());
}

function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

export function parseCertificate(der: Uint8Array): pkijs.Certificate {
  return pkijs.Certificate.fromBER(toArrayBuffer(der));
}

/**
 * The signed attributes in DER order (a SET OF is sorted by its members' encodings), as attribute objects and as
 * the bytes the signer signs: the SET with its universal tag 0x31, not the [0] it carries inside SignerInfo.
 */
export function buildSignedAttributes(input: { digest: Uint8Array; signingTime: Date; certificateDer: Uint8Array }) {
  const certificate = parseCertificate(input.certificateDer);
  const essCertIdV2 = new asn1js.Sequence({
    value: [
      // hashAlgorithm is left out: its DEFAULT is SHA-256
      new asn1js.OctetString({ valueHex: toArrayBuffer(sha256(input.certificateDer)) }),
      new asn1js.Sequence({
        value: [
          new asn1js.Sequence({ value: [new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 4 }, value: [certificate.issuer.toSchema()] })] }),
          certificate.serialNumber,
        ],
      }),
    ],
  });
  const attributes = [
    new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: OID.data })] }),
    new pkijs.Attribute({ type: OID.signingTime, values: [new asn1js.UTCTime({ valueDate: input.signingTime })] }),
    new pkijs.Attribute({ type: OID.messageDigest, values: [new asn1js.OctetString({ valueHex: toArrayBuffer(input.digest) })] }),
    new pkijs.Attribute({ type: OID.signingCertificateV2, values: [new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] })] }),
  ]
    .map((attribute) => ({ attribute, der: Buffer.from(attribute.toSchema().toBER()) }))
    .sort((a, b) => Buffer.compare(a.der, b.der));
  const der = Buffer.concat([derHeader(0x31, attributes.reduce((n, a) => n + a.der.length, 0)), ...attributes.map((a) => a.der)]);
  return { attributes: attributes.map((a) => a.attribute), der: new Uint8Array(der) };
}

/** Tag and definite length of a DER element holding `length` content bytes. */
function derHeader(tag: number, length: number): Buffer {
  if (length < 0x80) return Buffer.from([tag, length]);
  const bytes: number[] = [];
  for (let n = length; n > 0; n = Math.floor(n / 256)) bytes.unshift(n % 256);
  return Buffer.from([tag, 0x80 | bytes.length, ...bytes]);
}

/** WebCrypto's r || s to the DER ECDSA-Sig-Value that CMS carries. */
export function rawEcdsaToDer(raw: Uint8Array): Uint8Array {
  if (raw.length !== 2 * P256_COORDINATE_BYTES) throw new Error('ECDSA P-256 签名应为 64 字节');
  const half = (part: Uint8Array) => asn1js.Integer.fromBigInt(BigInt(`0x${Buffer.from(part).toString('hex')}`));
  const sequence = new asn1js.Sequence({ value: [half(raw.subarray(0, 32)), half(raw.subarray(32))] });
  return new Uint8Array(sequence.toBER());
}

/** DER ECDSA-Sig-Value back to r || s, for WebCrypto's verify. */
export function derEcdsaToRaw(der: Uint8Array): Uint8Array {
  const parsed = asn1js.fromBER(toArrayBuffer(der));
  const sequence = parsed.result as asn1js.Sequence;
  if (parsed.offset === -1 || !(sequence instanceof asn1js.Sequence) || sequence.valueBlock.value.length !== 2) {
    throw new Error('ECDSA 签名格式错误');
  }
  const out = new Uint8Array(2 * P256_COORDINATE_BYTES);
  sequence.valueBlock.value.forEach((item, i) => {
    if (!(item instanceof asn1js.Integer)) throw new Error('ECDSA 签名格式错误');
    const hex = item.toBigInt().toString(16).padStart(2 * P256_COORDINATE_BYTES, '0');
    if (hex.length > 2 * P256_COORDINATE_BYTES) throw new Error('ECDSA 签名格式错误');
    out.set(Buffer.from(hex, 'hex'), i * P256_COORDINATE_BYTES);
  });
  return out;
}

/** Checks a raw P-256 signature over `data` with the certificate's public key. */
export async function verifyWithCertificate(certificateDer: Uint8Array, data: Uint8Array, rawSignature: Uint8Array): Promise<boolean> {
  const certificate = parseCertificate(certificateDer);
  const spki = certificate.subjectPublicKeyInfo;
  if (spki.algorithm.algorithmId !== OID.ecPublicKey) return false;
  const key = await webcrypto.subtle.importKey('spki', spki.toSchema().toBER(), { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
  return webcrypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, rawSignature, data);
}

/**
 * The detached SignedData (DER ContentInfo) around a signature of the signed attributes. `chainDer` are further
 * certificates (the platform CA) so a verifier can build the path from the document alone.
 */
export function assembleSignedData(input: {
  signedAttributes: pkijs.Attribute[];
  certificateDer: Uint8Array;
  chainDer?: Uint8Array[];
  rawSignature: Uint8Array;
}): Uint8Array {
  const certificate = parseCertificate(input.certificateDer);
  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({ issuer: certificate.issuer, serialNumber: certificate.serialNumber }),
    digestAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 }),
    signedAttrs: new pkijs.SignedAndUnsignedAttributes({ type: 0, attributes: input.signedAttributes }),
    signatureAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.ecdsaWithSha256 }),
    signature: new asn1js.OctetString({ valueHex: toArrayBuffer(rawEcdsaToDer(input.rawSignature)) }),
  });
  const signedData = new pkijs.SignedData({
    version: 1,
    digestAlgorithms: [new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 })],
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
    certificates: [certificate, ...(input.chainDer ?? []).map(parseCertificate)],
    signerInfos: [signerInfo],
  });
  const contentInfo = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
  return new Uint8Array(contentInfo.toSchema().toBER());
}

export interface ParsedSignedData {
  /** the signer's certificate, found by the SignerInfo's issuer and serial */
  signerCertificateDer: Uint8Array | null;
  certificatesDer: Uint8Array[];
  /** what the signer signed: the signed attributes with the SET tag */
  signedAttributesDer: Uint8Array;
  messageDigest: Uint8Array | null;
  signingTime: Date | null;
  digestAlgorithm: string;
  signatureAlgorithm: string;
  signature: Uint8Array;
}

/** Reads a detached SignedData back; throws on anything that is not one. */
export function parseSignedData(der: Uint8Array): ParsedSignedData {
  const contentInfo = pkijs.ContentInfo.fromBER(toArrayBuffer(der));
  if (contentInfo.contentType !== OID.signedData) throw new Error('不是 CMS SignedData');
  const signedData = new pkijs.SignedData({ schema: contentInfo.content });
  const signerInfo = signedData.signerInfos[0];
  if (!signerInfo?.signedAttrs) throw new Error('签名缺少签名属性');
  const certificates = (signedData.certificates ?? []).filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate);
  const sid = signerInfo.sid;
  const signer =
    sid instanceof pkijs.IssuerAndSerialNumber
      ? certificates.find((c) => c.issuer.isEqual(sid.issuer) && c.serialNumber.isEqual(sid.serialNumber))
      : undefined;
  const attribute = (oid: string) => signerInfo.signedAttrs!.attributes.find((a) => a.type === oid)?.values[0];
  const digest = attribute(OID.messageDigest);
  const time = attribute(OID.signingTime);
  const signedAttributesDer = new Uint8Array(signerInfo.signedAttrs.encodedValue.slice(0));
  signedAttributesDer[0] = 0x31;
  return {
    signerCertificateDer: signer ? new Uint8Array(signer.toSchema().toBER()) : null,
    certificatesDer: certificates.map((c) => new Uint8Array(c.toSchema().toBER())),
    signedAttributesDer,
    messageDigest: digest instanceof asn1js.OctetString ? new Uint8Array(digest.valueBlock.valueHexView) : null,
    signingTime: time instanceof asn1js.UTCTime || time instanceof asn1js.GeneralizedTime ? time.toDate() : null,
    digestAlgorithm: signerInfo.digestAlgorithm.algorithmId,
    signatureAlgorithm: signerInfo.signatureAlgorithm.algorithmId,
    signature: new Uint8Array(signerInfo.signature.valueBlock.valueHexView),
  };
}
