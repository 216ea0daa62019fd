import { describe, expect, it } from 'vitest';
import { sealGeometry, sealSvg } from './seal';

const distance = (p: { x: number; y: number }) => Math.hypot(p.x, p.y);

describe('enterprise seal geometry', () => {
  it('spreads the name clockwise along the upper arc, symmetric about the top, each character upright to the ring', () => {
    const g = sealGeometry('晋北煤业集团有限公司', '91140600MA0KXXXX1A');
    expect(g.name.map((c) => c.char).join('')).toBe('晋北煤业集团有限公司');
    const first = g.name[0]!;
    const last = g.name.at(-1)!;
    // first character on the left, last on the right, mirror images of each other
    expect(first.x).toBeLessThan(0);
    expect(last.x).toBeCloseTo(-first.x, 6);
    expect(last.y).toBeCloseTo(first.y, 6);
    expect(last.rotation).toBeCloseTo(-first.rotation, 6);
    for (let i = 1; i < g.name.length; i++) expect(g.name[i]!.rotation).toBeGreaterThan(g.name[i - 1]!.rotation);
    // inside the ring, outside the star, and never further round than 125° from the top
    for (const c of g.name) {
      expect(distance(c) + c.size / 2).toBeLessThan(g.ring.radius - g.ring.width / 2);
      expect(distance(c) - c.size / 2).toBeGreaterThan(0.3);
      expect(Math.abs(c.rotation)).toBeLessThanOrEqual(125);
      // the character's rotation points it at its own position: angle from the top, clockwise
      expect((Math.atan2(c.x, c.y) * 180) / Math.PI).toBeCloseTo(c.rotation, 6);
    }
  });

  it('keeps neighbouring characters apart for short and long names alike', () => {
    for (const name of ['煤业', '鄂尔多斯市东胜煤炭有限公司', '内蒙古自治区鄂尔多斯市伊金霍洛旗某某能源集团有限责任公司']) {
      const g = sealGeometry(name, '91150000MA0N000000');
      for (let i = 1; i < g.name.length; i++) {
        const a = g.name[i - 1]!;
        const b = g.name[i]!;
        expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeGreaterThanOrEqual(a.size * 0.85);
      }
    }
  });

  it('draws a regular five-pointed star with its first point at the top', () => {
    const { star } = sealGeometry('晋北煤业', '91140600MA0KXXXX1A');
    expect(star).toHaveLength(10);
    expect(star[0]!.x).toBeCloseTo(0, 9);
    expect(star[0]!.y).toBeGreaterThan(0);
    const outer = star.filter((_, i) => i % 2 === 0).map(distance);
    const inner = star.filter((_, i) => i % 2 === 1).map(distance);
    for (const r of outer) expect(r).toBeCloseTo(outer[0]!, 9);
    for (const r of inner) expect(r).toBeCloseTo(inner[0]!, 9);
    // the inner corners of a regular pentagram: outer × 0.38197
    expect(inner[0]! / outer[0]!).toBeCloseTo(0.381966, 5);
  });

  it('puts the credit code below the star, inside the ring, and escapes text in the SVG', () => {
    const g = sealGeometry('晋北煤业', '91140600MA0KXXXX1A');
    expect(g.code.text).toBe('91140600MA0KXXXX1A');
    expect(g.code.y).toBeLessThan(-0.3);
    const svg = sealSvg('A&B<煤业>', '91140600MA0KXXXX1A', 160);
    expect(svg).toMatch(/^<svg [^>]*width="160"/);
    expect(svg).toContain('<circle');
    expect(svg).toContain('<polygon');
    expect(svg).toContain('&#38;');
    expect(svg).not.toContain('<煤');
    expect(svg).toContain('>91140600MA0KXXXX1A</text>');
  });
});
