import { creditCodeCheckChar } from '@coalx/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../client';
import { enterprises, roles, systemMeta, users } from '../schema/index';
import { hashPassword } from '../../lib/password';

/** Demo accounts of DESIGN.md §7; the README lists them. */
export const DEMO_PASSWORDS = { trader: 'Trader#2026', operator: 'Operator#2026', admin: 'Admin#2026' } as const;

function creditCode(first17: string) {
  return first17 + creditCodeCheckChar(first17);
}

const DEMO_ENTERPRISES = [
  {
    key: 'mine',
    clientId: 'C10001',
    organName: '晋北煤业集团有限公司',
    creditCode: creditCode('91140600MA0K8B2C1'),
    enterpriseType: 'mine',
    legalPerson: '王建国',
    address: '山西省朔州市朔城区开发南路 88 号',
    contactName: '李明',
    contactMobile: '13900000001',
  },
  {
    key: 'plant',
    clientId: 'C10002',
    organName: '华东电力燃料有限公司',
    creditCode: creditCode('91310000MA1FL3D42'),
    enterpriseType: 'power_plant',
    legalPerson: '陈志华',
    address: '上海市浦东新区世纪大道 100 号',
    contactName: '赵云',
    contactMobile: '13900000002',
  },
  {
    key: 'trader',
    clientId: 'C10003',
    organName: '津沽能源贸易有限公司',
    creditCode: creditCode('91120116MA05QK7R3'),
    enterpriseType: 'trader',
    legalPerson: '刘海涛',
    address: '天津市滨海新区港城大道 16 号',
    contactName: '孙倩',
    contactMobile: '13900000003',
  },
  {
    key: 'newcomer',
    clientId: 'C10004',
    organName: '鄂尔多斯市东胜煤炭有限公司',
    creditCode: creditCode('91150602MA0N2W8T6'),
    enterpriseType: 'mine',
    legalPerson: '高建平',
    address: '内蒙古自治区鄂尔多斯市东胜区天骄路 9 号',
    contactName: '周凯',
    contactMobile: '13900000004',
  },
] as const;

const DEMO_USERS = [
  { username: 'seller01', realname: '李明', role: 'enterprise_admin', enterprise: 'mine', mobile: '13900000001', firstLogin: false },
  { username: 'buyer01', realname: '赵云', role: 'enterprise_admin', enterprise: 'plant', mobile: '13900000002', firstLogin: false },
  { username: 'buyer02', realname: '孙倩', role: 'enterprise_admin', enterprise: 'trader', mobile: '13900000003', firstLogin: false },
  { username: 'newcomer', realname: '周凯', role: 'enterprise_admin', enterprise: 'newcomer', mobile: '13900000004', firstLogin: true },
  { username: 'operator', realname: '交易中心运营', role: 'operator', enterprise: null, mobile: '13900000010', firstLogin: false },
  { username: 'admin', realname: '系统管理员', role: 'admin', enterprise: null, mobile: '13900000011', firstLogin: false },
] as const;

const DEMO_MARKER = 'demo_data_version';

/** Creates the demo market once; a second start finds the marker and leaves everything as it is. */
export async function loadDemoData(db: Db, now: Date = new Date()): Promise<boolean> {
  const [marker] = await db.select().from(systemMeta).where(eq(systemMeta.key, DEMO_MARKER)).limit(1);
  if (marker) return false;
  const passwordHashes = {
    trader: await hashPassword(DEMO_PASSWORDS.trader),
    operator: await hashPassword(DEMO_PASSWORDS.operator),
    admin: await hashPassword(DEMO_PASSWORDS.admin),
  };
  await db.transaction(async (tx) => {
    const roleIds = new Map((await tx.select().from(roles)).map((r) => [r.code, r.id]));
    const enterpriseIds = new Map<string, number>();
    for (const { key, ...values } of DEMO_ENTERPRISES) {
      const [row] = await tx
        .insert(enterprises)
        .values({ ...values, auditStatus: 'approved', auditedAt: now })
        .returning({ id: enterprises.id });
      enterpriseIds.set(key, row!.id);
    }
    for (const u of DEMO_USERS) {
      const hashKind = u.role === 'operator' ? 'operator' : u.role === 'admin' ? 'admin' : 'trader';
      await tx.insert(users).values({
        username: u.username,
        realname: u.realname,
        mobile: u.mobile,
        passwordHash: passwordHashes[hashKind],
        roleId: roleIds.get(u.role)!,
        enterpriseId: u.enterprise ? enterpriseIds.get(u.enterprise)! : null,
        isFirstLogin: u.firstLogin,
      });
    }
    await tx.insert(systemMeta).values({ key: DEMO_MARKER, value: '1' });
  });
  return true;
}
