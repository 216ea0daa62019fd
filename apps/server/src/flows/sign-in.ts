import { API_PREFIX } from '@coalx/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { roles, users } from '../db/schema/index';
import { AppError } from '../errors';
import type { Clock } from '../lib/clock';
import { recordAudit, storableText } from '../modules/audit/audit.service';
import { login } from '../modules/auth/auth.service';
import { auditNaming } from '../queries/audit-naming';

/** Who signs in from where: the trail records the address and the browser of every try. */
export interface SignInMeta {
  ip: string;
  userAgent: string;
  requestId: string;
}

const SIGN_IN_ROUTE = `${API_PREFIX}/sys/login`;

/**
 * Sign-in with its trace (issue 27 item 2): every try leaves a row in 操作日志 — 登录 when it succeeded, 登录失败
 * for a wrong password, an unknown name, a disabled account or an enterprise not approved, 账号锁定 when this try
 * locked the account (or found it locked). The password is never recorded; the name tried is, for an unknown one.
 */
export async function signIn(db: Db, clock: Clock, input: { username: string; password: string }, meta: SignInMeta) {
  try {
    const result = await login(db, clock, input, meta);
    await recordSignIn(db, clock, input.username, meta, null);
    return result;
  } catch (err) {
    if (err instanceof AppError) await recordSignIn(db, clock, input.username, meta, err);
    throw err;
  }
}

async function recordSignIn(db: Db, clock: Clock, username: string, meta: SignInMeta, refusal: AppError | null) {
  const [user] = await db
    .select({ id: users.id, enterpriseId: users.enterpriseId, roleId: users.roleId, roleCode: roles.baseRole })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(eq(users.username, username))
    .limit(1);
  await recordAudit(db, {
    at: clock.now(),
    userId: user?.id ?? null,
    username: storableText(username),
    enterpriseId: user?.enterpriseId ?? null,
    role: user?.roleCode ?? '',
    roleId: user?.roleId,
    action: refusal === null ? '登录' : refusal.code === 'account_locked' ? '账号锁定' : '登录失败',
    method: 'POST',
    route: SIGN_IN_ROUTE,
    objectType: '用户',
    objectId: user ? String(user.id) : '',
    changes: null,
    body: { userAgent: storableText(meta.userAgent.slice(0, 300)) },
    result: refusal === null ? 'success' : 'refused',
    errorCode: refusal?.code ?? '',
    statusCode: refusal?.status ?? 200,
    ip: meta.ip,
    requestId: meta.requestId,
  }, auditNaming);
}
