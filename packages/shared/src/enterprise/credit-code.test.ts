import { describe, expect, it } from 'vitest';
import { creditCodeCheckChar, isValidCreditCode } from './credit-code';

describe('unified social credit code', () => {
  it('accepts a published valid code', () => {
    // a widely published code of a listed company, check digit included
    expect(isValidCreditCode('91350100M000100Y43')).toBe(true);
  });
  it('refuses a changed check character, forbidden letters and wrong lengths', () => {
    expect(isValidCreditCode('91350100M000100Y44')).toBe(false);
    expect(isValidCreditCode('91350100M000100YI3')).toBe(false);
    expect(isValidCreditCode('91350100M000100Y4')).toBe(false);
  });
  it('computes the check character that makes a code valid', () => {
    const body = '91140000MA0GRL1X0';
    const code = body + creditCodeCheckChar(body);
    expect(isValidCreditCode(code)).toBe(true);
  });
});
