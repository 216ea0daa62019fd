import { createHash } from 'node:crypto';
import { creditCodeCheckChar } from '@coalx/shared';
import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { depositInApplications, enterprises, fileObjects, roles, systemMeta, users, withdrawals } from '../db/schema/index';
import { hashPassword } from '../lib/password';
import type { FileStorage } from '../modules/files/storage';
import type { PlatformCa } from '../modules/ukey/ca';
import { platformCaVerifier } from '../modules/ukey/ukey.verifier';
import { move } from '../modules/funds/ledger';
import { loadDemoOnboarding } from './onboarding';
import { setDemoPayPasswords } from './pay-password';
import { loadDemoListings } from './listings';
import { loadDemoAuctions } from './auctions';
import { loadDemoContent } from './content';
import { loadDemoUkey } from './ukey';
import { loadDemoContracts } from './contracts';
import { loadDemoOrders } from './orders';
import { loadDemoSettlement } from './settlement';
import { loadDemoInvoices } from './invoices';
import { loadDemoFreight } from './freight';
import { loadDemoLongTerm } from './long-term';
import { sampleDemoIndexTerms } from './index-samples';
import { seedDemoDrivers } from './drivers';
import { bankReceiptPng } from './bank-receipt';
import { loadDemoDesk } from './desk';
import { loadDemoDailyReports } from './daily-reports';

/** The trading centre's receiving account named on the demo transfer receipts. */
const CENTRE_ACCOUNT = { name: '煤炭交易中心客户保证金专户', account: '0200 0456 0902 4100 866', bank: '中国工商银行' };

/** Demo accounts of DESIGN.md §7; the README lists them. */
export const DEMO_PASSWORDS = { trader: 'Trader#2026', operator: 'Operator#2026', admin: 'Admin#2026' } as const;

function creditCode(first17: string) {
  return first17 + creditCodeCheckChar(first17);
}

const DEMO_ENTERPRISES = [
  {
    key: 'mine',
    bankName: '中国工商银行',
    bankBranch: '朔州开发区支行',
    bankAccountNo: '0502012309022100188',
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
    bankName: '中国建设银行',
    bankBranch: '上海浦东分行',
    bankAccountNo: '31050161393600001234',
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
    bankName: '中国银行',
    bankBranch: '天津滨海新区支行',
    bankAccountNo: '275072001234',
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
    bankName: '中国农业银行',
    bankBranch: '鄂尔多斯东胜支行',
    bankAccountNo: '05110101040012345',
    clientId: 'C10004',
    organName: '鄂尔多斯市东胜煤炭有限公司',
    creditCode: creditCode('91150602MA0N2W8T6'),
    enterpriseType: 'mine',
    legalPerson: '高建平',
    address: '内蒙古自治区鄂尔多斯市东胜区天骄路 9 号',
    contactName: '周凯',
    contactMobile: '13900000004',
  },
  // the two enterprises the demo bidders bid for on the live auction, so no trader's own account bids by itself
  {
    key: 'bidderA',
    bankName: '中国交通银行',
    bankBranch: '唐山分行',
    bankAccountNo: '130060100018800012345',
    clientId: 'C10021',
    organName: '冀东热电燃料有限公司',
    creditCode: creditCode('91130200MA0C3X5P7'),
    enterpriseType: 'power_plant',
    legalPerson: '韩志勇',
    address: '河北省唐山市路北区建设北路 21 号',
    contactName: '马腾',
    contactMobile: '13900000005',
  },
  {
    key: 'bidderB',
    bankName: '中国民生银行',
    bankBranch: '无锡分行',
    bankAccountNo: '631200188000012345',
    clientId: 'C10022',
    organName: '苏南港口煤炭贸易有限公司',
    creditCode: creditCode('91320200MA1R7T8K4'),
    enterpriseType: 'trader',
    legalPerson: '沈国良',
    address: '江苏省无锡市江阴市滨江西路 6 号',
    contactName: '许晴',
    contactMobile: '13900000006',
  },
] as const;

const DEMO_USERS = [
  { username: 'seller01', realname: '李明', role: 'enterprise_admin', enterprise: 'mine', mobile: '13900000001', firstLogin: false },
  { username: 'trader01', realname: '王强', role: 'trader', enterprise: 'mine', mobile: '13900000005', firstLogin: false },
  { username: 'buyer01', realname: '赵云', role: 'enterprise_admin', enterprise: 'plant', mobile: '13900000002', firstLogin: false },
  { username: 'buyer02', realname: '孙倩', role: 'enterprise_admin', enterprise: 'trader', mobile: '13900000003', firstLogin: false },
  { username: 'newcomer', realname: '周凯', role: 'enterprise_admin', enterprise: 'newcomer', mobile: '13900000004', firstLogin: true },
  { username: 'bidder01', realname: '马腾', role: 'enterprise_admin', enterprise: 'bidderA', mobile: '13900000005', firstLogin: false },
  { username: 'bidder02', realname: '许晴', role: 'enterprise_admin', enterprise: 'bidderB', mobile: '13900000006', firstLogin: false },
  { username: 'operator', realname: '交易中心运营', role: 'operator', enterprise: null, mobile: '13900000010', firstLogin: false },
  { username: 'admin', realname: '系统管理员', role: 'admin', enterprise: null, mobile: '13900000011', firstLogin: false },
] as const;

const DEMO_MARKER = 'demo_data_version';

/**
 * Creates the demo market once; a second start finds the marker and leaves everything as it is. `ca` is the
 * platform CA: it issues the demo's key devices, and payments are checked by its verifier as the app's are.
 */
export async function loadDemoData(db: Db, storage: FileStorage, ca: PlatformCa, now: Date = new Date()): Promise<boolean> {
  const [marker] = await db.select().from(systemMeta).where(eq(systemMeta.key, DEMO_MARKER)).limit(1);
  if (marker) return false;
  const ukey = platformCaVerifier(ca);
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
    await loadDemoFunds(tx, storage, enterpriseIds, now);
    await loadDemoOnboarding(tx, storage, passwordHashes.trader, now);
    // a fresh installation asks the pay password for money: every demo enterprise has one (README "Demo accounts")
    await setDemoPayPasswords(tx);
    await loadDemoListings(tx, ukey, now);
    await loadDemoAuctions(tx, ukey, now);
    await loadDemoContent(tx, storage, now);
    await loadDemoUkey(tx, ca, now);
    await tx.insert(systemMeta).values({ key: DEMO_MARKER, value: '1' });
  });
  // contracts are made after the deals' commit, as the platform makes them (flows/make-contract.ts)
  await loadDemoContracts(db, storage, ca, now);
  await seedDemoDrivers(db, storage, now);
  await loadDemoOrders(db, storage, ukey, now);
  await loadDemoSettlement(db, ukey, now);
  await loadDemoInvoices(db, storage, now);
  await loadDemoFreight(db, storage, now);
  // the index terms' samples are the demo's spot deals of each week; before the long-term deals, which are priced
  // from the published index
  await sampleDemoIndexTerms(db);
  await loadDemoLongTerm(db, storage, ukey, now);
  await loadDemoDesk(db, now);
  await loadDemoDailyReports(db, storage, now);
  return true;
}

/** Funded accounts through the real 入金 path, and a few transfers waiting for the operator. */
async function loadDemoFunds(tx: Tx, storage: FileStorage, enterpriseIds: Map<string, number>, now: Date) {
  const [operator] = await tx.select().from(users).where(eq(users.username, 'operator'));
  const userOf = async (username: string) => (await tx.select().from(users).where(eq(users.username, username)))[0]!;
  const day = now.toISOString().slice(0, 10);
  const funding = [
    { enterprise: 'mine', username: 'seller01', amount: 500_000_000, bank: '中国工商银行', account: '0502012309022100188', organName: '晋北煤业集团有限公司' },
    { enterprise: 'plant', username: 'buyer01', amount: 3_000_000_000, bank: '中国建设银行', account: '31050161393600001234', organName: '华东电力燃料有限公司' },
    { enterprise: 'trader', username: 'buyer02', amount: 1_200_000_000, bank: '中国银行', account: '275072001234', organName: '津沽能源贸易有限公司' },
    { enterprise: 'bidderA', username: 'bidder01', amount: 500_000_000, bank: '中国交通银行', account: '130060100018800012345', organName: '冀东热电燃料有限公司', settled: true },
    { enterprise: 'bidderB', username: 'bidder02', amount: 500_000_000, bank: '中国民生银行', account: '631200188000012345', organName: '苏南港口煤炭贸易有限公司', settled: true },
  ];
  let n = 0;
  for (const f of funding) {
    const enterpriseId = enterpriseIds.get(f.enterprise)!;
    const applicant = await userOf(f.username);
    n++;
    // each declared transfer has its own receipt: the confirmed one and the one still waiting
    const voucher = async (amount: number, serial: string) => {
      const key = `${day.replace(/-/g, '/')}/00000000-0000-4000-8000-${serial.slice(-12).padStart(12, '0')}.png`;
      const png = bankReceiptPng({
        bank: f.bank,
        serialNo: serial,
        date: day,
        payerName: f.organName,
        payerAccount: f.account,
        payeeName: CENTRE_ACCOUNT.name,
        payeeAccount: CENTRE_ACCOUNT.account,
        payeeBank: CENTRE_ACCOUNT.bank,
        amountFen: amount,
      });
      await storage.put(key, png);
      await tx.insert(fileObjects).values({
        storageKey: key,
        originalName: '转账凭证.png',
        contentType: 'image/png',
        size: png.length,
        sha256: createHash('sha256').update(png).digest('hex'),
        visibility: 'private',
        ownerEnterpriseId: enterpriseId,
        uploadedBy: applicant.id,
      });
      return key;
    };
    const serial = `${day.replace(/-/g, '')}${String(n).padStart(4, '0')}`;
    const voucherKey = await voucher(f.amount, `${serial}01`);
    const [confirmed] = await tx
      .insert(depositInApplications)
      .values({
        enterpriseId,
        amount: f.amount,
        bankName: f.bank,
        payerAccountNo: f.account,
        transferDate: day,
        voucherUrl: voucherKey,
        status: 'confirmed',
        requestId: `demo-in-${n}`,
        appliedBy: applicant.id,
        reviewedBy: operator!.id,
        reviewedAt: now,
      })
      .returning();
    await move(tx, {
      enterpriseId,
      kind: 'credit',
      amount: f.amount,
      refType: 'deposit_in',
      refId: String(confirmed!.id),
      idempotencyKey: `deposit_in:${confirmed!.id}:confirm`,
      remark: `入金 ${f.bank}`,
      createdBy: operator!.id,
    });
    // a second transfer declared and waiting for the trading centre (not for the demo bidders: nobody reads theirs)
    if ('settled' in f) continue;
    await tx.insert(depositInApplications).values({
      enterpriseId,
      amount: Math.round(f.amount / 10),
      bankName: f.bank,
      payerAccountNo: f.account,
      transferDate: day,
      voucherUrl: await voucher(Math.round(f.amount / 10), `${serial}02`),
      status: 'pending',
      requestId: `demo-in-pending-${n}`,
      appliedBy: applicant.id,
    });
  }
  // buyer01 asked to take ¥200,000.00 out: frozen and waiting for payment
  const plantId = enterpriseIds.get('plant')!;
  const [withdrawal] = await tx
    .insert(withdrawals)
    .values({
      enterpriseId: plantId,
      amount: 20_000_000,
      bankName: '中国建设银行',
      bankBranch: '上海浦东分行',
      bankAccountNo: '31050161393600001234',
      accountName: '华东电力燃料有限公司',
      requestId: 'demo-out-1',
      appliedBy: (await userOf('buyer01')).id,
    })
    .returning();
  await move(tx, {
    enterpriseId: plantId,
    kind: 'freeze',
    amount: 20_000_000,
    refType: 'withdrawal',
    refId: String(withdrawal!.id),
    idempotencyKey: `withdrawal:${withdrawal!.id}:freeze`,
    remark: '出金申请冻结',
  });
}
