import { describe, expect, it } from 'vitest';
import { paymentAuthMode } from './mode';

const sw = (payPassword: '0' | '1', ukey: '0' | '1') => [
  { code: 'PayPassword', content: payPassword, remark: '' },
  { code: 'UkeySwitch', content: ukey, remark: '' },
];

describe('paymentAuthMode', () => {
  it('runs directly when both switches are off or missing', () => {
    expect(paymentAuthMode(sw('0', '0'))).toBe('direct');
    expect(paymentAuthMode([])).toBe('direct');
    expect(paymentAuthMode(null)).toBe('direct');
  });
  it('asks for the pay password when only PayPassword is on', () => {
    expect(paymentAuthMode(sw('1', '0'))).toBe('password');
  });
  it('asks for a key signature whenever UkeySwitch is on', () => {
    expect(paymentAuthMode(sw('0', '1'))).toBe('ukey');
    expect(paymentAuthMode(sw('1', '1'))).toBe('ukey');
  });
});
