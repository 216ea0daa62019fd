import { Picture } from './bank-receipt';

/**
 * The demo drivers' three photos, drawn as PNGs in the look of the real cards: the ID card (居民身份证), the driving
 * licence (机动车驾驶证) and the vehicle licence (机动车行驶证), so the 司机审核 drawer shows what an operator compares.
 */

type Rgb = readonly [number, number, number];
const INK: Rgb = [31, 41, 55];
const GREY: Rgb = [90, 98, 112];
const SEAL: Rgb = [214, 40, 40];

export interface DemoDriverCard {
  name: string;
  idCardNo: string;
  address: string;
  licenceNo: string;
  plateNo: string;
  vehicleTypeText: string;
  ratedLoadKg: number;
  ownerName: string;
}

const W = 640;
const H = 404;

/** A soft two-colour card with rounded corners on a white ground. */
function card(top: Rgb, bottom: Rgb): Picture {
  const p = new Picture(W, H, [255, 255, 255]);
  const r = 22;
  for (let y = 6; y < H - 6; y++) {
    const t = (y - 6) / (H - 12);
    const color: Rgb = [0, 1, 2].map((c) => Math.round(top[c]! * (1 - t) + bottom[c]! * t)) as unknown as Rgb;
    for (let x = 6; x < W - 6; x++) {
      const dx = Math.max(6 + r - x, x - (W - 7 - r), 0);
      const dy = Math.max(6 + r - y, y - (H - 7 - r), 0);
      const alpha = Math.min(1, Math.max(0, r + 0.5 - Math.hypot(dx, dy)));
      p.blend(x, y, color, alpha);
    }
  }
  return p;
}

/** A head-and-shoulders silhouette in the photo box at (x, y). */
function portrait(p: Picture, x: number, y: number, w: number, h: number) {
  p.rect(x, y, w, h, [236, 240, 245]);
  p.frame(x, y, w, h, [190, 198, 210]);
  const cx = x + w / 2;
  const head = { cy: y + h * 0.38, r: w * 0.2 };
  for (let yy = y; yy < y + h; yy++) {
    for (let xx = x; xx < x + w; xx++) {
      const inHead = Math.hypot(xx - cx, yy - head.cy) <= head.r;
      const shoulders = yy > y + h * 0.64 && ((xx - cx) / (w * 0.42)) ** 2 + ((yy - (y + h)) / (h * 0.34)) ** 2 <= 1;
      if (inHead || shoulders) p.blend(xx, yy, [120, 130, 146], 0.9);
    }
  }
}

/** The birth date printed on the card, from the ID number: 1985年3月17日. */
function birthOf(idCardNo: string): string {
  return `${idCardNo.slice(6, 10)}年${Number(idCardNo.slice(10, 12))}月${Number(idCardNo.slice(12, 14))}日`;
}

function labelled(p: Picture, x: number, y: number, label: string, value: string, valueX = x + 80) {
  p.text(x, y, label, GREY, 0.8);
  p.text(valueX, y, value, INK, 0.85);
}

/** 居民身份证 (the portrait side). */
export function idCardPng(d: DemoDriverCard): Buffer {
  const p = card([233, 243, 250], [214, 232, 244]);
  p.text(36, 30, '中华人民共和国居民身份证', [37, 99, 160], 0.9);
  labelled(p, 40, 84, '姓名', d.name);
  labelled(p, 40, 126, '性别', '男');
  labelled(p, 200, 126, '民族', '汉', 260);
  labelled(p, 40, 168, '出生', birthOf(d.idCardNo));
  labelled(p, 40, 210, '住址', d.address.slice(0, 14));
  if (d.address.length > 14) p.text(120, 242, d.address.slice(14), INK, 0.85);
  p.text(40, 330, '公民身份号码', GREY, 0.8);
  p.text(190, 326, d.idCardNo, INK, 1.05);
  portrait(p, 450, 70, 150, 190);
  return p.png();
}

/** 机动车驾驶证 (the main page). */
export function drivingLicencePng(d: DemoDriverCard): Buffer {
  const p = card([250, 240, 236], [243, 226, 220]);
  p.text(Math.round((W - p.textWidth('中华人民共和国机动车驾驶证', 1)) / 2), 26, '中华人民共和国机动车驾驶证', INK, 1);
  labelled(p, 40, 90, '证号', d.licenceNo);
  labelled(p, 40, 134, '姓名', d.name);
  labelled(p, 260, 134, '性别', '男', 330);
  labelled(p, 40, 178, '住址', d.address.slice(0, 14));
  labelled(p, 40, 222, '出生', birthOf(d.idCardNo));
  labelled(p, 40, 266, '准驾车型', 'A2', 130);
  labelled(p, 40, 310, '有效期限', '2020-05-18 至 2030-05-18', 130);
  portrait(p, 470, 90, 130, 165);
  p.ring(535, 330, 44, 3, SEAL);
  return p.png();
}

/** 机动车行驶证 (the main page). */
export function vehicleLicencePng(d: DemoDriverCard): Buffer {
  const p = card([238, 246, 238], [224, 238, 226]);
  p.text(Math.round((W - p.textWidth('中华人民共和国机动车行驶证', 1)) / 2), 26, '中华人民共和国机动车行驶证', INK, 1);
  labelled(p, 40, 92, '号牌号码', d.plateNo, 150);
  labelled(p, 40, 140, '车辆类型', d.vehicleTypeText, 150);
  labelled(p, 40, 188, '所有人', d.ownerName, 150);
  labelled(p, 40, 236, '住址', d.address.slice(0, 20), 150);
  labelled(p, 40, 284, '核定载质量', `${d.ratedLoadKg}kg`, 150);
  p.ring(540, 320, 50, 4, SEAL);
  p.ring(540, 320, 43, 1, SEAL);
  return p.png();
}
