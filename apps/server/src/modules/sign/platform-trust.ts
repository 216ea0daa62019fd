import { getPlatformCa } from '../ukey/ca';
import { isRevokedSerial, usableCertificate } from '../ukey/ukey.service';
import type { SignTrust } from './sign.trust';

/** Signing trusts the platform CA and its key devices: the key-device module answers all three questions. */
export const platformSignTrust: SignTrust = {
  async signingCertificate(db, clock, actor, deviceId) {
    return (await usableCertificate(db, actor, deviceId, clock)).der;
  },
  async caCertificates() {
    return [getPlatformCa().der];
  },
  async revocation(db, serialHex) {
    const revoked = await isRevokedSerial(db, serialHex);
    return revoked ? { revokedAt: revoked.revokedAt, reason: revoked.reason ?? '' } : null;
  },
};
