import { creditCodeCheckChar, type RoleCode } from '@coalx/shared';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client';
import { enterprises, roles, users } from '../db/schema/index';
import { hashPassword } from '../lib/password';

let sequence = 0;
const next = () => `${process.pid}${++sequence}`;

export const TEST_PASSWORD = 'Test#2026pass';
let testPasswordHash: Promise<string> | null = null;

export async function createEnterprise(db: Db, values: Partial<typeof enterprises.$inferInsert> = {}) {
  const n = next();
  const body = `91110000MA${n.padStart(7, '0').slice(-7)}`;
  const [row] = await db
    .insert(enterprises)
    .values({
      clientId: `T${n}`,
      organName: `测试煤业有限公司${n}`,
      creditCode: body + creditCodeCheckChar(body),
      enterpriseType: 'mine',
      legalPerson: '张三',
      auditStatus: 'approved',
      ...values,
    })
    .returning();
  return row!;
}

export async function createUser(
  db: Db,
  options: { role?: RoleCode; enterpriseId?: number | null; isFirstLogin?: boolean; password?: string; username?: string } = {},
) {
  const role = options.role ?? 'trader';
  const [roleRow] = await db.select().from(roles).where(eq(roles.code, role)).limit(1);
  const enterpriseId =
    options.enterpriseId !== undefined
      ? options.enterpriseId
      : role === 'trader' || role === 'enterprise_admin'
        ? (await createEnterprise(db)).id
        : null;
  const passwordHash = options.password
    ? await hashPassword(options.password)
    : await (testPasswordHash ??= hashPassword(TEST_PASSWORD));
  const [row] = await db
    .insert(users)
    .values({
      username: options.username ?? `user${next()}`,
      realname: '测试用户',
      mobile: '13800000000',
      passwordHash,
      roleId: roleRow!.id,
      enterpriseId,
      isFirstLogin: options.isFirstLogin ?? false,
    })
    .returning();
  return row!;
}

export async function loginAs(app: FastifyInstance, username: string, password = TEST_PASSWORD): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/trade-api/sys/login', payload: { username, password } });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.body}`);
  return response.json().result.token;
}

/** A user of the role, signed in: its row and token. */
export async function signedIn(app: FastifyInstance, db: Db, options: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(db, options);
  return { user, token: await loginAs(app, user.username, options.password ?? TEST_PASSWORD) };
}
