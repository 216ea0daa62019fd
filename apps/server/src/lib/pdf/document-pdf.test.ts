import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from '@cantoo/pdf-lib';
import { renderContractText, sampleContractContext } from '@coalx/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TEMPLATES } from '../../modules/contract/default-templates';
import { CONTRACT_SEAL_PLACEMENT, renderContractPdf } from './contract-pdf';
import { PAGE_HEIGHT, renderDocumentPdf } from './document-pdf';
import { prepareSignature } from './pdf-signature';

/** Runs a poppler tool on the PDF and returns its output. */
function poppler(tool: string, pdf: Uint8Array, args: string[] = []): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-docpdf-'));
  const file = path.join(dir, 'doc.pdf');
  fs.writeFileSync(file, pdf);
  const run = spawnSync(tool, [...args, file, ...(tool === 'pdftotext' ? ['-'] : [])], { encoding: 'utf8' });
  fs.rmSync(dir, { recursive: true, force: true });
  if (run.error) throw run.error;
  expect(run.status).toBe(0);
  return run.stdout;
}

interface Box {
  word: string;
  page: number;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}
/** Every word with its box (top-left origin, points), from pdftotext -bbox. */
function wordBoxes(pdf: Uint8Array): Box[] {
  const html = poppler('pdftotext', pdf, ['-bbox']);
  const boxes: Box[] = [];
  let page = 0;
  for (const line of html.split('\n')) {
    if (line.includes('<page ')) page++;
    const m = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*)<\/word>/.exec(line);
    if (m) boxes.push({ page, xMin: +m[1]!, yMin: +m[2]!, xMax: +m[3]!, yMax: +m[4]!, word: m[5]! });
  }
  return boxes;
}

const ctx = sampleContractContext('listing_sale');
const contractInput = {
  contractNo: ctx.contractNo,
  title: '煤炭买卖合同',
  paragraphs: renderContractText(DEFAULT_TEMPLATES.listing_sale.body, ctx),
  createdAt: new Date('2026-11-22T02:30:00Z'),
  seller: ctx.seller,
  buyer: ctx.buyer,
};

describe('contract PDF', () => {
  let pdf: Uint8Array;
  beforeAll(async () => {
    pdf = await renderContractPdf(contractInput);
  });

  it('carries the contract number, the amount and its capitals as extractable text', () => {
    const text = poppler('pdftotext', pdf, ['-raw']);
    expect(text).toContain('合同编号：HT202611220001');
    expect(text).toContain('¥845,500.00');
    expect(text).toContain('捌拾肆万伍仟伍佰元整');
    expect(text).toContain('第 1 页 共 ');
    expect(text).toContain('卖方（盖章）：晋北煤业有限公司');
    expect(text).toContain('买方（盖章）：华东电力燃料有限公司');
  });

  it('embeds subsets of Noto Sans SC and nothing else', () => {
    const fonts = poppler('pdffonts', pdf).split('\n').slice(2).filter(Boolean);
    expect(fonts.length).toBeGreaterThan(0);
    for (const line of fonts) {
      expect(line).toMatch(/^[A-Z]{6}\+NotoSansSC/);
      // columns: name type encoding emb sub uni
      expect(line).toMatch(/\s+yes\s+yes\s+yes\s+\d+\s+\d+\s*$/);
    }
  });

  it('is byte-identical when rendered twice, with the given date and title in its metadata', async () => {
    const again = await renderContractPdf(contractInput);
    expect(Buffer.from(again).equals(Buffer.from(pdf))).toBe(true);
    const doc = await PDFDocument.load(pdf, { updateMetadata: false });
    expect(doc.getTitle()).toBe('煤炭买卖合同');
    expect(doc.getCreationDate()?.toISOString()).toBe('2026-11-22T02:30:00.000Z');
    const other = await renderContractPdf({ ...contractInput, createdAt: new Date('2026-11-23T02:30:00Z') });
    expect(Buffer.from(other).equals(Buffer.from(pdf))).toBe(false);
  });

  it('leaves room for both seals on the last page, over no text and not over each other', async () => {
    const { seller, buyer } = CONTRACT_SEAL_PLACEMENT;
    expect(seller.x + seller.size).toBeLessThan(buyer.x);
    const doc = await PDFDocument.load(pdf);
    const last = doc.getPageCount();
    const boxes = wordBoxes(pdf).filter((b) => b.page === last);
    for (const seal of [seller, buyer]) {
      const top = PAGE_HEIGHT - seal.y - seal.size;
      const bottom = PAGE_HEIGHT - seal.y;
      const under = boxes.filter((b) => b.xMax > seal.x && b.xMin < seal.x + seal.size && b.yMax > top && b.yMin < bottom);
      expect(under.map((b) => b.word)).toEqual([]);
    }
    // each party's name is just above its own seal, the date just below
    const name = boxes.find((b) => b.word.includes('晋北煤业'))!;
    expect(PAGE_HEIGHT - name.yMax).toBeGreaterThan(seller.y + seller.size);
    expect(PAGE_HEIGHT - name.yMax - (seller.y + seller.size)).toBeLessThan(30);
    expect(name.xMax).toBeLessThan(buyer.x);
    // the signing module draws the seal there without complaint
    const prepared = await prepareSignature({
      pdf,
      seal: { name: ctx.seller.name, creditCode: ctx.seller.creditCode },
      signerName: '王建国',
      reason: '签署合同',
      signingTime: new Date('2026-11-22T03:00:00Z'),
      placement: CONTRACT_SEAL_PLACEMENT.seller,
    });
    expect(prepared.pdf.length).toBeGreaterThan(pdf.length);
  });

  it('puts the signature block on a page of its own when the text reaches down to it', async () => {
    const base = await renderDocumentPdf({ title: '测试', paragraphs: ['正文'], createdAt: contractInput.createdAt });
    const basePages = (await PDFDocument.load(base)).getPageCount();
    expect(basePages).toBe(1);
    // 24 one-line paragraphs fill most of a page: the block cannot fit under them
    const paragraphs = Array.from({ length: 24 }, (_, i) => `第${i + 1}段正文。`);
    const withBlock = await renderContractPdf({ ...contractInput, paragraphs });
    const pages = (await PDFDocument.load(withBlock)).getPageCount();
    expect(pages).toBe(2);
    const boxes = wordBoxes(withBlock);
    expect(boxes.find((b) => b.word.includes('卖方（盖章）'))!.page).toBe(2);
    expect(boxes.find((b) => b.word.includes('第24段正文'))!.page).toBe(1);
  });
});

describe('document PDF', () => {
  it('wraps long Chinese text by width without losing or reordering characters, numbers kept whole', async () => {
    const long = '根据《中华人民共和国民法典》及有关法律法规，'.repeat(12) + '合同金额¥1,234,567.89。';
    const pdf = await renderDocumentPdf({ title: '换行', header: 'HT1', paragraphs: ['# 标题', '## 第一条', long], createdAt: new Date(0) });
    const text = poppler('pdftotext', pdf, ['-raw']);
    const body = text.split('\n').filter((l) => !l.includes('第 1 页') && !l.includes('HT1'));
    expect(body[0]).toBe('标题');
    expect(body[1]).toBe('第一条');
    const lines = body.slice(2).map((l) => l.trim()).filter(Boolean);
    expect(lines.length).toBeGreaterThan(3);
    expect(lines.join('')).toBe(long);
    expect(lines.some((l) => l.includes('¥1,234,567.89'))).toBe(true);
    // no line starts with a closing punctuation mark
    for (const l of lines) expect(l).not.toMatch(/^[，。、；：）》]/);
    expect(text).toContain('第 1 页 共 1 页');
  });

  it('numbers every page', async () => {
    const paragraphs = Array.from({ length: 120 }, (_, i) => `第${i + 1}段：煤炭现货交易规则正文。`);
    const pdf = await renderDocumentPdf({ title: '规则', paragraphs, createdAt: new Date(0) });
    const text = poppler('pdftotext', pdf, ['-raw']);
    const pages = (await PDFDocument.load(pdf)).getPageCount();
    expect(pages).toBeGreaterThan(2);
    for (let n = 1; n <= pages; n++) expect(text).toContain(`第 ${n} 页 共 ${pages} 页`);
    expect(text).toContain('第120段');
  });
});
