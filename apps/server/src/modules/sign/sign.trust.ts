import type { Db } from '../../db/client';
import { appError } from '../../errors';
import type { Actor } from '../../lib/actor';
import type { Clock } from '../../lib/clock';

/**
 * What signing needs from the certificate authority, and nothing more: the certificate a key device may sign
 * with now, the platform CA to chain to, and revocations. The key-device module provides it (`setSignTrust` at
 * start-up); a hardware key behind a PKCS#11 helper would provide the same three answers.
 */
export interface SignTrust {
  /**
   * The DER certificate of the actor's key device, after the chain, validity, revocation and enterprise checks;
   * throws a Chinese refusal when the device may not sign.
   */
  signingCertificate(db: Db, clock: Clock, actor: Actor, deviceId: number): Promise<Uint8Array>;
  /** DER certificates of the platform CA (the current one first) */
  caCertificates(): Promise<Uint8Array[]>;
  /** the revocation of a certificate the platform issued, by lower-case hex serial */
  revocation(db: Db, serialHex: string): Promise<{ revokedAt: Date; reason: string } | null>;
}

/** Until a certificate authority is connected nobody can sign, and no signature chains to the platform. */
export const noSignTrust: SignTrust = {
  signingCertificate: async () => {
    throw appError('no_signing_certificate', '平台数字证书服务未启用，暂不能签章');
  },
  caCertificates: async () => [],
  revocation: async () => null,
};

let current: SignTrust = noSignTrust;

export function setSignTrust(trust: SignTrust) {
  current = trust;
}

export function signTrust(): SignTrust {
  return current;
}
