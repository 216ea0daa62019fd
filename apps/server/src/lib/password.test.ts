import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password';

describe('password hashing', () => {
  it('verifies the right password only, with a fresh salt each time', async () => {
    const a = await hashPassword('Trader#2026');
    const b = await hashPassword('Trader#2026');
    expect(a).not.toBe(b);
    expect(a.startsWith('scrypt$32768$8$1$')).toBe(true);
    expect(await verifyPassword('Trader#2026', a)).toBe(true);
    expect(await verifyPassword('trader#2026', a)).toBe(false);
    expect(await verifyPassword('Trader#2026', 'garbage')).toBe(false);
  });
});
