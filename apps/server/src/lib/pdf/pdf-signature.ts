/**
 * PDF signatures (PAdES, ISO 32000 §12.8): a signature field whose widget shows the seal, a signature dictionary
 * with a /ByteRange and a zero-filled /Contents placeholder, appended to the file as an incremental update so every
 * earlier signature keeps covering exactly the bytes it signed. The CMS goes into the placeholder afterwards.
 */
import type { PDFArray, PDFDict, PDFDocument, PDFFont, PDFPage, PDFRef } from '@cantoo/pdf-lib';
import { loadPdfLib, pdfLib } from './pdf-lib';
import { sha256 } from './cms';
import { embedCjkFont } from './cjk-font';
import { SEAL_RED, sealGeometry } from './seal';

/** Room for the CMS (two P-256 certificates, attributes and signature take about 2 KB). */
export const SIGNATURE_CONTENTS_BYTES = 8192;
/** A seal of 42 mm, the size of a real one, in points. */
export const SEAL_SIZE_PT = 119;
const PAGE_MARGIN_PT = 36;
const BYTE_RANGE_PLACEHOLDER = '/**********';

export type ByteRange = [number, number, number, number];

export interface SealPlacement {
  /** 0-based; the last page when left out */
  pageIndex?: number;
  /** lower-left corner in points; when left out, the bottom right, left of the seals already there */
  x?: number;
  y?: number;
  size?: number;
}

export interface PrepareSignatureInput {
  pdf: Uint8Array;
  seal: { name: string; creditCode: string };
  signerName: string;
  reason: string;
  location?: string;
  signingTime: Date;
  placement?: SealPlacement;
}

export interface PreparedSignature {
  /** the whole file with the new revision, /Contents still zeros */
  pdf: Uint8Array;
  byteRange: ByteRange;
  /** SHA-256 of the bytes the byte range covers: the CMS messageDigest */
  digest: Uint8Array;
  fieldName: string;
}

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');

/** Every signature field of the document, with its value dictionary when it is signed. */
export function signatureFields(doc: PDFDocument): Array<{ field: PDFDict; value: PDFDict | undefined }> {
  const { PDFArray, PDFDict, PDFName } = pdfLib();
  const acroForm = doc.catalog.lookupMaybe(PDFName.of('AcroForm'), PDFDict);
  const fields = acroForm?.lookupMaybe(PDFName.of('Fields'), PDFArray);
  const found: Array<{ field: PDFDict; value: PDFDict | undefined }> = [];
  const visit = (array: PDFArray | undefined, depth: number) => {
    if (!array || depth > 10) return;
    for (let i = 0; i < array.size(); i++) {
      const field = array.lookupMaybe(i, PDFDict);
      if (!field) continue;
      if (field.lookupMaybe(PDFName.of('FT'), PDFName) === PDFName.of('Sig')) {
        found.push({ field, value: field.lookupMaybe(PDFName.of('V'), PDFDict) });
      }
      visit(field.lookupMaybe(PDFName.of('Kids'), PDFArray), depth + 1);
    }
  };
  visit(fields, 0);
  return found;
}

/** Adds the signature field, the visible seal and the placeholder; computes what the signer must sign over. */
export async function prepareSignature(input: PrepareSignatureInput): Promise<PreparedSignature> {
  const { PDFArray, PDFDocument, PDFHexString, PDFName, PDFNumber, PDFString } = await loadPdfLib();
  const doc = await PDFDocument.load(input.pdf, { forIncrementalUpdate: true, updateMetadata: false });
  const pages = doc.getPages();
  const existing = signatureFields(doc);
  const fieldName = `Signature${existing.length + 1}`;
  const pageIndex = input.placement?.pageIndex ?? pages.length - 1;
  const page = pages[pageIndex];
  if (!page) throw new RangeError(`页码超出范围: ${pageIndex + 1}`);
  const size = input.placement?.size ?? SEAL_SIZE_PT;
  const { width } = page.getSize();
  // side by side from the right, so the second party's seal does not cover the first one's
  const x = input.placement?.x ?? Math.max(PAGE_MARGIN_PT, width - PAGE_MARGIN_PT - size - existing.length * (size + 12));
  const y = input.placement?.y ?? PAGE_MARGIN_PT;

  const font = await embedCjkFont(doc, 'bold');
  const appearance = sealAppearance(doc, font, input.seal, size);
  const byteRange = PDFArray.withContext(doc.context);
  byteRange.push(PDFNumber.of(0));
  for (let i = 0; i < 3; i++) byteRange.push(PDFName.of(BYTE_RANGE_PLACEHOLDER.slice(1)));
  const signature = doc.context.register(
    doc.context.obj({
      Type: 'Sig',
      Filter: 'Adobe.PPKLite',
      SubFilter: 'ETSI.CAdES.detached',
      ByteRange: byteRange,
      Contents: PDFHexString.of('0'.repeat(SIGNATURE_CONTENTS_BYTES * 2)),
      Name: PDFHexString.fromText(input.signerName),
      Reason: PDFHexString.fromText(input.reason),
      ...(input.location ? { Location: PDFHexString.fromText(input.location) } : {}),
      M: PDFString.fromDate(input.signingTime),
    }),
  );
  const widget = doc.context.register(
    doc.context.obj({
      Type: 'Annot',
      Subtype: 'Widget',
      FT: 'Sig',
      T: PDFString.of(fieldName),
      Rect: [x, y, x + size, y + size],
      V: signature,
      F: 4, // printed
      P: page.ref,
      AP: { N: appearance },
    }),
  );
  addAnnotation(page, widget);
  const acroForm = doc.catalog.getOrCreateAcroForm();
  acroForm.dict.set(PDFName.of('SigFlags'), PDFNumber.of(3)); // signatures exist; append only
  acroForm.addField(widget);

  const pdf = await doc.save({ useObjectStreams: false });
  return fillByteRange(pdf, fieldName);
}

function addAnnotation(page: PDFPage, widget: PDFRef) {
  const { PDFArray, PDFName } = pdfLib();
  const annots = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray);
  if (annots) annots.push(widget);
  else page.node.set(PDFName.of('Annots'), page.doc.context.obj([widget]));
}

/** Writes the real byte range over the placeholder (same width) and hashes what it covers. */
function fillByteRange(pdf: Uint8Array, fieldName: string): PreparedSignature {
  const text = latin1(pdf);
  // as the writer prints the array: spaces inside the brackets
  const placeholder = `[ 0 ${BYTE_RANGE_PLACEHOLDER} ${BYTE_RANGE_PLACEHOLDER} ${BYTE_RANGE_PLACEHOLDER} ]`;
  const rangeAt = text.lastIndexOf(placeholder);
  const contentsAt = text.lastIndexOf(`<${'0'.repeat(SIGNATURE_CONTENTS_BYTES * 2)}>`);
  if (rangeAt < 0 || contentsAt < 0) throw new Error('signature placeholder not found in the saved PDF');
  const contentsEnd = contentsAt + SIGNATURE_CONTENTS_BYTES * 2 + 2;
  const byteRange: ByteRange = [0, contentsAt, contentsEnd, pdf.length - contentsEnd];
  const written = `[${byteRange.join(' ')}]`.padEnd(placeholder.length, ' ');
  const out = new Uint8Array(pdf);
  out.set(Buffer.from(written, 'latin1'), rangeAt);
  const digest = sha256(out.subarray(0, byteRange[1]), out.subarray(byteRange[2]));
  return { pdf: out, byteRange, digest, fieldName };
}

/** Puts the DER CMS into the placeholder; the byte range, and so the digest, stay as prepared. */
export function embedSignature(prepared: { pdf: Uint8Array; byteRange: ByteRange }, cmsDer: Uint8Array): Uint8Array {
  const hex = Buffer.from(cmsDer).toString('hex');
  if (hex.length > SIGNATURE_CONTENTS_BYTES * 2) throw new Error('CMS larger than the signature placeholder');
  const out = new Uint8Array(prepared.pdf);
  // the hex starts after the '<' at byteRange[1]
  out.set(Buffer.from(hex, 'latin1'), prepared.byteRange[1] + 1);
  return out;
}

/** The seal as a form XObject: the signature widget's appearance. */
function sealAppearance(doc: PDFDocument, font: PDFFont, seal: { name: string; creditCode: string }, size: number): PDFRef {
  const g = sealGeometry(seal.name, seal.creditCode);
  const half = size / 2;
  const at = (v: number) => (v * half + half).toFixed(2);
  const scale = (v: number) => (v * half).toFixed(2);
  const ops: string[] = [`${SEAL_RED.r} ${SEAL_RED.g} ${SEAL_RED.b} rg ${SEAL_RED.r} ${SEAL_RED.g} ${SEAL_RED.b} RG`];
  // the ring: four Bézier quarter arcs
  const r = g.ring.radius;
  const k = 0.5523 * r;
  ops.push(
    `${scale(g.ring.width)} w ${at(r)} ${at(0)} m`,
    `${at(r)} ${at(k)} ${at(k)} ${at(r)} ${at(0)} ${at(r)} c`,
    `${at(-k)} ${at(r)} ${at(-r)} ${at(k)} ${at(-r)} ${at(0)} c`,
    `${at(-r)} ${at(-k)} ${at(-k)} ${at(-r)} ${at(0)} ${at(-r)} c`,
    `${at(k)} ${at(-r)} ${at(r)} ${at(-k)} ${at(r)} ${at(0)} c S`,
  );
  ops.push(g.star.map((p, i) => `${at(p.x)} ${at(p.y)} ${i === 0 ? 'm' : 'l'}`).join(' ') + ' h f');
  const text = (char: string, x: number, y: number, rotation: number, fontSize: number) => {
    const pt = fontSize * half;
    const w = font.widthOfTextAtSize(char, pt);
    // centre the glyph on (x, y): half its width back along the baseline, a third of its height down
    const phi = (-rotation * Math.PI) / 180;
    const cos = Math.cos(phi);
    const sin = Math.sin(phi);
    const dx = -w / 2;
    const dy = -0.36 * pt;
    const tx = x * half + half + cos * dx - sin * dy;
    const ty = y * half + half + sin * dx + cos * dy;
    return `BT /F1 ${pt.toFixed(2)} Tf ${cos.toFixed(4)} ${sin.toFixed(4)} ${(-sin).toFixed(4)} ${cos.toFixed(4)} ${tx.toFixed(2)} ${ty.toFixed(2)} Tm ${font.encodeText(char).toString()} Tj ET`;
  };
  for (const c of g.name) ops.push(text(c.char, c.x, c.y, c.rotation, c.size));
  ops.push(text(g.code.text, g.code.x, g.code.y, 0, g.code.size));
  const stream = doc.context.flateStream(ops.join('\n'), {
    Type: 'XObject',
    Subtype: 'Form',
    BBox: [0, 0, size, size],
    Resources: { Font: { F1: font.ref } },
  });
  return doc.context.register(stream);
}
