import type { SystemSwitch } from '@coalx/shared';

/** What a money-moving action needs first (spec §4): a key signature wins over the pay password. */
export type PaymentAuthMode = 'ukey' | 'password' | 'direct';

export function paymentAuthMode(switches: readonly SystemSwitch[] | null | undefined): PaymentAuthMode {
  const on = (code: string) => (switches ?? []).some((s) => s.code === code && s.content === '1');
  if (on('UkeySwitch')) return 'ukey';
  if (on('PayPassword')) return 'password';
  return 'direct';
}
