import { decodeUkeySignature, isUkeyAction } from '@coalx/shared';
import { businessRule } from '../../errors';
import type { UkeyVerifier } from '../funds/pay-auth';
import type { PlatformCa } from './ca';
import { verifyActionSignature } from './ukey.service';

/**
 * The verifier behind UkeySwitch: a signature of a single-use challenge by a key the platform CA certified. A
 * browser key (WebCrypto) and a USB key behind a local PKCS#11 helper produce the same signature (README
 * "Digital certificates"), so this one verifier serves both.
 */
export function platformCaVerifier(ca: PlatformCa): UkeyVerifier {
  return {
    async verify({ db, clock, actor, action, payload, signature }) {
      if (!isUkeyAction(action)) throw businessRule('该操作不支持数字证书签名');
      // not even shaped like a signature: the caller's generic "UKey 签章验证未通过"
      if (!decodeUkeySignature(signature)) return false;
      await verifyActionSignature(db, clock, ca, actor, { action, payload, signature });
      return true;
    },
  };
}
