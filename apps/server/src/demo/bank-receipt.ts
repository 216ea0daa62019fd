import { formatFen } from '@coalx/shared';
import { encodePng } from '../lib/simple-png';
import { GLYPH_SIZE, GLYPHS } from './voucher-glyphs';

/**
 * The demo market's 入金 vouchers: a bank's online receipt (网上银行电子回单) drawn as a PNG, with the payer, the
 * trading centre's account, the amount in figures and in words, and the bank's red seal; what an operator would see
 * when a trader uploads the receipt of a real transfer.
 */

type Rgb = readonly [number, number, number];

const INK: Rgb = [31, 41, 55];
const GREY: Rgb = [107, 114, 128];
const LINE: Rgb = [203, 213, 225];
const SEAL: Rgb = [214, 40, 40];

const DIGITS = '零壹贰叁肆伍陆柒捌玖';
const UNITS = ['', '拾', '佰', '仟'];
const GROUPS = ['', '万', '亿'];

/** 1..9999 in the words of a cheque, zeros inside collapsed to one 零. */
function groupInWords(value: number): string {
  let out = '';
  let zero = false;
  for (let i = 3; i >= 0; i--) {
    const digit = Math.floor(value / 10 ** i) % 10;
    if (digit === 0) {
      if (out) zero = true;
      continue;
    }
    if (zero) out += '零';
    zero = false;
    out += DIGITS[digit]! + UNITS[i]!;
  }
  return out;
}

/** Integer fen → the amount in capital Chinese numerals as banks print it: 30,000,000.00 → 叁仟万元整. */
export function amountInWords(fen: number): string {
  const yuan = Math.floor(fen / 100);
  const jiao = Math.floor(fen / 10) % 10;
  const cents = fen % 10;
  let words = '';
  if (yuan > 0) {
    const groups: number[] = [];
    for (let n = yuan; n > 0; n = Math.floor(n / 10000)) groups.push(n % 10000);
    let skipped = false;
    for (let g = groups.length - 1; g >= 0; g--) {
      const value = groups[g]!;
      if (value === 0) {
        skipped = words !== '';
        continue;
      }
      if (skipped || (words !== '' && value < 1000)) words += '零';
      words += groupInWords(value) + GROUPS[g]!;
      skipped = false;
    }
    words += '元';
  }
  if (jiao === 0 && cents === 0) return `${words || '零元'}整`;
  if (jiao > 0) words += `${DIGITS[jiao]}角`;
  else if (yuan > 0) words += '零';
  return cents > 0 ? `${words}${DIGITS[cents]}分` : `${words}整`;
}

/** An RGB canvas with the glyph table's text: the demo pictures (receipts, driver photos) are drawn on it. */
export class Picture {
  readonly rgb: Buffer;
  constructor(
    readonly width: number,
    readonly height: number,
    background: Rgb,
  ) {
    this.rgb = Buffer.alloc(width * height * 3);
    for (let i = 0; i < width * height; i++) this.rgb.set(background, i * 3);
  }

  blend(x: number, y: number, color: Rgb, alpha: number) {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height || alpha <= 0) return;
    const i = (y * this.width + x) * 3;
    for (let c = 0; c < 3; c++) this.rgb[i + c] = Math.round(this.rgb[i + c]! * (1 - alpha) + color[c]! * alpha);
  }

  rect(x: number, y: number, w: number, h: number, color: Rgb) {
    for (let yy = y; yy < y + h; yy++) for (let xx = x; xx < x + w; xx++) this.blend(xx, yy, color, 1);
  }

  frame(x: number, y: number, w: number, h: number, color: Rgb) {
    this.rect(x, y, w, 1, color);
    this.rect(x, y + h - 1, w, 1, color);
    this.rect(x, y, 1, h, color);
    this.rect(x + w - 1, y, 1, h, color);
  }

  /** Text from the glyph table at `scale`, top-left at (x, y); returns where it ends. */
  text(x: number, y: number, text: string, color: Rgb, scale = 1): number {
    let pen = x;
    for (const ch of text) {
      if (ch === ' ') {
        pen += Math.round(GLYPH_SIZE * 0.35 * scale);
        continue;
      }
      const glyph = GLYPHS[ch];
      if (!glyph) throw new Error(`回单字形表缺少「${ch}」，请运行 apps/server/scripts/voucher-glyphs.mjs`);
      const [advance, data] = glyph;
      const levels = Buffer.from(data, 'base64');
      const size = Math.round(GLYPH_SIZE * scale);
      for (let ty = 0; ty < size; ty++) {
        for (let tx = 0; tx < size; tx++) {
          const sx = Math.min(GLYPH_SIZE - 1, Math.floor(tx / scale));
          const sy = Math.min(GLYPH_SIZE - 1, Math.floor(ty / scale));
          const index = sy * GLYPH_SIZE + sx;
          const level = index % 2 === 0 ? levels[index >> 1]! >> 4 : levels[index >> 1]! & 15;
          this.blend(pen + tx, y + ty, color, level / 15);
        }
      }
      pen += Math.round((advance + 1) * scale);
    }
    return pen;
  }

  textWidth(text: string, scale = 1): number {
    let width = 0;
    for (const ch of text) width += ch === ' ' ? Math.round(GLYPH_SIZE * 0.35 * scale) : Math.round(((GLYPHS[ch]?.[0] ?? GLYPH_SIZE) + 1) * scale);
    return width;
  }

  ring(cx: number, cy: number, radius: number, thickness: number, color: Rgb) {
    for (let y = cy - radius - 1; y <= cy + radius + 1; y++) {
      for (let x = cx - radius - 1; x <= cx + radius + 1; x++) {
        const d = Math.hypot(x - cx, y - cy);
        const inside = Math.min(1, Math.max(0, radius + 0.5 - d)) * Math.min(1, Math.max(0, d - (radius - thickness) + 0.5));
        this.blend(x, y, color, inside * 0.85);
      }
    }
  }

  png(): Buffer {
    const raw = Buffer.alloc((this.width * 3 + 1) * this.height);
    for (let y = 0; y < this.height; y++) this.rgb.copy(raw, y * (this.width * 3 + 1) + 1, y * this.width * 3, (y + 1) * this.width * 3);
    return encodePng(this.width, this.height, raw);
  }
}

export interface BankReceipt {
  bank: string;
  serialNo: string;
  date: string;
  payerName: string;
  payerAccount: string;
  payeeName: string;
  payeeAccount: string;
  payeeBank: string;
  amountFen: number;
}

/** A bank's online receipt of one transfer, as a 900×500 PNG. */
export function bankReceiptPng(r: BankReceipt): Buffer {
  const W = 900;
  const H = 500;
  const p = new Picture(W, H, [252, 252, 250]);
  p.frame(20, 20, W - 40, H - 40, LINE);
  const title = `${r.bank}网上银行电子回单`;
  p.text(Math.round((W - p.textWidth(title, 1.3)) / 2), 40, title, INK, 1.3);
  p.text(44, 92, `回单编号: ${r.serialNo}`, GREY, 0.75);
  p.text(W - 44 - p.textWidth(`交易日期: ${r.date}`, 0.75), 92, `交易日期: ${r.date}`, GREY, 0.75);

  // the grid: payer on the left, payee on the right, then the amount and the summary
  const top = 122;
  const row = 44;
  const left = 40;
  const mid = W / 2;
  const right = W - 40;
  const side = (x: number, label: string, lines: [string, string][]) => {
    p.text(x + 14, top + 10 + row, label, INK, 0.85);
    lines.forEach(([name, value], i) => {
      p.text(x + 90, top + 10 + i * row, name, GREY, 0.75);
      p.text(x + 160, top + 10 + i * row, value, INK, 0.75);
    });
  };
  for (let i = 0; i <= 6; i++) p.rect(left, top + i * row, right - left, 1, LINE);
  p.rect(left, top, 1, row * 6, LINE);
  p.rect(right - 1, top, 1, row * 6, LINE);
  p.rect(mid, top, 1, row * 3, LINE);
  p.rect(left + 80, top, 1, row * 6, LINE);
  p.rect(mid + 80, top, 1, row * 3, LINE);
  side(left, '付款人', [
    ['户名', r.payerName],
    ['账号', r.payerAccount],
    ['开户行', r.bank],
  ]);
  side(mid, '收款人', [
    ['户名', r.payeeName],
    ['账号', r.payeeAccount],
    ['开户行', r.payeeBank],
  ]);
  p.text(left + 14, top + 10 + 3 * row, '金额', INK, 0.85);
  p.text(left + 96, top + 10 + 3 * row, `人民币(大写) ${amountInWords(r.amountFen)}`, INK, 0.75);
  p.text(left + 14, top + 10 + 4 * row, '小写', INK, 0.85);
  p.text(left + 96, top + 8 + 4 * row, `¥${formatFen(r.amountFen)}`, INK, 0.95);
  p.text(left + 14, top + 10 + 5 * row, '摘要', INK, 0.85);
  p.text(left + 96, top + 10 + 5 * row, '入金  币种: 人民币  记账状态: 成功', INK, 0.75);

  // the bank's seal over the lower right corner
  const cx = W - 150;
  const cy = H - 92;
  p.ring(cx, cy, 62, 4, SEAL);
  p.ring(cx, cy, 55, 1, SEAL);
  p.text(Math.round(cx - p.textWidth(r.bank, 0.7) / 2), cy - 30, r.bank, SEAL, 0.7);
  p.text(Math.round(cx - p.textWidth('电子回单', 0.8) / 2), cy - 9, '电子回单', SEAL, 0.8);
  p.text(Math.round(cx - p.textWidth('专用章', 0.8) / 2), cy + 14, '专用章', SEAL, 0.8);
  return p.png();
}
