import { idCardCheckChar } from '@coalx/shared';
import { and, asc, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { enterprises, messageEvents, messages, ukeyCertificates, users } from '../../db/schema/index';
import { ensureAreas } from '../../modules/area/area.service';
import { register, registrationPayload, uniqueCreditCode } from '../../modules/enterprise/onboarding.test-helpers';
import { newDeviceKey } from '../../modules/ukey/ukey.test-helpers';
import { runScheduledJobs } from '../../plugins/scheduler';
import { signedIn } from '../../test/factories';
import { multipart } from '../../test/multipart';
import { tradingParty, type TradingParty } from '../../test/order-factory';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';

const DAY = 86_400_000;
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 9)]);

describe.each(testDatabaseKinds())('account notices on %s', (kind) => {
  let t: TestApp;
  let operator: { token: string; user: { id: number } };

  beforeAll(async () => {
    t = await createTestApp(kind);
    await ensureAreas(t.database.db);
    operator = await signedIn(t.app, t.database.db, { role: 'operator' });
  }, 120_000);
  afterAll(async () => t?.close());

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, token?: string, payload?: object) =>
    t.app.inject({ method, url: `/trade-api${url}`, headers: token ? { 'x-access-token': token } : {}, ...(payload ? { payload } : {}) });
  const messagesOf = (userId: number, kind: string) =>
    t.database.db.select().from(messages).where(and(eq(messages.userId, userId), eq(messages.kind, kind))).orderBy(asc(messages.id));
  const settled = () => t.app.notifications.settled();
  const round = async () => {
    await runScheduledJobs(t.app);
    await t.app.notifications.settled();
  };

  async function registered() {
    const payload = await registrationPayload(t.app, t.database.db);
    const response = await register(t.app, payload);
    expect(response.statusCode, response.body).toBe(200);
    const [enterprise] = await t.database.db.select().from(enterprises).where(eq(enterprises.organName, payload.organName as string));
    const [registrant] = await t.database.db.select().from(users).where(eq(users.username, payload.username as string));
    return { enterprise: enterprise!, registrant: registrant! };
  }

  it('a registration is the operator\'s to-do; approved or rejected, the registrant is told', async () => {
    const first = await registered();
    await settled();
    const todo = (await messagesOf(operator.user.id, 'todo.enterprise_audit')).find((m) => m.content.includes(first.enterprise.organName));
    expect(todo).toMatchObject({ title: '待审核企业注册', category: 'todo', link: '/operation/enterpriseAudit' });
    expect(todo!.content).toContain(first.enterprise.creditCode);

    expect((await call('POST', '/sys/enterprise/audit/approve', operator.token, { id: first.enterprise.id })).statusCode).toBe(200);
    await settled();
    const [approved] = await messagesOf(first.registrant.id, 'enterprise.approved');
    expect(approved).toMatchObject({ title: '企业注册审核通过', category: 'account', link: '/companyInfo' });
    expect(approved!.content).toContain(first.enterprise.clientId);

    const second = await registered();
    expect((await call('POST', '/sys/enterprise/audit/reject', operator.token, { id: second.enterprise.id, reason: '营业执照照片不清晰' })).statusCode).toBe(200);
    await settled();
    const [rejected] = await messagesOf(second.registrant.id, 'enterprise.rejected');
    expect(rejected).toMatchObject({ title: '企业注册审核未通过', link: '/user/register?mode=resubmit' });
    expect(rejected!.content).toContain('原因：营业执照照片不清晰');
    expect(await messagesOf(second.registrant.id, 'enterprise.approved')).toHaveLength(0);
  });

  it('a change of the legal data is the operator\'s to-do; its answer goes to the enterprise admins', async () => {
    const party = await tradingParty(t);
    const change = (legalPerson: string) => ({ organName: `变更后的煤业有限公司${party.admin.id}${legalPerson.length}`, creditCode: uniqueCreditCode(), legalPerson, bankName: '中国银行', bankBranch: '北京分行', bankAccountNo: '6217000000000001' });
    expect((await call('POST', '/sys/enterprise/change/apply', party.adminToken, change('新法人'))).statusCode).toBe(200);
    await settled();
    const todo = (await messagesOf(operator.user.id, 'todo.enterprise_change')).find((m) => m.content.includes(party.enterprise.organName));
    expect(todo).toMatchObject({ title: '待审核企业变更', link: '/operation/enterpriseAudit' });
    const list = (await call('GET', '/sys/enterprise/change/list?status=pending&pageSize=100', operator.token)).json().result.records as { id: number; enterpriseId: number }[];
    const mine = list.find((c) => c.enterpriseId === party.enterprise.id)!;
    expect((await call('POST', '/sys/enterprise/change/reject', operator.token, { id: mine.id, reason: '缺少新营业执照' })).statusCode).toBe(200);
    await settled();
    const [rejected] = await messagesOf(party.admin.id, 'enterprise.change_rejected');
    expect(rejected!.content).toContain('原因：缺少新营业执照');
    // a trader does not edit the enterprise's data: not told
    expect(await messagesOf(party.trader.id, 'enterprise.change_rejected')).toHaveLength(0);

    expect((await call('POST', '/sys/enterprise/change/apply', party.adminToken, change('另一位新法人'))).statusCode).toBe(200);
    const again = (await call('GET', '/sys/enterprise/change/list?status=pending&pageSize=100', operator.token)).json().result.records as { id: number; enterpriseId: number }[];
    expect((await call('POST', '/sys/enterprise/change/approve', operator.token, { id: again.find((c) => c.enterpriseId === party.enterprise.id)!.id })).statusCode).toBe(200);
    await settled();
    const [approved] = await messagesOf(party.admin.id, 'enterprise.change_approved');
    expect(approved!.content).toContain(`变更后的煤业有限公司${party.admin.id}`);
  });

  it('a driver is the operator\'s to-do; rejected, resubmitted and approved, the enterprise is told', async () => {
    const party = await tradingParty(t);
    const upload = async (name: string) => {
      const { payload, headers } = multipart({ name, data: PNG });
      const response = await t.app.inject({ method: 'POST', url: '/trade-api/api/common/upload', payload, headers: { ...headers, 'x-access-token': party.traderToken } });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().result.url as string;
    };
    const first17 = `14060219850317${String(party.admin.id % 1000).padStart(3, '0')}`;
    const created = await call('POST', '/api/driver', party.traderToken, {
      name: '王建国',
      idCardNo: first17 + idCardCheckChar(first17),
      mobile: '13935012345',
      licenceNo: '140602198503171234',
      plateNo: '晋B12345',
      vehicleType: 'heavy_semi_trailer',
      ratedLoadKg: 49_000,
      idCardPhoto: await upload('身份证.png'),
      drivingLicencePhoto: await upload('驾驶证.png'),
      vehicleLicencePhoto: await upload('行驶证.png'),
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().result.id as number;
    await settled();
    const todo = (await messagesOf(operator.user.id, 'todo.driver_audit')).filter((m) => m.content.includes(party.enterprise.organName));
    expect(todo).toHaveLength(1);
    expect(todo[0]).toMatchObject({ title: '待审核司机', link: '/logistics/driverAudit' });
    expect(todo[0]!.content).toContain('晋B12345');

    expect((await call('POST', `/api/driver/${id}/reject`, operator.token, { reason: '行驶证照片模糊' })).statusCode).toBe(200);
    await settled();
    const [rejected] = await messagesOf(party.trader.id, 'driver.rejected');
    expect(rejected).toMatchObject({ title: '司机审核被驳回', category: 'delivery', link: '/logistics/transport?tab=drivers' });
    expect(rejected!.content).toContain('原因：行驶证照片模糊');

    expect((await call('POST', `/api/driver/${id}/resubmit`, party.traderToken)).statusCode).toBe(200);
    await settled();
    const queued = (await messagesOf(operator.user.id, 'todo.driver_audit')).filter((m) => m.content.includes(party.enterprise.organName));
    expect(queued.map((m) => m.title)).toEqual(['待审核司机', '司机资料已重新提交']);
    expect((await call('POST', `/api/driver/${id}/approve`, operator.token)).statusCode).toBe(200);
    await settled();
    expect(await messagesOf(party.admin.id, 'driver.approved')).toHaveLength(1);
  });

  describe('key devices', () => {
    let party: TradingParty;
    let deviceId: number;
    const apply = async (name: string) => {
      const key = await newDeviceKey();
      const applied = await call('POST', '/api/ukey/device/apply', party.traderToken, { deviceName: name, csr: key.csr });
      expect(applied.statusCode, applied.body).toBe(200);
      return applied.json().result.id as number;
    };

    beforeAll(async () => {
      party = await tradingParty(t);
    }, 60_000);

    it('issued, rejected or revoked: the holder and the enterprise admins are told', async () => {
      deviceId = await apply('交易员办公电脑');
      expect((await call('POST', '/api/ukey/device/approve', party.adminToken, { deviceId })).statusCode).toBe(200);
      await settled();
      const [holder] = await messagesOf(party.trader.id, 'ukey.device_issued');
      expect(holder).toMatchObject({ title: '数字证书已启用', category: 'account', link: '/ukeyManage/info' });
      expect(holder!.content).toContain('您申请的数字证书「交易员办公电脑」');
      const [admin] = await messagesOf(party.admin.id, 'ukey.device_issued');
      expect(admin!.content).toContain('本企业的数字证书「交易员办公电脑」');

      const refused = await apply('家里的电脑');
      expect((await call('POST', '/api/ukey/device/reject', party.adminToken, { deviceId: refused, reason: '请使用办公电脑' })).statusCode).toBe(200);
      await settled();
      expect((await messagesOf(party.trader.id, 'ukey.device_rejected'))[0]!.content).toContain('原因：请使用办公电脑');

      const spare = await apply('备用电脑');
      expect((await call('POST', '/api/ukey/device/approve', party.adminToken, { deviceId: spare })).statusCode).toBe(200);
      expect((await call('POST', '/api/ukey/device/delete', party.traderToken, { deviceId: spare, reason: 'keyCompromise' })).statusCode).toBe(200);
      await settled();
      const [revoked] = await messagesOf(party.admin.id, 'ukey.device_revoked');
      expect(revoked!.content).toContain('「备用电脑」');
      expect(revoked!.content).toContain('密钥泄露或丢失');
      expect(await messagesOf(party.trader.id, 'ukey.device_revoked')).toHaveLength(1);
    });

    it('30 days before the certificate expires, once: not before, not on the next rounds, not after a restart', async () => {
      const [cert] = await t.database.db.select().from(ukeyCertificates).where(eq(ukeyCertificates.deviceId, deviceId));
      const expiring = async () => [...(await messagesOf(party.trader.id, 'ukey.expiring_30d')), ...(await messagesOf(party.admin.id, 'ukey.expiring_30d'))];
      t.clock.advance(cert!.notAfter.getTime() - 31 * DAY - t.clock.now().getTime());
      await round();
      expect(await expiring()).toHaveLength(0);
      t.clock.advance(2 * DAY);
      await round();
      const told = await expiring();
      expect(told).toHaveLength(2);
      for (const m of told) {
        expect(m).toMatchObject({ title: '数字证书即将过期', link: '/ukeyManage/info' });
        expect(m.dueAt!.getTime()).toBe(cert!.notAfter.getTime());
      }
      t.clock.advance(DAY);
      await round();
      const again = await buildApp({ config: t.config, database: t.database, clock: t.clock });
      await again.ready();
      try {
        await runScheduledJobs(again);
        await again.notifications.settled();
      } finally {
        await again.close();
      }
      expect(await expiring()).toHaveLength(2);
      expect(await t.database.db.select().from(messageEvents).where(like(messageEvents.eventKey, `ukey.expiring_30d:${cert!.id}:%`))).toHaveLength(1);
    });
  });
});
