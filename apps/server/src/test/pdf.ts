import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, rgb } from '@cantoo/pdf-lib';
import { embedCjkFont } from '../lib/pdf/cjk-font';

/** A one-page contract-like PDF with Chinese text in the embedded Noto Sans SC subset. */
export async function sampleContractPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await embedCjkFont(doc);
  const page = doc.addPage([595, 842]);
  page.drawText('煤炭买卖合同', { x: 230, y: 780, size: 22, font, color: rgb(0, 0, 0) });
  page.drawText('合同编号：HT20261123001　数量：5,000.000 吨　金额：人民币叁佰叁拾万元整', { x: 60, y: 730, size: 11, font });
  return doc.save({ useObjectStreams: false });
}

/** poppler's pdfsig report of a PDF: an independent verifier (it exits non-zero on a bad signature). */
export function pdfsig(pdf: Uint8Array): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-pdfsig-')), 'signed.pdf');
  fs.writeFileSync(file, pdf);
  const run = spawnSync('pdfsig', [file], { encoding: 'utf8' });
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  if (run.error) throw run.error;
  return `${run.stdout}${run.stderr}`;
}

/** A byte of the first content stream flipped: inside every signature's range. */
export function tamper(pdf: Uint8Array): Uint8Array {
  const out = new Uint8Array(pdf);
  const at = Buffer.from(out).indexOf('stream') + 20;
  out[at] = out[at]! ^ 0x01;
  return out;
}
