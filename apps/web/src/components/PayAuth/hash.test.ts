import { describe, expect, it } from 'vitest';
import { hashPayPassword, isPayPasswordDigits, sha256 } from './hash';

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const utf8 = (text: string) => new TextEncoder().encode(text);

describe('hashPayPassword', () => {
  it('is SHA-256 hex of `${clientId}:${digits}` (vector computed with sha256sum)', async () => {
    // printf 'CX000001:123456' | sha256sum
    await expect(hashPayPassword('CX000001', '123456')).resolves.toBe(
      '8aa401bc29b0712168a6d20947c3ca8a00964a304db7f471777eb2b693fd856f',
    );
  });

  it('differs per enterprise for the same digits', async () => {
    expect(await hashPayPassword('CX000001', '123456')).not.toBe(await hashPayPassword('CX000002', '123456'));
  });

  it('refuses anything but six digits, and a missing clientId', async () => {
    await expect(hashPayPassword('CX000001', '12345')).rejects.toThrow('支付密码为 6 位数字');
    await expect(hashPayPassword('CX000001', '12345a')).rejects.toThrow('支付密码为 6 位数字');
    await expect(hashPayPassword('', '123456')).rejects.toThrow('未获取到企业信息');
    expect(isPayPasswordDigits('000000')).toBe(true);
    expect(isPayPasswordDigits(' 123456')).toBe(false);
  });
});

describe('sha256 fallback (no crypto.subtle on plain http)', () => {
  it('matches the FIPS 180-4 vectors', () => {
    expect(hex(sha256(utf8('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hex(sha256(utf8('')))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hex(sha256(utf8('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')))).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('agrees with crypto.subtle on multi-block and non-ASCII input', async () => {
    for (const text of ['CX000001:123456', 'x'.repeat(1000), '企业:654321', 'a'.repeat(55), 'a'.repeat(56), 'a'.repeat(64)]) {
      const expected = hex(new Uint8Array(await crypto.subtle.digest('SHA-256', utf8(text))));
      expect(hex(sha256(utf8(text)))).toBe(expected);
    }
  });
});
