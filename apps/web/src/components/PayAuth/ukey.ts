/**
 * Hook for the key-device (UKey) work: sign `action` (e.g. 'withdrawal', 'trade_deposit', 'listing_subscribe', the
 * names the server's verifyPaymentAuth checks) with the enterprise's key and resolve with the signature the server's
 * UkeyVerifier (apps/server/src/modules/funds/pay-auth.ts) accepts.
 *
 * TODO(ukey): talk to the key-device driver/browser extension here and return its signature. Until then every
 * signature attempt is refused, which matches the server: with UkeySwitch on, no money moves without a real key.
 */
export const UKEY_NOT_CONNECTED = '尚未连接 UKey 设备';

export async function signWithUkey(action: string): Promise<string> {
  void action;
  throw new Error(UKEY_NOT_CONNECTED);
}
