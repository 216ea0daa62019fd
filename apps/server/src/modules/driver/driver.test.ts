import { idCardCheckChar, type Workbench } from '@coalx/shared';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drivers } from '../../db/schema/index';
import type { Actor } from '../../lib/actor';
import { createUser, loginAs, signedIn } from '../../test/factories';
import { multipart } from '../../test/multipart';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';
import { approvedDriver, driversForView } from './driver.service';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);
const PDF = Buffer.from('%PDF-1.4\n% test\n');

let serial = 100;
/** A fresh, valid 居民身份证号: region 140602 (朔州), born 1985-03-17, a new sequence each call. */
function newIdCard(): string {
  const first17 = `1406021985031${String(serial++ % 10000).padStart(4, '0')}`;
  return first17 + idCardCheckChar(first17);
}
/** One whose check character is X, typed in lower case as people do. */
function newIdCardWithX(): string {
  for (;;) {
    const id = newIdCard();
    if (id.endsWith('X')) return id.toLowerCase();
  }
}

describe.each(testDatabaseKinds())('drivers and vehicles on %s', (kind) => {
  let t: TestApp;
  /** 晋北 (the transporting enterprise): a trader and its admin */
  let owner: { token: string; adminToken: string; enterpriseId: number; actor: Actor };
  /** another enterprise */
  let stranger: { token: string; enterpriseId: number; actor: Actor };
  let operator: { token: string };
  let operator2: { token: string };

  beforeAll(async () => {
    t = await createTestApp(kind);
    const db = t.database.db;
    const trader = await signedIn(t.app, db, { role: 'trader' });
    const admin = await createUser(db, { role: 'enterprise_admin', enterpriseId: trader.user.enterpriseId });
    owner = {
      token: trader.token,
      adminToken: await loginAs(t.app, admin.username),
      enterpriseId: trader.user.enterpriseId!,
      actor: { userId: trader.user.id, username: trader.user.username, role: 'trader', enterpriseId: trader.user.enterpriseId, sessionId: 0 },
    };
    const other = await signedIn(t.app, db, { role: 'trader' });
    stranger = {
      token: other.token,
      enterpriseId: other.user.enterpriseId!,
      actor: { userId: other.user.id, username: other.user.username, role: 'trader', enterpriseId: other.user.enterpriseId, sessionId: 0 },
    };
    operator = await signedIn(t.app, db, { role: 'operator' });
    operator2 = await signedIn(t.app, db, { role: 'operator' });
  });
  afterAll(async () => t?.close());

  const api = (method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: unknown) =>
    t.app.inject({ method, url: `/trade-api/api/driver${url}`, headers: { 'x-access-token': token }, ...(payload === undefined ? {} : { payload: payload as object }) });

  async function upload(token: string, name = '证件.png', data: Buffer = PNG): Promise<string> {
    const { payload, headers } = multipart({ name, data });
    const response = await t.app.inject({ method: 'POST', url: '/trade-api/api/common/upload', payload, headers: { ...headers, 'x-access-token': token } });
    expect(response.statusCode).toBe(200);
    return response.json().result.url;
  }

  async function driverInput(token: string, overrides: Record<string, unknown> = {}) {
    return {
      name: '王建国',
      idCardNo: newIdCard(),
      mobile: '13935012345',
      licenceNo: '140602198503171234',
      plateNo: '晋B12345',
      vehicleType: 'heavy_semi_trailer',
      ratedLoadKg: 49_000,
      idCardPhoto: await upload(token, '身份证.png'),
      drivingLicencePhoto: await upload(token, '驾驶证.png'),
      vehicleLicencePhoto: await upload(token, '行驶证.png'),
      ...overrides,
    };
  }

  async function register(token = owner.token, overrides: Record<string, unknown> = {}) {
    const response = await api('POST', '', token, await driverInput(token, overrides));
    expect(response.statusCode, response.body).toBe(200);
    return response.json().result as { id: number; status: string; idCardNo: string };
  }

  const driverCount = async () => Number((await t.database.db.select({ n: count() }).from(drivers))[0]!.n);
  const rowOf = async (id: number) => (await t.database.db.select().from(drivers).where(eq(drivers.id, id)))[0]!;

  it('registers a driver as 待审核; the operator approves him from the queue and he can be dispatched', async () => {
    const input = await driverInput(owner.token, { idCardNo: newIdCardWithX(), plateNo: '晋b·66688' });
    const created = await api('POST', '', owner.token, input);
    expect(created.statusCode, created.body).toBe(200);
    const driver = created.json().result;
    expect(created.json().message).toBe('已登记，等待交易中心审核');
    expect(driver).toMatchObject({ status: 'pending', statusText: '待审核', plateNo: '晋B66688', vehicleTypeText: '重型半挂牵引车', ratedLoadKg: 49_000, idCardMasked: false });
    expect(driver.photos.map((p: { kindText: string }) => p.kindText)).toEqual(['身份证照片', '驾驶证照片', '行驶证照片']);

    // the operator's queue has him, pending first
    const queue = await api('GET', '/list?status=pending&pageSize=100', operator.token);
    expect(queue.statusCode).toBe(200);
    expect(queue.json().result.records.map((r: { id: number }) => r.id)).toContain(driver.id);
    const all = (await api('GET', '/list?pageSize=100', operator.token)).json().result.records as { status: string }[];
    const firstOther = all.findIndex((r) => r.status !== 'pending');
    expect(firstOther === -1 || all.slice(firstOther).every((r) => r.status !== 'pending')).toBe(true);

    await expect(approvedDriver(t.database.db, owner.enterpriseId, driver.id)).rejects.toThrow('该司机未通过审核，不能派车');
    const approved = await api('POST', `/${driver.id}/approve`, operator.token);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().result).toMatchObject({ status: 'approved', statusText: '已通过' });
    expect((await approvedDriver(t.database.db, owner.enterpriseId, driver.id)).id).toBe(driver.id);
    // only the enterprise's own driver is dispatched by it
    await expect(approvedDriver(t.database.db, stranger.enterpriseId, driver.id)).rejects.toThrow('司机不存在');

    const mine = (await api('GET', '/list?pageSize=100', owner.token)).json().result.records as { id: number; status: string; idCardNo: string }[];
    expect(mine.find((r) => r.id === driver.id)).toMatchObject({ status: 'approved', idCardNo: input.idCardNo.toUpperCase() });
  });

  it('refuses wrong details with a Chinese message and stores nothing', async () => {
    const foreignPhoto = await upload(stranger.token, '别人的.png');
    const pdfKey = await upload(owner.token, '证件.pdf', PDF);
    const right = newIdCard();
    const wrongCheck = right.slice(0, 17) + (right[17] === '1' ? '2' : '1');
    const cases: [string, Record<string, unknown>, number, string][] = [
      ['wrong check digit', { idCardNo: wrongCheck }, 400, '身份证号码校验位不正确'],
      ['short ID number', { idCardNo: right.slice(0, 15) }, 400, '身份证号码须为 18 位'],
      ['impossible birth date', { idCardNo: `14060219851332123${idCardCheckChar('14060219851332123')}` }, 400, '身份证号码中的出生日期不正确'],
      ['bad plate', { plateNo: '晋B1234' }, 400, '车牌号须为 7 位（新能源车 8 位），如 晋B12345'],
      ['plate of no province', { plateNo: 'AB12345' }, 400, '车牌号首字须为省份简称，如 晋、蒙、冀'],
      ['plate with I', { plateNo: '晋I12345' }, 400, '车牌号格式不正确，如 晋B12345、晋BD12345、蒙K1234挂'],
      ['huge rated load', { ratedLoadKg: 1e20 }, 400, '核定载重须在 1 至 100 吨之间'],
      ['negative rated load', { ratedLoadKg: -49_000 }, 400, '核定载重须在 1 至 100 吨之间'],
      ['fractional kg', { ratedLoadKg: 49_000.5 }, 400, '核定载重须为整数千克'],
      ['bad mobile', { mobile: '1234567' }, 400, '请输入正确的 11 位手机号码'],
      ['bad licence number', { licenceNo: 'ABC' }, 400, '驾驶证号须为 12-18 位字母或数字'],
      ['one-character name', { name: '王' }, 400, '司机姓名至少 2 个字'],
      ['unknown vehicle type', { vehicleType: 'spaceship' }, 400, '请选择车辆类型'],
      ['missing photo', { idCardPhoto: undefined }, 400, '请上传身份证照片'],
      ['a PDF for a photo', { vehicleLicencePhoto: pdfKey }, 400, '行驶证照片须为上传的 JPG 或 PNG 图片，请重新上传'],
      ["someone else's photo", { drivingLicencePhoto: foreignPhoto }, 422, '驾驶证照片无效，请重新上传'],
      ['a photo that was never uploaded', { idCardPhoto: '2026/01/01/00000000-0000-4000-8000-000000000000.png' }, 422, '身份证照片无效，请重新上传'],
    ];
    const before = await driverCount();
    for (const [what, overrides, status, message] of cases) {
      const response = await api('POST', '', owner.token, await driverInput(owner.token, overrides));
      expect(response.statusCode, what).toBe(status);
      // validation refusals are told as 请求参数有误，<the field's rule>
      expect(response.json().message, what).toBe(status === 400 ? `请求参数有误，${message}` : message);
    }
    expect(await driverCount()).toBe(before);
  });

  it('takes new-energy plates of 8 characters and trailer plates', async () => {
    for (const plateNo of ['晋BD12345', '晋B12345F', '蒙K1234挂']) {
      const driver = await register(owner.token, { plateNo });
      expect((await rowOf(driver.id)).plateNo).toBe(plateNo);
    }
  });

  it('refuses the same ID card twice in one enterprise, also when sent at once, but another enterprise may register him', async () => {
    const idCardNo = newIdCard();
    await register(owner.token, { idCardNo });
    const again = await api('POST', '', owner.adminToken, await driverInput(owner.adminToken, { idCardNo: idCardNo.toLowerCase() }));
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('该司机已登记');

    const racing = newIdCard();
    const inputs = await Promise.all(Array.from({ length: 5 }, () => driverInput(owner.token, { idCardNo: racing })));
    const answers = await Promise.all(inputs.map((input) => api('POST', '', owner.token, input)));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    for (const refused of answers.filter((a) => a.statusCode !== 200)) {
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe('该司机已登记');
    }

    const elsewhere = await register(stranger.token, { idCardNo });
    expect(elsewhere.status).toBe('pending');
  });

  it('keeps a driver from other enterprises: they cannot read, edit, stop or list him, nor open his photos', async () => {
    const driver = await register();
    const detail = (await api('GET', `/${driver.id}`, owner.token)).json().result;

    const read = await api('GET', `/${driver.id}`, stranger.token);
    expect(read.statusCode).toBe(404);
    expect(read.json().message).toBe('司机不存在');
    const edit = await api('PUT', `/${driver.id}`, stranger.token, await driverInput(stranger.token));
    expect(edit.statusCode).toBe(404);
    for (const action of ['disable', 'resubmit']) {
      const response = await api('POST', `/${driver.id}/${action}`, stranger.token);
      expect(response.statusCode, action).toBe(404);
      expect(response.json().message).toBe('司机不存在');
    }
    const theirs = (await api('GET', '/list?pageSize=100', stranger.token)).json().result.records as { enterpriseId: number }[];
    expect(theirs.every((r) => r.enterpriseId === stranger.enterpriseId)).toBe(true);
    expect((await rowOf(driver.id)).status).toBe('pending');

    // the photos: the owner and the trading centre, nobody else
    for (const photo of detail.photos as { url: string }[]) {
      const file = (token: string) => t.app.inject({ method: 'GET', url: `/trade-api/api/common/static/${photo.url}`, headers: { 'x-access-token': token } });
      expect((await file(owner.adminToken)).statusCode).toBe(200);
      expect((await file(operator.token)).statusCode).toBe(200);
      expect((await file(stranger.token)).statusCode).toBe(403);
    }
  });

  it('lets only the trading centre audit, and asks a reason of 2-200 characters to reject', async () => {
    const driver = await register();
    for (const token of [owner.token, owner.adminToken]) {
      const approve = await api('POST', `/${driver.id}/approve`, token);
      expect(approve.statusCode).toBe(403);
      expect(approve.json().message).toMatch(/[\u4e00-\u9fa5]/);
    }
    // an operator cannot register or edit drivers for an enterprise
    expect((await api('POST', '', operator.token, await driverInput(owner.token))).statusCode).toBe(403);
    const short = await api('POST', `/${driver.id}/reject`, operator.token, { reason: '差' });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe('请求参数有误，驳回原因至少 2 个字');
    const long = await api('POST', `/${driver.id}/reject`, operator.token, { reason: '差'.repeat(201) });
    expect(long.json().message).toBe('请求参数有误，驳回原因不超过 200 个字');
    expect((await api('POST', '/999999999/approve', operator.token)).json().message).toBe('司机不存在');
    expect((await rowOf(driver.id)).status).toBe('pending');
  });

  it('of two operators deciding at once, one wins and the other is told the state changed', async () => {
    const driver = await register();
    const [a, b] = await Promise.all([
      api('POST', `/${driver.id}/approve`, operator.token),
      api('POST', `/${driver.id}/reject`, operator2.token, { reason: '行驶证照片模糊，请重新拍摄' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const loser = a.statusCode === 409 ? a : b;
    expect(loser.json().message).toMatch(/^司机审核状态为「已(通过|驳回)」/);
  });

  it('shows the whole ID number to the owner and the trading centre, masked to anyone else', async () => {
    const driver = await register();
    const operatorActor: Actor = { userId: 0, username: 'op', role: 'operator', enterpriseId: null, sessionId: 0 };
    const full = (await driversForView(t.database.db, owner.actor, [driver.id])).get(driver.id)!;
    const forOperator = (await driversForView(t.database.db, operatorActor, [driver.id])).get(driver.id)!;
    const masked = (await driversForView(t.database.db, stranger.actor, [driver.id])).get(driver.id)!;
    expect(full.idCardNo).toBe(driver.idCardNo);
    expect(forOperator.idCardNo).toBe(driver.idCardNo);
    expect(masked.idCardNo).toBe(`${driver.idCardNo.slice(0, 4)}**********${driver.idCardNo.slice(-4)}`);
    expect(masked.idCardMasked).toBe(true);
    expect(masked.licenceNo).not.toBe(full.licenceNo);
  });

  it('sends an edited approved or rejected driver back to audit; a pending one stays pending; stop and resubmit', async () => {
    const driver = await register();
    const input = await driverInput(owner.token, { idCardNo: driver.idCardNo });
    expect((await api('PUT', `/${driver.id}`, owner.token, { ...input, plateNo: '晋B77777' })).json().result.status).toBe('pending');
    expect((await rowOf(driver.id)).plateNo).toBe('晋B77777');

    await api('POST', `/${driver.id}/approve`, operator.token);
    const edited = await api('PUT', `/${driver.id}`, owner.token, { ...input, plateNo: '晋B88888' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().message).toBe('已修改，等待交易中心重新审核');
    expect(edited.json().result.status).toBe('pending');
    await expect(approvedDriver(t.database.db, owner.enterpriseId, driver.id)).rejects.toThrow('该司机未通过审核');

    // an unchanged save of an approved driver keeps him approved
    await api('POST', `/${driver.id}/approve`, operator.token);
    const same = await api('PUT', `/${driver.id}`, owner.token, { ...input, plateNo: '晋B88888' });
    expect(same.json()).toMatchObject({ message: '已保存', result: { status: 'approved' } });

    // stop him: no longer dispatched, and not edited until resubmitted
    expect((await api('POST', `/${driver.id}/disable`, owner.token)).json().result.status).toBe('disabled');
    await expect(approvedDriver(t.database.db, owner.enterpriseId, driver.id)).rejects.toThrow('该司机未通过审核');
    const whileStopped = await api('PUT', `/${driver.id}`, owner.token, { ...input, plateNo: '晋B99999' });
    expect(whileStopped.statusCode).toBe(422);
    expect(whileStopped.json().message).toBe('该司机已停用，请先重新提交后再修改');
    const twice = await api('POST', `/${driver.id}/disable`, owner.token);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('司机审核状态为「已停用」，不能改为「已停用」，请刷新后重试');
    expect((await api('POST', `/${driver.id}/resubmit`, owner.token)).json().result.status).toBe('pending');

    // rejected: the reason is shown; an edit sends him back and clears it
    await api('POST', `/${driver.id}/reject`, operator.token, { reason: '驾驶证已过有效期' });
    const rejected = (await api('GET', `/${driver.id}`, owner.token)).json().result;
    expect(rejected).toMatchObject({ status: 'rejected', auditNote: '驾驶证已过有效期' });
    expect(rejected.auditedBy).toBeTruthy();
    const fixed = await api('PUT', `/${driver.id}`, owner.token, { ...input, plateNo: '晋B88888', drivingLicencePhoto: await upload(owner.token, '新驾驶证.png') });
    expect(fixed.json().result).toMatchObject({ status: 'pending', auditNote: '' });
    // saved unchanged after a rejection: sent to be looked at again
    await api('POST', `/${driver.id}/reject`, operator.token, { reason: '请补充行驶证副页' });
    const again = (await api('GET', `/${driver.id}`, owner.token)).json().result;
    const unchanged = await api('PUT', `/${driver.id}`, owner.token, { ...input, plateNo: again.plateNo, ...Object.fromEntries(again.photos.map((p: { kind: string; url: string }) => [p.kind, p.url])) });
    expect(unchanged.json()).toMatchObject({ message: '已修改，等待交易中心重新审核', result: { status: 'pending' } });
  });

  it("refuses an edit to another of the enterprise's drivers' ID number", async () => {
    const first = await register();
    const second = await register();
    const clash = await api('PUT', `/${second.id}`, owner.token, await driverInput(owner.token, { idCardNo: first.idCardNo }));
    expect(clash.statusCode).toBe(409);
    expect(clash.json().message).toBe('该司机已登记');
    expect((await rowOf(second.id)).idCardNo).toBe(second.idCardNo);
  });

  it("puts pending drivers on the operator's 工作台 and rejected ones on the enterprise's", async () => {
    const workbench = async (token: string) => (await t.app.inject({ method: 'GET', url: '/trade-api/api/workbench/todo', headers: { 'x-access-token': token } })).json().result as Workbench;
    const pendingBefore = (await workbench(operator.token)).todos.find((todo) => todo.key === 'driverAudit');
    expect(pendingBefore).toMatchObject({ title: '待审核司机', path: '/logistics/driverAudit?status=pending' });
    // a fresh enterprise with nothing rejected has no such item
    const fresh = await signedIn(t.app, t.database.db, { role: 'trader' });
    expect((await workbench(fresh.token)).todos.some((todo) => todo.key === 'rejectedDrivers')).toBe(false);
    const driver = await register(fresh.token);
    expect((await workbench(operator.token)).todos.find((todo) => todo.key === 'driverAudit')!.count).toBe(pendingBefore!.count + 1);
    await api('POST', `/${driver.id}/reject`, operator.token, { reason: '身份证照片不清晰' });
    expect((await workbench(fresh.token)).todos.find((todo) => todo.key === 'rejectedDrivers')).toMatchObject({ title: '被驳回的司机', count: 1, path: '/logistics/transport?tab=drivers&status=rejected' });
  });
});
