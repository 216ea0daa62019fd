import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import { encodeUkeySignature, ukeyPayloadHash, type UkeyAction } from '@coalx/shared';
import * as x509 from '@peculiar/x509';

/**
 * A key device as the browser makes it, with Node's WebCrypto (the same API): a non-extractable P-256 key, a
 * PKCS#10 signed by it, and challenge signatures in raw r||s.
 */
const crypto = webcrypto;
const EC = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGN = { name: 'ECDSA', hash: 'SHA-256' } as const;

export interface TestKey {
  keys: webcrypto.CryptoKeyPair;
  csr: string;
}

export async function newDeviceKey(): Promise<TestKey> {
  const keys = (await crypto.subtle.generateKey(EC, false, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({ name: [{ CN: ['CoalX 数字证书申请'] }], keys, signingAlgorithm: SIGN }, crypto);
  return { keys, csr: Buffer.from(csr.rawData).toString('base64') };
}

export async function signRaw(key: TestKey, bytes: Uint8Array): Promise<string> {
  return Buffer.from(await crypto.subtle.sign(SIGN, key.keys.privateKey, bytes)).toString('base64url');
}

type Call = (url: string, token: string, payload?: object) => Promise<{ statusCode: number; body: string; json(): any }>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Asks the server for a challenge for `action` and `payload`, signs its text, gives the `ukeySignature`. */
export async function signAction(call: Call, token: string, key: TestKey, deviceId: number, action: UkeyAction, payload: Record<string, unknown>) {
  const response = await call('/api/ukey/challenge', token, { action, payloadHash: await ukeyPayloadHash(action, payload) });
  if (response.statusCode !== 200) throw new Error(`challenge refused: ${response.body}`);
  const challenge = response.json().result as { id: string; text: string };
  const signature = await signRaw(key, new TextEncoder().encode(challenge.text));
  return encodeUkeySignature({ challengeId: challenge.id, deviceId, signature });
}
