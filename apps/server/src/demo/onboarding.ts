import { creditCodeCheckChar } from '@coalx/shared';
import type { Tx } from '../db/client';
import { enterpriseAttachments, enterprises, fileObjects, roles, users } from '../db/schema/index';
import type { FileStorage } from '../modules/files/storage';

/** A tiny grey PNG standing in for a scanned licence or authorisation letter. */
const SCAN_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFElEQVR4nGPc2NjIwMDAxMDAwMAAABGIAW2+9gFKAAAAAElFTkSuQmCC',
  'base64',
);

const code = (first17: string) => first17 + creditCodeCheckChar(first17);

/** More audited enterprises of every type, with settlement accounts, so the market has counterparties. */
const AUDITED = [
  { clientId: 'C10005', organName: '陕西榆林神木煤矿有限公司', creditCode: code('91610821MA6YK3N21'), enterpriseType: 'mine', legalPerson: '张国栋', areaCode: '610881', areaName: '陕西省/榆林市/神木市', addressDetail: '滨河新区能源大道 18 号', contactName: '马骏', contactMobile: '13900000021', contactEmail: 'sales@sm-coal.example.cn', bankName: '中国建设银行', bankBranch: '神木支行', bankAccountNo: '61050168360800000211' },
  { clientId: 'C10006', organName: '山东兖州东滩煤业有限公司', creditCode: code('91370883MA3C5RT82'), enterpriseType: 'mine', legalPerson: '孔令华', areaCode: '370883', areaName: '山东省/济宁市/邹城市', addressDetail: '太平镇矿区路 6 号', contactName: '孟凡', contactMobile: '13900000022', contactEmail: 'market@dt-coal.example.cn', bankName: '中国工商银行', bankBranch: '邹城支行', bankAccountNo: '1608010109200012345' },
  { clientId: 'C10007', organName: '秦皇岛港通煤炭贸易有限公司', creditCode: code('91130302MA0CQ7L63'), enterpriseType: 'trader', legalPerson: '韩立新', areaCode: '130302', areaName: '河北省/秦皇岛市/海港区', addressDetail: '港城大街 208 号', contactName: '秦月', contactMobile: '13900000023', contactEmail: 'trade@gt-coal.example.cn', bankName: '交通银行', bankBranch: '秦皇岛分行', bankAccountNo: '133060100018010012345' },
  { clientId: 'C10008', organName: '广州南沙能源物资有限公司', creditCode: code('91440115MA5CX2W94'), enterpriseType: 'trader', legalPerson: '黄志强', areaCode: '440115', areaName: '广东省/广州市/南沙区', addressDetail: '港前大道 99 号', contactName: '梁敏', contactMobile: '13900000024', contactEmail: 'coal@ns-energy.example.cn', bankName: '招商银行', bankBranch: '广州南沙支行', bankAccountNo: '120909876510301' },
  { clientId: 'C10009', organName: '江苏徐塘发电有限公司', creditCode: code('91320382MA1MT8P45'), enterpriseType: 'power_plant', legalPerson: '吴海峰', areaCode: '320382', areaName: '江苏省/徐州市/邳州市', addressDetail: '运河街道电厂路 1 号', contactName: '钱程', contactMobile: '13900000025', contactEmail: 'fuel@xt-power.example.cn', bankName: '中国银行', bankBranch: '邳州支行', bankAccountNo: '505872201234' },
  { clientId: 'C10010', organName: '浙江浙能嘉华发电有限公司', creditCode: code('91330482MA28A1B56'), enterpriseType: 'power_plant', legalPerson: '沈建华', areaCode: '330482', areaName: '浙江省/嘉兴市/平湖市', addressDetail: '独山港镇电厂路 3 号', contactName: '陆瑶', contactMobile: '13900000026', contactEmail: 'fuel@jh-power.example.cn', bankName: '中国农业银行', bankBranch: '平湖支行', bankAccountNo: '19380101040012345' },
  { clientId: 'C10011', organName: '太原晋煤物流园区管理有限公司', creditCode: code('91140105MA0HX6D37'), enterpriseType: 'other', legalPerson: '郭振', areaCode: '140105', areaName: '山西省/太原市/小店区', addressDetail: '龙城大街 66 号', contactName: '闫丽', contactMobile: '13900000027', contactEmail: 'park@jm-logistics.example.cn', bankName: '兴业银行', bankBranch: '太原分行', bankAccountNo: '481010100100123456' },
];

/** Two registrations waiting for the operator (their registrants sign in only after approval). */
const PENDING = [
  { clientId: 'C10012', username: 'pending01', realname: '任志远', mobile: '13900000031', organName: '内蒙古准格尔旗宏达煤业有限公司', creditCode: code('91150622MA0Q2X7A1'), enterpriseType: 'mine', legalPerson: '任志远', areaCode: '150622', areaName: '内蒙古自治区/鄂尔多斯市/准格尔旗', addressDetail: '薛家湾镇煤城路 12 号', contactName: '任志远', contactMobile: '13900000031', contactEmail: 'hongda@example.cn', bankName: '中国工商银行', bankBranch: '准格尔旗支行', bankAccountNo: '0605010209200034567' },
  { clientId: 'C10013', username: 'pending02', realname: '何佳', mobile: '13900000032', organName: '福建厦门海沧燃料贸易有限公司', creditCode: code('91350205MA31K9Y22'), enterpriseType: 'trader', legalPerson: '何建成', areaCode: '350205', areaName: '福建省/厦门市/海沧区', addressDetail: '海沧大道 567 号', contactName: '何佳', contactMobile: '13900000032', contactEmail: 'hecang@example.cn', bankName: '厦门银行', bankBranch: '海沧支行', bankAccountNo: '80012345678901' },
];

/** Part of the demo market (loaded once with it): audited counterparties and the operator's audit queue. */
export async function loadDemoOnboarding(tx: Tx, storage: FileStorage, traderPasswordHash: string, now: Date) {
  for (const e of AUDITED) {
    await tx.insert(enterprises).values({
      ...e,
      address: `${e.areaName.replace(/\//g, '')}${e.addressDetail}`,
      auditStatus: 'approved',
      auditedAt: now,
      submittedAt: now,
    });
  }
  const [adminRole] = (await tx.select().from(roles)).filter((r) => r.code === 'enterprise_admin');
  const day = now.toISOString().slice(0, 10).replace(/-/g, '/');
  let n = 100;
  for (const p of PENDING) {
    const { username, realname, mobile, ...values } = p;
    const submittedAt = new Date(now.getTime() - (n - 99) * 3600_000);
    const [row] = await tx
      .insert(enterprises)
      .values({ ...values, address: `${p.areaName.replace(/\//g, '')}${p.addressDetail}`, auditStatus: 'pending', submittedAt, createdAt: submittedAt })
      .returning({ id: enterprises.id });
    await tx.insert(users).values({ username, realname, mobile, passwordHash: traderPasswordHash, roleId: adminRole!.id, enterpriseId: row!.id, isFirstLogin: false });
    for (const [kind, name] of [['licence', '营业执照.png'], ['authorization', '授权委托书.png']] as const) {
      const key = `${day}/00000000-0000-4000-8000-${String(++n).padStart(12, '0')}.png`;
      await storage.put(key, SCAN_PNG);
      const [file] = await tx
        .insert(fileObjects)
        .values({ storageKey: key, originalName: name, contentType: 'image/png', size: SCAN_PNG.length, sha256: 'demo', visibility: 'private', ownerEnterpriseId: row!.id, uploadedBy: null, scene: 'register' })
        .returning({ id: fileObjects.id });
      await tx.insert(enterpriseAttachments).values({ enterpriseId: row!.id, kind, fileId: file!.id });
    }
  }
}
