import { creditCodeCheckChar } from '@coalx/shared';
import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { smsOutbox } from '../../db/schema/index';

export const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);

let n = 0;
const seq = () => `${process.pid % 10000}`.padStart(4, '0') + String(++n).padStart(3, '0');

export function uniqueMobile() {
  return `139${seq().padStart(8, '0').slice(-8)}`;
}
export function uniqueCreditCode() {
  const body = `91140600MA${seq().padStart(7, '0').slice(-7)}`;
  return body + creditCodeCheckChar(body);
}
/** Each test sends from an address of its own, so the per-address limits of one test do not hit another. */
export function uniqueIp() {
  const k = ++n;
  return `10.${(k >> 16) & 255}.${(k >> 8) & 255}.${k & 255}`;
}

export function multipart(file: { name: string; data: Buffer }, fields: Record<string, string> = {}) {
  const boundary = '----coalxonboarding';
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  parts.push(
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    file.data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export async function uploadAnonymous(app: FastifyInstance, file: { name: string; data: Buffer } = { name: '营业执照.png', data: PNG }, ip = uniqueIp(), fields: Record<string, string> = { scene: 'register' }) {
  const { payload, headers } = multipart(file, fields);
  return app.inject({ method: 'POST', url: '/trade-api/api/common/upload', payload, headers, remoteAddress: ip });
}

export async function registrationKey(app: FastifyInstance) {
  const response = await uploadAnonymous(app);
  if (response.statusCode !== 200) throw new Error(`upload failed: ${response.body}`);
  return response.json().result.url as string;
}

export function sendSms(app: FastifyInstance, mobile: string, ip = uniqueIp()) {
  return app.inject({ method: 'POST', url: '/trade-api/sys/sms/send', payload: { mobile, scene: 'register' }, remoteAddress: ip });
}

/** The code the built-in provider "sent": the last outbox message to the mobile. */
export async function lastCode(db: Db, mobile: string): Promise<string> {
  const [row] = await db.select().from(smsOutbox).where(eq(smsOutbox.mobile, mobile)).orderBy(desc(smsOutbox.id)).limit(1);
  const code = row?.content.match(/\d{6}/)?.[0];
  if (!code) throw new Error(`no SMS to ${mobile}`);
  return code;
}

export async function registrationPayload(app: FastifyInstance, db: Db, overrides: Record<string, unknown> = {}) {
  const mobile = (overrides.mobile as string | undefined) ?? uniqueMobile();
  const sent = await sendSms(app, mobile);
  if (sent.statusCode !== 200) throw new Error(`sms failed: ${sent.body}`);
  const k = seq();
  return {
    username: `reg${k}`,
    realname: '王注册',
    mobile,
    smsCode: await lastCode(db, mobile),
    password: 'Register#2026',
    confirmPassword: 'Register#2026',
    organName: `山西测试注册煤业有限公司${k}`,
    creditCode: uniqueCreditCode(),
    legalPerson: '王法人',
    enterpriseType: 'mine',
    areaCode: '140602',
    addressDetail: '开发南路 1 号',
    contactName: '李联系',
    contactMobile: '13700000000',
    contactEmail: 'contact@example.com',
    bankName: '中国工商银行',
    bankBranch: '朔州开发区支行',
    bankAccountNo: '0502012309022100999',
    licenceUrl: await registrationKey(app),
    authorizationUrl: await registrationKey(app),
    ...overrides,
  };
}

export function register(app: FastifyInstance, payload: object, ip = uniqueIp()) {
  return app.inject({ method: 'POST', url: '/trade-api/sys/enterprise/add', payload, remoteAddress: ip });
}
