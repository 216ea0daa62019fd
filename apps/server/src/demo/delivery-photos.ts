import { formatTons } from '@coalx/shared';
import { Picture } from './bank-receipt';

/**
 * The demo delivery desk's pictures: a weigh-bridge ticket (过磅单) as the scale's printer gives it, and the first
 * page of a lab report (化验报告), so a ticket's or a report's 查看 shows a document with the recorded figures.
 */

type Rgb = readonly [number, number, number];
const INK: Rgb = [31, 41, 55];
const GREY: Rgb = [110, 116, 128];
const SEAL: Rgb = [214, 40, 40];
const PAPER: Rgb = [252, 250, 243];

export interface DemoWeighTicket {
  title: string;
  ticketNo: string;
  plateNo: string;
  from: string;
  to: string;
  grossKg: number;
  tareKg: number;
  netKg: number;
  weighedAt: string;
}

function rows(p: Picture, x: number, y: number, lines: [string, string][], step = 34) {
  for (const [i, [label, value]] of lines.entries()) {
    p.text(x, y + i * step, label, GREY);
    p.text(x + 130, y + i * step, value, INK);
  }
}

export function weighTicketPng(t: DemoWeighTicket): Buffer {
  const p = new Picture(560, 420, PAPER);
  p.frame(12, 12, 536, 396, GREY);
  const titleWidth = p.textWidth(t.title, 1.3);
  p.text(280 - titleWidth / 2, 28, t.title, INK, 1.3);
  rows(p, 40, 84, [
    ['磅单号', t.ticketNo],
    ['车牌号', t.plateNo],
    ['发货单位', t.from],
    ['收货单位', t.to],
    ['毛重', `${formatTons(t.grossKg)} 吨`],
    ['皮重', `${formatTons(t.tareKg)} 吨`],
    ['净重', `${formatTons(t.netKg)} 吨`],
    ['过磅时间', t.weighedAt],
  ]);
  p.ring(470, 340, 44, 4, SEAL);
  p.text(470 - p.textWidth('计量专用章', 0.75) / 2, 330, '计量专用章', SEAL, 0.75);
  p.text(40, 370, '司磅员', GREY);
  return p.png();
}

export interface DemoLabReport {
  labName: string;
  reportNo: string;
  sample: string;
  qnet: number;
  mt: number;
  st: number;
  ad: number;
  vdaf: number;
  testedAt: string;
}

export function labReportPng(r: DemoLabReport): Buffer {
  const p = new Picture(560, 460, [255, 255, 255]);
  p.frame(12, 12, 536, 436, GREY);
  p.text(280 - p.textWidth('煤质化验报告', 1.3) / 2, 28, '煤质化验报告', INK, 1.3);
  p.text(280 - p.textWidth(r.labName) / 2, 66, r.labName, GREY);
  rows(p, 40, 110, [
    ['报告编号', r.reportNo],
    ['样品', r.sample],
    ['收到基低位发热量', `${r.qnet} kcal/kg`],
    ['全水分', `${r.mt.toFixed(2)}%`],
    ['全硫', `${r.st.toFixed(2)}%`],
    ['灰分', `${r.ad.toFixed(2)}%`],
    ['挥发分', `${r.vdaf.toFixed(2)}%`],
    ['检验日期', r.testedAt],
  ]);
  p.ring(460, 380, 48, 4, SEAL);
  p.text(460 - p.textWidth('检验专用章', 0.75) / 2, 370, '检验专用章', SEAL, 0.75);
  p.text(40, 410, '检验员', GREY);
  return p.png();
}
