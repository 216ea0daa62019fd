import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bytesToHex, sha256, sha256TextHex } from './sha256';

const node = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('sha256 (pure, synchronous)', () => {
  it('gives the FIPS 180-4 vectors', () => {
    expect(sha256TextHex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256TextHex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256TextHex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
  });

  it("agrees with Node's createHash at every length around the block and padding edges, and on Chinese text", () => {
    for (let length = 0; length <= 300; length++) {
      const bytes = new Uint8Array(randomBytes(length));
      expect(bytesToHex(sha256(bytes)), `length ${length}`).toBe(node(bytes));
    }
    const line = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855|JJ202611220001|1|竞买人1|82000|2026-11-22T02:30:00.123Z';
    expect(sha256TextHex(line)).toBe(createHash('sha256').update(line, 'utf8').digest('hex'));
    const big = new Uint8Array(randomBytes(70_000));
    expect(bytesToHex(sha256(big))).toBe(node(big));
  });
});
