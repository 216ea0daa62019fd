import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { createEnterprise, createUser, loginAs } from '../../test/factories';
import type { Actor } from '../../lib/actor';
import { confirmDepositIn, applyDepositIn } from './funds.service';
import { fileObjects } from '../../db/schema/index';
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../lib/clock';

let requestSeq = 0;
export const newRequestId = () => `req-${process.pid}-${Date.now()}-${++requestSeq}`;

/** An audited enterprise with a settlement account, its admin signed in. */
export async function fundedEnterprise(app: FastifyInstance, db: Db) {
  const enterprise = await createEnterprise(db, { bankName: '中国工商银行', bankBranch: '朔州分行', bankAccountNo: '6222020200112233445' });
  const user = await createUser(db, { role: 'enterprise_admin', enterpriseId: enterprise.id });
  const token = await loginAs(app, user.username);
  const actor: Actor = { userId: user.id, username: user.username, role: 'enterprise_admin', enterpriseId: enterprise.id, sessionId: 0 };
  return { enterprise, user, token, actor };
}

/** Credits an enterprise through the real 入金 path: declared, then confirmed by an operator. */
export async function creditThroughDepositIn(db: Db, clock: Clock, actor: Actor, operator: Actor, amount: number) {
  const key = `2026/01/01/${randomUUID()}.png`;
  await db.insert(fileObjects).values({
    storageKey: key,
    originalName: 'voucher.png',
    contentType: 'image/png',
    size: 1,
    sha256: 'x',
    visibility: 'private',
    ownerEnterpriseId: actor.enterpriseId,
    uploadedBy: actor.userId,
  });
  const application = await applyDepositIn(db, actor, {
    amount,
    bankName: '中国银行',
    payerAccountNo: '62170000111122223',
    transferDate: '2026-11-20',
    voucherUrl: key,
    remark: '',
    requestId: newRequestId(),
  });
  await confirmDepositIn(db, clock, operator, application.id);
  return application;
}

export async function operatorActor(db: Db): Promise<Actor> {
  const user = await createUser(db, { role: 'operator' });
  return { userId: user.id, username: user.username, role: 'operator', enterpriseId: null, sessionId: 0 };
}
