import { encodeUkeySignature, ukeyPayloadHash, UKEY_NO_LOCAL_KEY, type UkeyAction, type UkeyDevice } from '@coalx/shared';
import { queryDevices, requestChallenge } from '@/services/ukey';
import { keyStore, type StoredKey } from './key-store';

/**
 * Key devices made in this browser (DESIGN.md §8): a WebCrypto ECDSA P-256 key that cannot leave it, a PKCS#10
 * request signed by it, and signatures by it. WebCrypto signs as raw r||s (64 bytes); the server turns that into
 * DER where CMS or X.509 need it.
 */
const EC = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGN = { name: 'ECDSA', hash: 'SHA-256' } as const;

export { UKEY_NO_LOCAL_KEY };

const hex = (buffer: ArrayBuffer) => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, '0')).join('');
const base64 = (buffer: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(buffer)));
export const base64url = (buffer: ArrayBuffer) => base64(buffer).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

export function keyDevicesSupported(): boolean {
  return typeof indexedDB !== 'undefined' && Boolean(globalThis.crypto?.subtle);
}

/**
 * Makes a new non-extractable key in this browser, keeps it, and returns its PKCS#10 request (base64 DER) for
 * 申请 (apply) or 更新 (renew), and the key's id the server will name.
 */
export async function createDeviceRequest(deviceName: string): Promise<{ csr: string; keyId: string }> {
  if (!keyDevicesSupported()) throw new Error('当前浏览器不支持数字证书，请使用新版 Chrome、Edge 或 360 极速浏览器');
  await import('reflect-metadata');
  const x509 = await import('@peculiar/x509');
  const keys = (await crypto.subtle.generateKey(EC, false, ['sign', 'verify'])) as CryptoKeyPair;
  const request = await x509.Pkcs10CertificateRequestGenerator.create({ name: [{ CN: [deviceName] }], keys, signingAlgorithm: SIGN }, crypto);
  const keyId = hex(await crypto.subtle.digest('SHA-256', await crypto.subtle.exportKey('spki', keys.publicKey)));
  await keyStore.put({ keyId, deviceId: null, certified: false, deviceName, privateKey: keys.privateKey, createdAt: Date.now() });
  return { csr: base64(request.rawData), keyId };
}

/**
 * Files this browser's keys under the server's devices: a key named by a device's current certificate signs for
 * it; one named by a waiting request waits; a key whose certificate was superseded or revoked is dropped.
 */
export async function syncDeviceKeys(devices: readonly Pick<UkeyDevice, 'id' | 'status' | 'pendingKeyId' | 'certificate'>[]): Promise<void> {
  if (!keyDevicesSupported()) return;
  const byCertified = new Map(devices.filter((d) => d.certificate && d.status !== 'revoked').map((d) => [d.certificate!.keyId, d.id]));
  const byPending = new Map(devices.filter((d) => d.pendingKeyId).map((d) => [d.pendingKeyId!, d.id]));
  const known = new Set(devices.map((d) => d.id));
  for (const record of await keyStore.all()) {
    const certified = byCertified.get(record.keyId);
    const pending = byPending.get(record.keyId);
    if (certified !== undefined || pending !== undefined) {
      const next = { ...record, deviceId: certified ?? pending!, certified: certified !== undefined };
      if (next.deviceId !== record.deviceId || next.certified !== record.certified) await keyStore.put(next);
    } else if (record.deviceId !== null && known.has(record.deviceId)) {
      await keyStore.remove(record.keyId);
    }
  }
}

/** Devices this browser holds a certified key for. */
export async function localDeviceIds(): Promise<number[]> {
  if (!keyDevicesSupported()) return [];
  return (await keyStore.all()).filter((r) => r.certified && r.deviceId !== null).map((r) => r.deviceId!);
}

async function certifiedKey(deviceId: number): Promise<StoredKey> {
  const record = (await keyStore.all()).find((r) => r.certified && r.deviceId === deviceId);
  if (!record) throw new Error(UKEY_NO_LOCAL_KEY);
  return record;
}

/** Signs `bytes` with the device's key (ECDSA P-256, SHA-256): the raw r||s signature, 64 bytes. */
export async function signWithDevice(deviceId: number, bytes: Uint8Array<ArrayBuffer>): Promise<ArrayBuffer> {
  const record = await certifiedKey(deviceId);
  return crypto.subtle.sign(SIGN, record.privateKey, bytes);
}

/** The caller's own devices that this browser can sign with, current server view. */
export async function usableLocalDevices(): Promise<UkeyDevice[]> {
  const { records } = await queryDevices();
  await syncDeviceKeys(records);
  const local = new Set(await localDeviceIds());
  return records.filter((d) => d.mine && (d.status === 'active' || d.status === 'renewing') && d.certificate?.status === 'valid' && local.has(d.id));
}

/**
 * The `ukeySignature` of a money action: a challenge for the action and the SHA-256 of its signed fields, signed
 * here by `device` (or the first usable one). Throws UKEY_NO_LOCAL_KEY when this browser holds no usable key.
 */
export async function signAction(action: UkeyAction, payload: Record<string, unknown>, device?: UkeyDevice): Promise<string> {
  const chosen = device ?? (await usableLocalDevices())[0];
  if (!chosen) throw new Error(UKEY_NO_LOCAL_KEY);
  const challenge = await requestChallenge(action, await ukeyPayloadHash(action, payload));
  const signature = await signWithDevice(chosen.id, new TextEncoder().encode(challenge.text));
  return encodeUkeySignature({ challengeId: challenge.id, deviceId: chosen.id, signature: base64url(signature) });
}

/** Drops a key whose request the server refused, so no orphan stays in this browser. */
export async function discardDeviceRequest(keyId: string): Promise<void> {
  if (keyDevicesSupported()) await keyStore.remove(keyId);
}
