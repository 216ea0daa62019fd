import type { Db, Tx } from '../../db/client';
import type { Actor } from '../../lib/actor';
import type { Clock } from '../../lib/clock';

/**
 * What signing needs from the certificate authority, and nothing more: the certificate a key device may sign
 * with now, the platform CA to chain to, and revocations. The key-device module provides it (`platformSignTrust`,
 * built once by the app as `app.signTrust` and passed to every signing call); a hardware key behind a PKCS#11 helper
 * would provide the same three answers.
 */
export interface SignTrust {
  /**
   * The DER certificate of the actor's key device, after the chain, validity, revocation and enterprise checks;
   * throws a Chinese refusal when the device may not sign.
   */
  signingCertificate(db: Db, clock: Clock, actor: Actor, deviceId: number): Promise<Uint8Array>;
  /** DER certificates of the platform CA (the current one first) */
  caCertificates(): Promise<Uint8Array[]>;
  /** the revocation of a certificate the platform issued, by lower-case hex serial (also asked inside the transaction completing a signature) */
  revocation(db: Db | Tx, serialHex: string): Promise<{ revokedAt: Date; reason: string } | null>;
}
