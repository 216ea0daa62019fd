import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enterprises, smsCodes, users } from '../../db/schema/index';
import { createEnterprise, loginAs, signedIn } from '../../test/factories';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';
import { ensureAreas } from '../area/area.service';
import {
  PNG,
  lastCode,
  register,
  registrationKey,
  registrationPayload,
  sendSms,
  uniqueCreditCode,
  uniqueIp,
  uniqueMobile,
  uploadAnonymous,
} from './onboarding.test-helpers';

describe.each(testDatabaseKinds())('enterprise onboarding on %s', (kind) => {
  let t: TestApp;
  let operatorToken: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    await ensureAreas(t.database.db);
    operatorToken = (await signedIn(t.app, t.database.db, { role: 'operator' })).token;
  });
  afterAll(async () => t?.close());

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, token?: string, payload?: object) =>
    t.app.inject({ method, url: `/trade-api${url}`, headers: token ? { 'x-access-token': token } : {}, ...(payload ? { payload } : {}) });
  const enterpriseCount = async () => (await t.database.db.select({ n: count() }).from(enterprises))[0]!.n;
  const enterpriseByName = async (organName: string) =>
    (await t.database.db.select().from(enterprises).where(eq(enterprises.organName, organName)))[0];
  const login = (username: string, password: string) => call('POST', '/sys/login', undefined, { username, password });

  async function registered(overrides: Record<string, unknown> = {}) {
    const payload = await registrationPayload(t.app, t.database.db, overrides);
    const response = await register(t.app, payload);
    expect(response.statusCode, response.body).toBe(200);
    const e = (await enterpriseByName(payload.organName as string))!;
    return { payload, enterprise: e };
  }

  it('registration → pending → operator approves → first sign-in must change the password → trades', async () => {
    const { payload, enterprise } = await registered();
    expect(enterprise).toMatchObject({ auditStatus: 'pending', areaName: '山西省/朔州市/朔城区', address: '山西省朔州市朔城区开发南路 1 号' });
    expect(enterprise.clientId).toMatch(/^C\d{6}$/);

    const refused = await login(payload.username as string, payload.password as string);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe('企业资料正在审核中，审核通过后即可登录');

    const list = (await call('GET', '/sys/enterprise/audit/list?auditStatus=pending&pageSize=100', operatorToken)).json().result;
    const record = list.records.find((r: { id: number }) => r.id === enterprise.id);
    expect(record).toMatchObject({
      organName: payload.organName,
      creditCode: payload.creditCode,
      registrant: { username: payload.username, realname: '王注册', mobile: payload.mobile },
      bankAccountNo: '0502012309022100999',
    });
    expect(record.attachments.map((a: { kind: string }) => a.kind)).toEqual(['licence', 'authorization']);
    // private attachments: the operator opens them, visitors do not
    const url = record.attachments[0].url;
    expect((await call('GET', `/api/common/static/${url}`, operatorToken)).statusCode).toBe(200);
    expect((await call('GET', `/api/common/static/${url}`)).statusCode).toBe(401);

    const approved = await call('POST', '/sys/enterprise/audit/approve', operatorToken, { id: enterprise.id });
    expect(approved.statusCode).toBe(200);
    expect(approved.json().result.auditStatus).toBe('approved');
    expect((await call('POST', '/sys/enterprise/audit/approve', operatorToken, { id: enterprise.id })).statusCode).toBe(409);

    const first = await login(payload.username as string, payload.password as string);
    expect(first.statusCode).toBe(200);
    expect(first.json().result.userInfo.isFirstLogin).toBe('1');
    expect(first.json().result.userInfo.role.code).toBe('enterprise_admin');
    const token = first.json().result.token;
    const changed = await call('PUT', '/sys/user/updatePassword', token, { oldPassword: payload.password, password: 'Changed#2026', confirmPassword: 'Changed#2026' });
    expect(changed.statusCode).toBe(200);
    const again = await login(payload.username as string, 'Changed#2026');
    expect(again.json().result.userInfo.isFirstLogin).toBe('0');
    // the owner reads its own attachments
    const attachments = (await call('GET', '/sys/enterprise/attachmentList', again.json().result.token)).json().result;
    expect(attachments).toHaveLength(2);
    expect((await call('GET', `/api/common/static/${attachments[0].url}`, again.json().result.token)).statusCode).toBe(200);
  });

  it('refuses bad input with a Chinese message and writes nothing', async () => {
    const base = await registrationPayload(t.app, t.database.db);
    const before = await enterpriseCount();
    const wrongCheck = (base.creditCode as string).slice(0, 17) + ((base.creditCode as string)[17] === '0' ? '1' : '0');
    const cases: [Record<string, unknown>, string][] = [
      [{ creditCode: wrongCheck }, '统一社会信用代码不正确'],
      [{ creditCode: '91140600MA0K8B2C1' }, '统一社会信用代码不正确'],
      [{ creditCode: '91140600MA0K8B2CIO' }, '统一社会信用代码不正确'],
      [{ mobile: '1234567890' }, '手机号码'],
      [{ mobile: '23800000000' }, '手机号码'],
      [{ contactMobile: '1380000000a' }, '手机号码'],
      [{ contactEmail: 'not-an-email' }, '电子邮箱'],
      [{ contactEmail: 'a@b' }, '电子邮箱'],
      [{ organName: '煤'.repeat(51) }, '企业名称不能超过 50 个字'],
      [{ legalPerson: '张'.repeat(31) }, '法定代表人不能超过 30 个字'],
      [{ addressDetail: 'x'.repeat(101) }, '详细地址不能超过 100 个字'],
      [{ organName: '晋北\n煤业有限公司' }, '不能包含换行'],
      [{ confirmPassword: 'Other#2026' }, '两次输入的密码不匹配!'],
      [{ password: 'short', confirmPassword: 'short' }, '密码至少 8 位'],
      [{ username: '1abc' }, '用户名须以字母开头'],
      [{ enterpriseType: 'bank' }, '请选择企业类型'],
      [{ bankAccountNo: '12ab' }, '银行账号须为 8-30 位数字'],
      [{ areaCode: '14' }, '请选择所在地区'],
      [{ areaCode: '1406' }, '请选择所在地区'],
      [{ areaCode: '999999' }, '请选择所在地区'],
      [{ licenceUrl: '../../etc/passwd' }, '附件无效'],
      [{ smsCode: '12345' }, '6 位短信验证码'],
      [{ isAdmin: true }, '请求包含不支持的字段'],
    ];
    for (const [override, text] of cases) {
      const response = await register(t.app, { ...base, ...override });
      expect(response.statusCode, JSON.stringify(override)).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, JSON.stringify(override)).toBeLessThan(500);
      expect(response.json().message, JSON.stringify(override)).toContain(text);
    }
    expect(await enterpriseCount()).toBe(before);
    // after all those refusals the code is still good: none of them spent it
    expect((await register(t.app, base)).statusCode).toBe(200);
  });

  it('keeps script as text: stored and returned exactly as typed', async () => {
    const organName = '<script>alert(1)</script>煤业有限公司';
    const contactName = '<img src=x onerror=alert(1)>';
    const { enterprise } = await registered({ organName, contactName });
    expect(enterprise.organName).toBe(organName);
    const list = await call('GET', `/sys/enterprise/audit/list?keyword=${encodeURIComponent('<script>')}`, operatorToken);
    expect(list.headers['content-type']).toContain('application/json');
    expect(list.json().result.records[0]).toMatchObject({ organName, contactName });
  });

  it('stops a second registration of the same name or credit code, before and at submission', async () => {
    const { payload } = await registered();
    const byName = await call('POST', '/sys/enterprise/checkExist', undefined, { organName: payload.organName });
    expect(byName.json().result).toEqual({ exists: true, field: 'organName', message: '该企业名称已注册，请勿重复注册' });
    const byCode = await call('POST', '/sys/enterprise/checkExist', undefined, { creditCode: (payload.creditCode as string).toLowerCase() });
    expect(byCode.json().result.field).toBe('creditCode');
    const byUser = await call('POST', '/sys/enterprise/checkExist', undefined, { username: payload.username });
    expect(byUser.json().result.field).toBe('username');
    const fresh = await call('POST', '/sys/enterprise/checkExist', undefined, { organName: '从未注册过的企业有限公司', creditCode: uniqueCreditCode() });
    expect(fresh.json().result.exists).toBe(false);
    expect((await call('POST', '/sys/enterprise/checkExist', undefined, {})).statusCode).toBe(400);

    const before = await enterpriseCount();
    const sameName = await register(t.app, await registrationPayload(t.app, t.database.db, { organName: payload.organName }));
    expect(sameName.statusCode).toBe(409);
    expect(sameName.json().message).toBe('该企业名称已注册，请勿重复注册');
    const sameCode = await register(t.app, await registrationPayload(t.app, t.database.db, { creditCode: payload.creditCode }));
    expect(sameCode.statusCode).toBe(409);
    expect(sameCode.json().message).toBe('该统一社会信用代码已注册，请勿重复注册');
    const sameUser = await register(t.app, await registrationPayload(t.app, t.database.db, { username: payload.username }));
    expect(sameUser.statusCode).toBe(409);
    expect(sameUser.json().message).toContain('已被使用');
    expect(await enterpriseCount()).toBe(before);
  });

  it('registers once when the same form is sent twice at the same moment (double click)', async () => {
    const payload = await registrationPayload(t.app, t.database.db);
    const before = await enterpriseCount();
    const responses = await Promise.all([register(t.app, payload), register(t.app, payload), register(t.app, payload)]);
    const okOnes = responses.filter((r) => r.statusCode === 200);
    expect(okOnes).toHaveLength(1);
    for (const r of responses.filter((x) => x.statusCode !== 200)) {
      expect([409, 422]).toContain(r.statusCode);
      expect(r.json().message).toMatch(/已使用|已注册|已被使用|重复/);
    }
    expect(await enterpriseCount()).toBe(before + 1);
    const accounts = await t.database.db.select().from(users).where(eq(users.username, payload.username as string));
    expect(accounts).toHaveLength(1);
  });

  it('refuses an attachment that is not really an image, a PDF from a visitor, and a visitor upload without scene', async () => {
    const fake = await uploadAnonymous(t.app, { name: 'licence.png', data: Buffer.from('MZ\x90 this is an executable') });
    expect(fake.statusCode).toBe(400);
    expect(fake.json().message).toContain('文件类型不支持');
    const pdf = await uploadAnonymous(t.app, { name: 'licence.pdf', data: Buffer.from('%PDF-1.4\n') });
    expect(pdf.statusCode).toBe(400);
    expect((await uploadAnonymous(t.app, { name: 'a.png', data: PNG }, uniqueIp(), {})).statusCode).toBe(401);
    expect((await uploadAnonymous(t.app, { name: 'a.png', data: PNG }, uniqueIp(), { scene: 'register', visibility: 'public' })).statusCode).toBe(403);
  });

  it('limits anonymous uploads per address', async () => {
    const ip = uniqueIp();
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await uploadAnonymous(t.app, undefined, ip)).statusCode);
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(statuses[20]).toBe(429);
  });

  it('lets a registration claim only unowned registration files', async () => {
    const { payload } = await registered();
    // the same files again: already claimed by the first registration
    const second = await registrationPayload(t.app, t.database.db, { licenceUrl: payload.licenceUrl });
    const response = await register(t.app, second);
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toContain('附件无效或已被使用');
    // a signed-in user's private voucher is not a registration file either
    const trader = await signedIn(t.app, t.database.db);
    const { payload: body, headers } = (await import('./onboarding.test-helpers')).multipart({ name: 'v.png', data: PNG });
    const voucher = await t.app.inject({ method: 'POST', url: '/trade-api/api/common/upload', payload: body, headers: { ...headers, 'x-access-token': trader.token } });
    const third = await registrationPayload(t.app, t.database.db, { authorizationUrl: voucher.json().result.url });
    expect((await register(t.app, third)).statusCode).toBe(422);
  });

  it('a rejected enterprise is told why, corrects its data and resubmits to pending', async () => {
    const { payload, enterprise } = await registered();
    expect((await call('POST', '/sys/enterprise/audit/reject', operatorToken, { id: enterprise.id })).statusCode).toBe(400);
    expect((await call('POST', '/sys/enterprise/audit/reject', operatorToken, { id: enterprise.id, reason: ' ' })).statusCode).toBe(400);
    const rejected = await call('POST', '/sys/enterprise/audit/reject', operatorToken, { id: enterprise.id, reason: '营业执照不清晰' });
    expect(rejected.json().result).toMatchObject({ auditStatus: 'rejected', auditReason: '营业执照不清晰' });

    const refused = await login(payload.username as string, payload.password as string);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe('企业审核未通过：营业执照不清晰，请修改资料后重新提交');

    const wrong = await call('POST', '/sys/enterprise/rejectedInfo', undefined, { username: payload.username, password: 'nope' });
    expect(wrong.statusCode).toBe(401);
    const info = await call('POST', '/sys/enterprise/rejectedInfo', undefined, { username: payload.username, password: payload.password });
    expect(info.json().result).toMatchObject({ auditReason: '营业执照不清晰', organName: payload.organName });

    const newLicence = await registrationKey(t.app);
    const { username, password, organName, creditCode, legalPerson, enterpriseType, areaCode, addressDetail, contactName, contactMobile, contactEmail, bankName, bankBranch, bankAccountNo, authorizationUrl } = payload;
    const resubmit = { username, password, organName, creditCode, legalPerson, enterpriseType, areaCode, addressDetail, contactName, contactMobile, contactEmail, bankName, bankBranch, bankAccountNo, authorizationUrl, licenceUrl: newLicence };
    const badPassword = await call('POST', '/sys/enterprise/resubmit', undefined, { ...resubmit, password: 'wrong' });
    expect(badPassword.statusCode).toBe(401);
    const ok = await call('POST', '/sys/enterprise/resubmit', undefined, { ...resubmit, legalPerson: '王新法人' });
    expect(ok.statusCode, ok.body).toBe(200);
    const after = (await enterpriseByName(organName as string))!;
    expect(after).toMatchObject({ auditStatus: 'pending', auditReason: null, legalPerson: '王新法人' });
    const again = await call('POST', '/sys/enterprise/resubmit', undefined, resubmit);
    expect(again.statusCode).toBe(409);
    const detail = (await call('GET', '/sys/enterprise/audit/list?auditStatus=pending&pageSize=100', operatorToken)).json().result.records.find(
      (r: { id: number }) => r.id === enterprise.id,
    );
    expect(detail.attachments.find((a: { kind: string }) => a.kind === 'licence').url).toBe(newLicence);
  });

  it('keeps traders, enterprise admins and visitors away from the operator endpoints', async () => {
    const trader = await signedIn(t.app, t.database.db);
    const admin = await signedIn(t.app, t.database.db, { role: 'enterprise_admin' });
    const target = await createEnterprise(t.database.db, { auditStatus: 'pending' });
    for (const token of [trader.token, admin.token]) {
      for (const [method, url, body] of [
        ['GET', '/sys/enterprise/audit/list', undefined],
        ['POST', '/sys/enterprise/audit/approve', { id: target.id }],
        ['POST', '/sys/enterprise/audit/reject', { id: target.id, reason: '不通过的原因' }],
        ['GET', '/sys/enterprise/change/list', undefined],
        ['POST', '/sys/enterprise/change/approve', { id: 1 }],
        ['POST', '/sys/enterprise/change/reject', { id: 1, reason: '不通过的原因' }],
        ['GET', '/sys/sms/outbox', undefined],
      ] as const) {
        const response = await call(method, url, token, body);
        expect(response.statusCode, url).toBe(403);
        // the route's grant refuses first, naming the page (the policy's rule would refuse too)
        expect(response.json().message).toMatch(/^您的角色没有「.+」的.*权限，请联系系统管理员$/);
      }
    }
    expect((await call('GET', '/sys/enterprise/audit/list')).statusCode).toBe(401);
    expect((await enterpriseByName(target.organName))!.auditStatus).toBe('pending');
  });

  it('keeps one enterprise’s attachments from another enterprise’s traders', async () => {
    const { payload, enterprise } = await registered();
    await call('POST', '/sys/enterprise/audit/approve', operatorToken, { id: enterprise.id });
    const ownerToken = (await login(payload.username as string, payload.password as string)).json().result.token;
    // the initial password must be changed before anything else (first sign-in)
    await call('PUT', '/sys/user/updatePassword', ownerToken, { oldPassword: payload.password, password: 'Changed#2026', confirmPassword: 'Changed#2026' });
    const [attachment] = (await call('GET', '/sys/enterprise/attachmentList', ownerToken)).json().result;
    const stranger = await signedIn(t.app, t.database.db);
    const refused = await call('GET', `/api/common/static/${attachment.url}`, stranger.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('无权查看该文件');
    // its own list never shows the other enterprise's files
    const own = (await call('GET', '/sys/enterprise/attachmentList', stranger.token)).json().result;
    expect(own.map((a: { url: string }) => a.url)).not.toContain(attachment.url);
    expect((await call('GET', '/sys/enterprise/attachmentList', operatorToken)).statusCode).toBe(403);
  });

  it('company info: contact applies at once; legal data waits for the audit while trading goes on', async () => {
    const admin = await signedIn(t.app, t.database.db, { role: 'enterprise_admin' });
    const trader = await signedIn(t.app, t.database.db, { enterpriseId: admin.user.enterpriseId });
    const contact = { areaCode: '110105', addressDetail: '建国路 1 号', contactName: '周新', contactMobile: '13600000001', contactEmail: 'zhou@example.cn' };
    expect((await call('PUT', '/sys/enterprise/update', trader.token, contact)).statusCode).toBe(403);
    expect((await call('PUT', '/sys/enterprise/update', admin.token, { ...contact, contactEmail: 'bad' })).statusCode).toBe(400);
    const updated = await call('PUT', '/sys/enterprise/update', admin.token, contact);
    expect(updated.json().result).toMatchObject({ contactName: '周新', areaName: '北京市/市辖区/朝阳区', address: '北京市市辖区朝阳区建国路 1 号' });

    const before = (await call('GET', '/sys/enterprise/detail', admin.token)).json().result;
    const change = { organName: `变更后的煤业有限公司${admin.user.id}`, creditCode: uniqueCreditCode(), legalPerson: '新法人', bankName: '中国银行', bankBranch: '北京分行', bankAccountNo: '6217000000000001' };
    expect((await call('POST', '/sys/enterprise/change/apply', trader.token, change)).statusCode).toBe(403);
    expect((await call('POST', '/sys/enterprise/change/apply', admin.token, { ...change, creditCode: '911100001234567890' })).statusCode).toBe(400);
    const applied = await call('POST', '/sys/enterprise/change/apply', admin.token, change);
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json().result).toMatchObject({ organName: before.organName, creditCode: before.creditCode, pendingChange: { organName: change.organName, status: 'pending' } });
    const second = await call('POST', '/sys/enterprise/change/apply', admin.token, { ...change, legalPerson: '再一个' });
    expect(second.statusCode).toBe(422);
    expect(second.json().message).toBe('已有待审核的变更申请，请等待交易中心审核');
    // the audited name is still what sign-in and trading see
    expect((await call('GET', '/sys/enterprise/info', trader.token)).json().result.organName).toBe(before.organName);

    const changes = (await call('GET', '/sys/enterprise/change/list?status=pending&pageSize=100', operatorToken)).json().result.records;
    const mine = changes.find((c: { enterpriseId: number }) => c.enterpriseId === admin.user.enterpriseId);
    expect((await call('POST', '/sys/enterprise/change/reject', operatorToken, { id: mine.id })).statusCode).toBe(400);
    const approved = await call('POST', '/sys/enterprise/change/approve', operatorToken, { id: mine.id });
    expect(approved.json().result.status).toBe('approved');
    expect((await call('GET', '/sys/enterprise/info', trader.token)).json().result.organName).toBe(change.organName);
    expect((await call('POST', '/sys/enterprise/change/approve', operatorToken, { id: mine.id })).statusCode).toBe(409);
  });

  it('a change to a name another enterprise holds is refused', async () => {
    const other = await createEnterprise(t.database.db);
    const admin = await signedIn(t.app, t.database.db, { role: 'enterprise_admin' });
    const response = await call('POST', '/sys/enterprise/change/apply', admin.token, {
      organName: other.organName, creditCode: uniqueCreditCode(), legalPerson: '某人', bankName: '中国银行', bankBranch: '北京分行', bankAccountNo: '6217000000000002',
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe('该企业名称已注册，请勿重复注册');
  });

  it('members: the admin adds traders with a first-login password, lists and disables them', async () => {
    const admin = await signedIn(t.app, t.database.db, { role: 'enterprise_admin' });
    const username = `trader${admin.user.id}`;
    const added = await call('POST', '/sys/enterprise/member/add', admin.token, { username, realname: '新交易员', mobile: uniqueMobile() });
    expect(added.statusCode).toBe(200);
    const { id, initialPassword } = added.json().result;
    expect(initialPassword).toMatch(/^(?=.*[A-Za-z])(?=.*\d).{12}$/);
    const signIn = await login(username, initialPassword);
    expect(signIn.json().result.userInfo).toMatchObject({ isFirstLogin: '1', role: { code: 'trader' } });
    const traderToken = signIn.json().result.token;

    expect((await call('POST', '/sys/enterprise/member/add', admin.token, { username, realname: '重复', mobile: uniqueMobile() })).statusCode).toBe(409);
    expect((await call('POST', '/sys/enterprise/member/add', admin.token, { username: 'x', realname: '重复', mobile: '123' })).statusCode).toBe(400);
    expect((await call('POST', '/sys/enterprise/member/add', traderToken, { username: `t2${admin.user.id}`, realname: '越权', mobile: uniqueMobile() })).statusCode).toBe(403);
    expect((await call('GET', '/sys/enterprise/member/list', traderToken)).statusCode).toBe(403);

    const members = (await call('GET', '/sys/enterprise/member/list', admin.token)).json().result;
    expect(members.map((m: { username: string }) => m.username)).toEqual([admin.user.username, username]);

    const otherAdmin = await signedIn(t.app, t.database.db, { role: 'enterprise_admin' });
    expect((await call('POST', '/sys/enterprise/member/disable', otherAdmin.token, { id, disabled: true })).statusCode).toBe(404);
    expect((await call('POST', '/sys/enterprise/member/disable', admin.token, { id: admin.user.id, disabled: true })).statusCode).toBe(422);
    const disabled = await call('POST', '/sys/enterprise/member/disable', admin.token, { id, disabled: true });
    expect(disabled.json().result.disabled).toBe(true);
    expect((await call('GET', '/sys/user/info', traderToken)).statusCode).toBe(401);
    expect((await login(username, initialPassword)).statusCode).toBe(423);
    await call('POST', '/sys/enterprise/member/disable', admin.token, { id, disabled: false });
    expect((await login(username, initialPassword)).statusCode).toBe(200);
  });

  it('the first-login password works once changed, and the registrant keeps the admin role', async () => {
    const admin = await signedIn(t.app, t.database.db, { role: 'enterprise_admin' });
    const username = `member${admin.user.id}`;
    const { initialPassword } = (await call('POST', '/sys/enterprise/member/add', admin.token, { username, realname: '交易员乙', mobile: uniqueMobile() })).json().result;
    const token = await loginAs(t.app, username, initialPassword);
    expect((await call('PUT', '/sys/user/updatePassword', token, { oldPassword: initialPassword, password: 'Member#2026', confirmPassword: 'Member#2026' })).statusCode).toBe(200);
    expect((await login(username, 'Member#2026')).json().result.userInfo.isFirstLogin).toBe('0');
  });

  it('the operator reads the SMS outbox; codes are kept hashed', async () => {
    const mobile = uniqueMobile();
    await sendSms(t.app, mobile);
    const code = await lastCode(t.database.db, mobile);
    const outbox = (await call('GET', `/sys/sms/outbox?mobile=${mobile}`, operatorToken)).json().result;
    expect(outbox.total).toBe(1);
    expect(outbox.records[0].content).toContain(code);
    const [row] = await t.database.db.select().from(smsCodes).where(eq(smsCodes.mobile, mobile));
    expect(row!.codeHash).not.toContain(code);
    expect(row!.codeHash).toMatch(/^[0-9a-f]{64}$/);
  });
});
