/**
 * A small PDF writer for generated Chinese documents (demo announcements, later notices): A4 pages of wrapped
 * text in the standard Chinese font STSong-Light with the UniGB-UCS2-H encoding, which PDF viewers (pdf.js with
 * its CMaps) provide themselves, so no font is embedded and the files stay a few kilobytes.
 */
export interface PdfBlock {
  text: string;
  size?: number;
  /** extra space before the block, in points */
  gap?: number;
  center?: boolean;
}

const PAGE_WIDTH = 595;
const PAGE_HEIGHT = 842;
const MARGIN = 60;

function ucs2Hex(text: string): string {
  let hex = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    // outside the BMP there is no UCS-2 code: a full-width question mark stands in
    hex += (code > 0xffff ? 0xff1f : code).toString(16).padStart(4, '0');
  }
  return hex;
}

/** Wraps by width: CJK characters are a full em, others half. */
function wrap(text: string, size: number): string[] {
  const maxUnits = (PAGE_WIDTH - 2 * MARGIN) / size;
  const lines: string[] = [];
  let line = '';
  let units = 0;
  for (const ch of text) {
    const w = ch.charCodeAt(0) < 0x2e80 ? 0.5 : 1;
    if (units + w > maxUnits) {
      lines.push(line);
      line = '';
      units = 0;
    }
    line += ch;
    units += w;
  }
  if (line) lines.push(line);
  return lines;
}

export function buildPdf(title: string, blocks: PdfBlock[]): Buffer {
  const pages: string[] = [];
  let ops: string[] = [];
  let y = PAGE_HEIGHT - MARGIN;
  const newPage = () => {
    pages.push(ops.join('\n'));
    ops = [];
    y = PAGE_HEIGHT - MARGIN;
  };
  for (const block of blocks) {
    const size = block.size ?? 12;
    y -= block.gap ?? 0;
    for (const line of wrap(block.text, size)) {
      if (y - size < MARGIN) newPage();
      y -= size * 1.6;
      const units = [...line].reduce((n, ch) => n + (ch.charCodeAt(0) < 0x2e80 ? 0.5 : 1), 0);
      const x = block.center ? (PAGE_WIDTH - units * size) / 2 : MARGIN;
      ops.push(`BT /F1 ${size} Tf ${x.toFixed(1)} ${y.toFixed(1)} Td <${ucs2Hex(line)}> Tj ET`);
    }
  }
  pages.push(ops.join('\n'));

  const objects: string[] = [];
  const add = (body: string) => objects.push(body) ;
  add('<< /Type /Catalog /Pages 2 0 R >>');
  const pageIds = pages.map((_, i) => 6 + i * 2);
  add(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`);
  add('<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light /Encoding /UniGB-UCS2-H /DescendantFonts [4 0 R] >>');
  add('<< /Type /Font /Subtype /CIDFontType0 /BaseFont /STSong-Light /CIDSystemInfo << /Registry (Adobe) /Ordering (GB1) /Supplement 4 >> /FontDescriptor 5 0 R /DW 1000 >>');
  add('<< /Type /FontDescriptor /FontName /STSong-Light /Flags 6 /FontBBox [-25 -254 1000 880] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 880 /StemV 93 >>');
  for (const [i, content] of pages.entries()) {
    const contentId = pageIds[i]! + 1;
    add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] /Resources << /Font << /F1 3 0 R >> >> /Contents ${contentId} 0 R >>`);
    add(`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`);
  }
  const infoId = objects.length + 1;
  add(`<< /Title <feff${ucs2Hex(title)}> /Producer (CoalX) >>`);

  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${infoId} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
