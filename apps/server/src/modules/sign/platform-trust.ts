import type { PlatformCa } from '../ukey/ca';
import { isRevokedSerial, usableCertificate } from '../ukey/ukey.service';
import type { SignTrust } from './sign.trust';

/** Signing trusts the platform CA and its key devices: the key-device module answers all three questions. */
export function platformSignTrust(ca: PlatformCa): SignTrust {
  return {
    async signingCertificate(db, clock, actor, deviceId) {
      return (await usableCertificate(db, clock, ca, actor, deviceId)).der;
    },
    async caCertificates() {
      return [ca.der];
    },
    async revocation(db, serialHex) {
      const revoked = await isRevokedSerial(db, serialHex);
      return revoked ? { revokedAt: revoked.revokedAt, reason: revoked.reason ?? '' } : null;
    },
  };
}
