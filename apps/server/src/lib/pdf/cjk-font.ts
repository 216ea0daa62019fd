import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import type FontkitModule from '@cantoo/fontkit';
import type { PDFDocument, PDFFont } from '@cantoo/pdf-lib';

/**
 * The Chinese font of every PDF the platform makes: Noto Sans SC (SIL Open Font Licence), the static TTFs shipped
 * by `@expo-google-fonts/noto-sans-sc`. Only the glyphs a document uses are embedded (a subset of a few kilobytes),
 * so every reader shows the same text whatever fonts it has.
 */
export type CjkWeight = 'regular' | 'bold';

const FONT_FILES: Record<CjkWeight, string> = {
  regular: '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
  bold: '@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf',
};

const require = createRequire(import.meta.url);
// each TTF is about 10 MB: read once per process, on first use
const fontBytes = new Map<CjkWeight, Promise<Uint8Array>>();

export function cjkFontBytes(weight: CjkWeight = 'regular'): Promise<Uint8Array> {
  let bytes = fontBytes.get(weight);
  if (!bytes) {
    bytes = fs.readFile(require.resolve(FONT_FILES[weight])).then((b) => new Uint8Array(b));
    fontBytes.set(weight, bytes);
  }
  return bytes;
}

/**
 * Embeds the subset of Noto Sans SC this document will use. `subsetTag` (six capital letters) names it as PDF
 * subsets are named, e.g. ABCDEF+NotoSansSC-Regular; derive it from the document's content so the name is stable.
 */
export async function embedCjkFont(doc: PDFDocument, weight: CjkWeight = 'regular', subsetTag?: string): Promise<PDFFont> {
  // loaded with the first PDF, not at start-up (README start-up time)
  const fontkit = ((await import('@cantoo/fontkit')) as unknown as { default: typeof FontkitModule }).default;
  doc.registerFontkit(fontkit);
  const customName = subsetTag ? `${subsetTag}+NotoSansSC-${weight === 'bold' ? 'Bold' : 'Regular'}` : undefined;
  return doc.embedFont(await cjkFontBytes(weight), { subset: true, customName });
}
