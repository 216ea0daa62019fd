import { isUkeyAction, type UkeyDevice } from '@coalx/shared';
import { signAction, UKEY_NO_LOCAL_KEY, usableLocalDevices } from '@/lib/ukey';

/**
 * The key-device signature of a money action: `action` is one of the names the server's verifyPaymentAuth checks
 * ('withdrawal', 'auction_enrol', 'listing_subscribe', 'trade_deposit') and `payload` the request body it signs.
 * Rejects with UKEY_NO_LOCAL_KEY when this browser holds no certified key of the user.
 */
export { UKEY_NO_LOCAL_KEY };

export async function signWithUkey(action: string, payload: Record<string, unknown> = {}, device?: UkeyDevice): Promise<string> {
  if (!isUkeyAction(action)) throw new Error('该操作不支持数字证书签名');
  return signAction(action, payload, device);
}

/** The user's devices this browser holds a certified key for. */
export const usableUkeyDevices = usableLocalDevices;
