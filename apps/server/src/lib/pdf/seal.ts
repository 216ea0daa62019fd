/**
 * The enterprise seal (公章) drawn from the registered name: a red ring, a five-pointed star in the middle, the name
 * along the upper arc reading clockwise, and the unified social credit code across the lower part. One geometry in
 * a unit circle (centre 0,0, radius 1, y up) feeds both the SVG shown on the web and the PDF signature appearance.
 */
export const SEAL_RED = { r: 0.85, g: 0.1, b: 0.1, hex: '#d91a1a' } as const;

export interface SealGlyph {
  char: string;
  x: number;
  y: number;
  /** clockwise rotation in degrees: each character stands with its top towards the ring */
  rotation: number;
  size: number;
}

export interface SealGeometry {
  ring: { radius: number; width: number };
  /** ten points, outer and inner corners in turn, the first one at the top */
  star: Array<{ x: number; y: number }>;
  name: SealGlyph[];
  code: { text: string; x: number; y: number; size: number };
}

const RING_RADIUS = 0.95;
const RING_WIDTH = 0.06;
const NAME_RADIUS = 0.72;
const STAR_OUTER = 0.3;
// the inner corners of a regular five-pointed star lie at outer × sin 18° / sin 126°
const STAR_INNER = STAR_OUTER * (Math.sin(Math.PI / 10) / Math.sin((7 * Math.PI) / 10));
/** the name never spreads wider than this arc (degrees), nor its characters further apart than MAX_STEP */
const MAX_SPAN = 250;
const MAX_STEP = 30;

export function sealGeometry(enterpriseName: string, creditCode: string): SealGeometry {
  const chars = Array.from(enterpriseName.trim());
  const n = chars.length;
  const step = n > 1 ? Math.min(MAX_STEP, MAX_SPAN / (n - 1)) : 0;
  const start = (-step * (n - 1)) / 2;
  // a character's height fits the arc between neighbours and the band between ring and star
  const arcPerChar = ((step || MAX_STEP) * Math.PI * NAME_RADIUS) / 180;
  const size = Math.min(0.27, arcPerChar * 0.88);
  const glyphs = chars.map((char, i) => {
    const angle = start + i * step;
    const rad = (angle * Math.PI) / 180;
    return { char, x: NAME_RADIUS * Math.sin(rad), y: NAME_RADIUS * Math.cos(rad), rotation: angle, size };
  });
  const star = Array.from({ length: 10 }, (_, i) => {
    const radius = i % 2 === 0 ? STAR_OUTER : STAR_INNER;
    const rad = (i * Math.PI) / 5;
    return { x: radius * Math.sin(rad), y: radius * Math.cos(rad) };
  });
  return {
    ring: { radius: RING_RADIUS, width: RING_WIDTH },
    star,
    name: glyphs,
    code: { text: creditCode, x: 0, y: -0.58, size: 0.1 },
  };
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const round = (v: number) => Math.round(v * 1000) / 1000;

/** The seal as an SVG document, `size` pixels wide; SVG's y axis points down, so every y is negated. */
export function sealSvg(name: string, creditCode: string, size = 200): string {
  const g = sealGeometry(name, creditCode);
  const font = `font-family="'Noto Sans SC','Noto Sans CJK SC','Source Han Sans SC','Microsoft YaHei',sans-serif"`;
  const glyphs = g.name
    .map(
      (c) =>
        `<text x="${round(c.x)}" y="${round(-c.y)}" font-size="${round(c.size)}" transform="rotate(${round(c.rotation)} ${round(c.x)} ${round(-c.y)})">${escapeXml(c.char)}</text>`,
    )
    .join('');
  const star = g.star.map((p) => `${round(p.x)},${round(-p.y)}`).join(' ');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="-1 -1 2 2" role="img" aria-label="${escapeXml(name)}电子印章">` +
    `<circle cx="0" cy="0" r="${g.ring.radius}" fill="none" stroke="${SEAL_RED.hex}" stroke-width="${g.ring.width}"/>` +
    `<polygon points="${star}" fill="${SEAL_RED.hex}"/>` +
    `<g fill="${SEAL_RED.hex}" ${font} font-weight="700" text-anchor="middle" dominant-baseline="central">${glyphs}` +
    `<text x="0" y="${round(-g.code.y)}" font-size="${g.code.size}" font-weight="400">${escapeXml(g.code.text)}</text></g>` +
    `</svg>`
  );
}
