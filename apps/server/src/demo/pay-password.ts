import { createHash } from 'node:crypto';
import { eq, ne } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { enterprises, payPasswords, users } from '../db/schema/index';
import type { Actor } from '../lib/actor';
import { hashPassword } from '../lib/password';
import { PLATFORM_CLIENT_ID } from '../modules/enterprise/enterprise.service';
import { enterpriseClientId } from '../modules/funds/pay-auth';

/**
 * Every demo enterprise's pay password (支付密码, README "Demo accounts"). A fresh installation has the PayPassword
 * switch on, so the demo's own money actions (摘牌, 竞价报名, 支付货款, 确认结算, 确认月度调运, 签署合同) carry it
 * exactly as the browser sends it.
 */
export const DEMO_PAY_PASSWORD = '246810';

/** What the browser sends: SHA-256 hex of `${clientId}:${digits}` (apps/web/src/components/PayAuth/hash.ts). */
export const demoPayPasswordHash = (clientId: string) => createHash('sha256').update(`${clientId}:${DEMO_PAY_PASSWORD}`).digest('hex');

/**
 * Gives every demo enterprise with a member (the accounts of the README, the two registrations waiting for audit
 * included) the demo pay password. The audited enterprises of the onboarding desk that nobody signs in for have none.
 */
export async function setDemoPayPasswords(tx: Tx | Db) {
  const rows = await tx
    .selectDistinct({ id: enterprises.id, clientId: enterprises.clientId })
    .from(enterprises)
    .innerJoin(users, eq(users.enterpriseId, enterprises.id))
    .where(ne(enterprises.clientId, PLATFORM_CLIENT_ID));
  const values = await Promise.all(rows.map(async (e) => ({ enterpriseId: e.id, passwordHash: await hashPassword(demoPayPasswordHash(e.clientId)) })));
  if (values.length) await tx.insert(payPasswords).values(values).onConflictDoNothing();
}

/** The second factor a demo actor's money request carries: its enterprise's pay password, hashed as the browser does. */
export async function demoPayAuth(db: Db | Tx, actor: Actor): Promise<{ payPassword: string }> {
  return { payPassword: demoPayPasswordHash(await enterpriseClientId(db as Db, actor.enterpriseId!)) };
}
