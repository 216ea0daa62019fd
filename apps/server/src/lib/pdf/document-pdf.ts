import { createHash } from 'node:crypto';
import type { Color, PDFDocument, PDFFont, PDFPage } from '@cantoo/pdf-lib';
import { loadPdfLib, pdfLib } from './pdf-lib';
import { embedCjkFont } from './cjk-font';
import { SEAL_SIZE_PT } from './pdf-signature';

/**
 * Every text document the platform generates (contracts, announcement attachments) as an A4 PDF in the embedded
 * Noto Sans SC subset: paragraphs wrapped by measured width, '# ' a centred bold title, '## ' a bold heading, a
 * header line and "第 N 页 共 M 页" on every page, and an optional two-column signature block at a fixed place on
 * the last page, so seals can be put there by coordinates. The same input gives the same bytes.
 */
export interface DocumentPdfInput {
  /** the document's title in the PDF metadata and at the left of the header line */
  title: string;
  /** the right of the header line, e.g. the contract number */
  header?: string;
  paragraphs: string[];
  /** written as the creation and modification dates, so a re-render is byte-identical */
  createdAt: Date;
  /**
   * Two columns at the bottom of the last page. In each column the first line (the party) is written above a
   * room of SEAL_SIZE_PT left empty for the seal (SIGNATURE_SEAL_ROOM), the other lines (the date) below it.
   */
  signatureBlock?: { left: string[]; right: string[] };
}

/** A4 in points. */
export const PAGE_WIDTH = 595.28;
export const PAGE_HEIGHT = 841.89;
const MARGIN_X = 72;
const MARGIN_TOP = 80;
const MARGIN_BOTTOM = 72;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN_X;
const HEADER_Y = PAGE_HEIGHT - 48;
const FOOTER_Y = 40;

const BODY = { size: 11, leading: 20, gapBefore: 4 };
const TITLE = { size: 18, leading: 28, gapBefore: 0, gapAfter: 14 };
const HEADING = { size: 12, leading: 22, gapBefore: 10 };
const INDENT_EM = 2;
const SMALL = 9;
// pdf-lib is loaded with the first document (pdf-lib.ts): the colours are made then
let GREY: Color;
let BLACK: Color;

// the signature block: two columns; the seal room sits in the middle of each, lines below start under it
const COLUMN_GAP = 30;
const COLUMN_WIDTH = (CONTENT_WIDTH - COLUMN_GAP) / 2;
const SIGN_LEADING = 20;
const SIGN_BELOW_LINES = 2;
/** room left between a seal and the text above and below it */
const SEAL_PADDING = 8;
const SEAL_Y = MARGIN_BOTTOM + SIGN_BELOW_LINES * SIGN_LEADING + SEAL_PADDING;
/** where the seal of each column goes on the last page (points, lower-left corner) */
export const SIGNATURE_SEAL_ROOM = {
  left: { x: Math.round(MARGIN_X + (COLUMN_WIDTH - SEAL_SIZE_PT) / 2), y: SEAL_Y, size: SEAL_SIZE_PT },
  right: { x: Math.round(MARGIN_X + COLUMN_WIDTH + COLUMN_GAP + (COLUMN_WIDTH - SEAL_SIZE_PT) / 2), y: SEAL_Y, size: SEAL_SIZE_PT },
} as const;
/** baseline of the lowest line of the party name, above the seal room */
const SIGN_NAME_BASELINE = SEAL_Y + SEAL_SIZE_PT + SEAL_PADDING + 4;

/** Characters that never start a line (they hang into the margin instead) and never end one. */
const NO_LINE_START = new Set(Array.from('，。、；：？！）》」』】〕”’%,.;:?!)]}'));
const NO_LINE_END = new Set(Array.from('（《「『【〔“‘([{¥￥'));
/** a run of these is one word: numbers, codes and Latin words are not broken */
const WORD_CHAR = /[A-Za-z0-9.,:/+\-_%#@&*=¥·]/;

export class Measure {
  private cache = new Map<string, number>();
  constructor(
    readonly font: PDFFont,
    readonly size: number,
  ) {}
  width(text: string): number {
    let total = 0;
    for (const ch of text) {
      let w = this.cache.get(ch);
      if (w === undefined) {
        w = this.font.widthOfTextAtSize(ch, this.size);
        this.cache.set(ch, w);
      }
      total += w;
    }
    return total;
  }
}

function tokens(text: string): string[] {
  const out: string[] = [];
  let word = '';
  for (const ch of text) {
    if (WORD_CHAR.test(ch)) {
      word += ch;
      continue;
    }
    if (word) out.push(word);
    word = '';
    out.push(ch);
  }
  if (word) out.push(word);
  return out;
}

/** Breaks a paragraph into lines no wider than `width` (the first one `firstWidth`), by CJK line-breaking rules. */
export function wrapText(text: string, measure: Measure, width: number, firstWidth = width): string[] {
  const lines: string[] = [];
  let line = '';
  let lineWidth = 0;
  const limit = () => (lines.length === 0 ? firstWidth : width);
  const push = () => {
    lines.push(line);
    line = '';
    lineWidth = 0;
  };
  for (const token of tokens(text)) {
    const w = measure.width(token);
    if (lineWidth + w <= limit() || line === '') {
      if (w > limit()) {
        // a word longer than the line: break it by characters
        for (const ch of token) {
          const cw = measure.width(ch);
          if (lineWidth + cw > limit() && line) push();
          line += ch;
          lineWidth += cw;
        }
        continue;
      }
      line += token;
      lineWidth += w;
      continue;
    }
    if (NO_LINE_START.has(token)) {
      // closing punctuation hangs at the end of the line rather than opening the next one
      line += token;
      lineWidth += w;
      continue;
    }
    if (token.trim() === '') {
      push();
      continue;
    }
    // an opening bracket moves down with what it opens
    let carry = '';
    const chars = Array.from(line);
    while (chars.length > 1 && NO_LINE_END.has(chars.at(-1)!)) carry = chars.pop()! + carry;
    line = chars.join('').trimEnd();
    push();
    line = carry + token;
    lineWidth = measure.width(line);
  }
  if (line) lines.push(line);
  return lines;
}

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}

class Layout {
  readonly pages: PDFPage[] = [];
  private page!: PDFPage;
  /** baseline of the next line, from the bottom */
  y = 0;

  constructor(private readonly doc: PDFDocument) {
    this.newPage();
  }

  newPage() {
    this.page = this.doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    this.pages.push(this.page);
    this.y = PAGE_HEIGHT - MARGIN_TOP;
  }

  /** Moves down by `leading` for the next line, opening a new page when it would fall into the bottom margin. */
  nextLine(leading: number, gapBefore = 0) {
    const atTop = this.y === PAGE_HEIGHT - MARGIN_TOP;
    const y = this.y - (atTop ? 0 : gapBefore) - leading;
    if (y < MARGIN_BOTTOM) {
      this.newPage();
      this.y -= leading;
    } else {
      this.y = y;
    }
    return this.page;
  }
}

function drawParagraph(layout: Layout, fonts: Fonts, paragraph: string) {
  if (paragraph.startsWith('# ')) {
    const m = new Measure(fonts.bold, TITLE.size);
    const lines = wrapText(paragraph.slice(2).trim(), m, CONTENT_WIDTH);
    lines.forEach((line, i) => {
      const page = layout.nextLine(TITLE.leading, i === 0 ? TITLE.gapBefore : 0);
      page.drawText(line, { x: (PAGE_WIDTH - m.width(line)) / 2, y: layout.y, size: TITLE.size, font: fonts.bold, color: BLACK });
    });
    layout.y -= TITLE.gapAfter;
    return;
  }
  if (paragraph.startsWith('## ')) {
    const m = new Measure(fonts.bold, HEADING.size);
    const lines = wrapText(paragraph.slice(3).trim(), m, CONTENT_WIDTH);
    // keep a heading with the first line of its section
    if (layout.y - HEADING.gapBefore - HEADING.leading * lines.length - BODY.leading < MARGIN_BOTTOM) layout.newPage();
    lines.forEach((line, i) => {
      const page = layout.nextLine(HEADING.leading, i === 0 ? HEADING.gapBefore : 0);
      page.drawText(line, { x: MARGIN_X, y: layout.y, size: HEADING.size, font: fonts.bold, color: BLACK });
    });
    return;
  }
  const m = new Measure(fonts.regular, BODY.size);
  const indent = INDENT_EM * BODY.size;
  const lines = wrapText(paragraph.trim(), m, CONTENT_WIDTH, CONTENT_WIDTH - indent);
  lines.forEach((line, i) => {
    const page = layout.nextLine(BODY.leading, i === 0 ? BODY.gapBefore : 0);
    const x = MARGIN_X + (i === 0 ? indent : 0);
    // Chinese text is justified: every line but the last spreads its characters to the right margin
    const spacing = i < lines.length - 1 ? justifySpacing(line, m, PAGE_WIDTH - MARGIN_X - x) : 0;
    if (spacing) page.pushOperators(pdfLib().setCharacterSpacing(spacing));
    page.drawText(line, { x, y: layout.y, size: BODY.size, font: fonts.regular, color: BLACK });
    if (spacing) page.pushOperators(pdfLib().setCharacterSpacing(0));
  });
}

/** Extra space after each character that makes the line exactly `width` wide; 0 when it would look stretched. */
function justifySpacing(line: string, m: Measure, width: number): number {
  const count = Array.from(line).length;
  const extra = width - m.width(line);
  if (count < 2 || extra <= 0) return 0;
  const spacing = extra / (count - 1);
  // a line broken before a long number or code keeps its gap rather than spreading letters apart
  return spacing <= m.size * 0.12 ? Number(spacing.toFixed(3)) : 0;
}

/** The signature block at its fixed place on the last page, on a new page when the text reaches down there. */
function drawSignatureBlock(layout: Layout, fonts: Fonts, block: { left: string[]; right: string[] }) {
  const m = new Measure(fonts.regular, BODY.size);
  const columns = [block.left, block.right].map((lines) => ({
    name: lines.slice(0, 1).flatMap((line) => wrapText(line, m, COLUMN_WIDTH)),
    below: lines.slice(1, 1 + SIGN_BELOW_LINES).flatMap((line) => wrapText(line, m, COLUMN_WIDTH).slice(0, 1)),
  }));
  const nameLines = Math.max(...columns.map((c) => c.name.length));
  const blockTop = SIGN_NAME_BASELINE + (nameLines - 1) * SIGN_LEADING + BODY.size;
  if (layout.y - BODY.leading < blockTop) layout.newPage();
  const page = layout.pages.at(-1)!;
  columns.forEach((column, i) => {
    const x = MARGIN_X + i * (COLUMN_WIDTH + COLUMN_GAP);
    column.name.forEach((line, j) => {
      const y = SIGN_NAME_BASELINE + (column.name.length - 1 - j) * SIGN_LEADING;
      page.drawText(line, { x, y, size: BODY.size, font: fonts.regular, color: BLACK });
    });
    column.below.forEach((line, j) => {
      const y = SEAL_Y - SEAL_PADDING - BODY.size - j * SIGN_LEADING;
      page.drawText(line, { x, y, size: BODY.size, font: fonts.regular, color: BLACK });
    });
  });
}

function drawHeaderAndFooter(pages: PDFPage[], fonts: Fonts, title: string, header: string | undefined) {
  const m = new Measure(fonts.regular, SMALL);
  pages.forEach((page, i) => {
    page.drawText(title, { x: MARGIN_X, y: HEADER_Y, size: SMALL, font: fonts.regular, color: GREY });
    if (header) page.drawText(header, { x: PAGE_WIDTH - MARGIN_X - m.width(header), y: HEADER_Y, size: SMALL, font: fonts.regular, color: GREY });
    page.drawLine({ start: { x: MARGIN_X, y: HEADER_Y - 6 }, end: { x: PAGE_WIDTH - MARGIN_X, y: HEADER_Y - 6 }, thickness: 0.5, color: GREY });
    const footer = `第 ${i + 1} 页 共 ${pages.length} 页`;
    page.drawText(footer, { x: (PAGE_WIDTH - m.width(footer)) / 2, y: FOOTER_Y, size: SMALL, font: fonts.regular, color: GREY });
  });
}

/** Six capital letters from the document's text: the same text gives the same font name, another text another. */
function subsetTag(input: DocumentPdfInput, weight: string): string {
  const hash = createHash('sha256').update(JSON.stringify([weight, input.title, input.header, input.paragraphs, input.signatureBlock])).digest();
  return Array.from(hash.subarray(0, 6), (b) => String.fromCharCode(65 + (b % 26))).join('');
}

export async function renderDocumentPdf(input: DocumentPdfInput): Promise<Uint8Array> {
  const { PDFDocument, rgb } = await loadPdfLib();
  GREY ??= rgb(0.35, 0.35, 0.35);
  BLACK ??= rgb(0, 0, 0);
  const doc = await PDFDocument.create({ updateMetadata: false });
  const regular = await embedCjkFont(doc, 'regular', subsetTag(input, 'regular'));
  const needsBold = input.paragraphs.some((p) => p.startsWith('# ') || p.startsWith('## '));
  const fonts: Fonts = { regular, bold: needsBold ? await embedCjkFont(doc, 'bold', subsetTag(input, 'bold')) : regular };

  const layout = new Layout(doc);
  for (const paragraph of input.paragraphs) {
    if (paragraph.trim()) drawParagraph(layout, fonts, paragraph);
  }
  if (input.signatureBlock) drawSignatureBlock(layout, fonts, input.signatureBlock);
  drawHeaderAndFooter(layout.pages, fonts, input.title, input.header);

  doc.setTitle(input.title, { showInWindowTitleBar: true });
  doc.setLanguage('zh-CN');
  doc.setProducer('CoalX');
  doc.setCreator('CoalX 煤炭现货交易平台');
  doc.setCreationDate(input.createdAt);
  doc.setModificationDate(input.createdAt);
  // no object streams: the signing step appends incremental updates that poppler and Acrobat read most reliably
  return doc.save({ useObjectStreams: false });
}
