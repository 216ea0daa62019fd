import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, signedIn } from '../../test/factories';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';
import { parameterNumber, workingDaysDeadline } from './calendar';

describe.each(testDatabaseKinds())('系统参数 and holidays on %s', (kind) => {
  let t: TestApp;
  let admin: string;
  let operator: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = (await signedIn(t.app, t.database.db, { role: 'admin' })).token;
    operator = (await signedIn(t.app, t.database.db, { role: 'operator' })).token;
  });
  afterAll(async () => t?.close());

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, token: string | null, payload?: object) =>
    t.app.inject({ method, url: `/trade-api${url}`, headers: token ? { 'x-access-token': token } : {}, ...(payload ? { payload } : {}) });
  const setParam = (code: string, value: unknown) => call('PUT', '/sys/param/update', admin, { code, value });
  const paramOf = async (code: string) =>
    (await call('GET', '/sys/param/list', admin)).json().result.find((p: { code: string }) => p.code === code);

  it('lists every parameter with its default, unit and range; only the admin reads and edits them', async () => {
    const list = (await call('GET', '/sys/param/list', admin)).json().result;
    const byCode = Object.fromEntries(list.map((p: { code: string }) => [p.code, p]));
    expect(byCode.auto_sign_for_days).toMatchObject({ label: '自动签收期限', unit: '个工作日', value: 3, default: 3, customized: false, updatedAt: null });
    expect(byCode.price_range_5500_min_fen).toMatchObject({ unit: '元/吨', kind: 'fen', value: 57_000, decimals: 2 });
    expect(byCode.price_range_5500_max_fen.value).toBe(77_000);
    expect(byCode.fulfilment_threshold_pct).toMatchObject({ value: 90, unit: '%' });
    expect(byCode.login_lock_failures.value).toBe(5);
    expect(byCode.login_lock_minutes).toMatchObject({ value: 15, unit: '分钟' });
    expect(byCode.fee_per_ton_fen.kind).toBe('fen');
    expect(byCode.bid_rate_limit_per_second.unit).toBe('次/秒');
    expect(byCode.contract_sign_working_days.value).toBe(1);

    const refused = await call('GET', '/sys/param/list', operator);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/系统参数/);
    expect((await call('PUT', '/sys/param/update', operator, { code: 'auto_sign_for_days', value: 5 })).statusCode).toBe(403);
    expect((await call('GET', '/sys/holiday/list?year=2026', operator)).statusCode).toBe(403);
  });

  it('refuses values outside the range, fractions where whole numbers are meant, and a price range upside down', async () => {
    const cases: [string, number, string][] = [
      ['auto_sign_for_days', 0, '自动签收期限须在 1 个工作日 至 30 个工作日 之间'],
      ['auto_sign_for_days', 31, '自动签收期限须在 1 个工作日 至 30 个工作日 之间'],
      ['auto_sign_for_days', 2.5, '自动签收期限须为整数'],
      ['fulfilment_threshold_pct', 101, '履约完成比例须在 50% 至 100% 之间'],
      ['contract_transit_loss_pct', 0.255, '默认合理途损最多保留 2 位小数'],
      ['price_range_5500_min_fen', 57_000.5, '合理价格下限（5500 大卡）最多保留两位小数（精确到分）'],
      ['price_range_5500_max_fen', 1e20, '合理价格上限（5500 大卡）须在 100.00 元/吨 至 5000.00 元/吨 之间'],
      ['login_lock_failures', 2, '登录失败锁定次数须在 3 次 至 20 次 之间'],
    ];
    for (const [code, value, message] of cases) {
      const response = await setParam(code, value);
      expect(response.statusCode, `${code}=${value}`).toBe(400);
      expect(response.json().message).toBe(message);
    }
    expect((await setParam('no_such_parameter', 1)).json().message).toBe('请求参数有误，参数不存在');
    expect((await setParam('auto_sign_for_days', '5')).statusCode).toBe(400);

    const upsideDown = await setParam('price_range_5500_min_fen', 80_000);
    expect(upsideDown.statusCode).toBe(422);
    expect(upsideDown.json().message).toBe('合理价格下限（5500 大卡）须低于合理价格上限（5500 大卡）（当前上限 770.00 元/吨）');
    expect((await paramOf('price_range_5500_min_fen')).value).toBe(57_000);
    expect((await paramOf('auto_sign_for_days')).customized).toBe(false);
  });

  it('saves a value in range, which the readers then use, and serves the public ones to visitors', async () => {
    const saved = await setParam('auto_sign_for_days', 5);
    expect(saved.statusCode).toBe(200);
    expect(saved.json().message).toBe('自动签收期限已改为 5 个工作日，此后新产生的业务按新值执行');
    expect(saved.json().result.find((p: { code: string }) => p.code === 'auto_sign_for_days')).toMatchObject({ value: 5, customized: true });
    expect(await parameterNumber(t.database.db, 'auto_sign_for_days')).toBe(5);
    expect((await setParam('price_range_5500_max_fen', 80_000)).statusCode).toBe(200);
    expect((await setParam('price_range_5500_min_fen', 60_050)).json().message).toBe('合理价格下限（5500 大卡）已改为 600.50 元/吨，此后新产生的业务按新值执行');

    const common = await call('GET', '/sys/common/param?codes=price_range_5500_min_fen,price_range_5500_max_fen,login_lock_failures', null);
    expect(common.statusCode).toBe(200);
    // the lockout count is the admin's business: left out of the public answer
    expect(common.json().result).toEqual({ price_range_5500_min_fen: 60_050, price_range_5500_max_fen: 80_000 });
    const secret = await call('GET', '/sys/common/param?codes=login_lock_failures', null);
    expect(secret.statusCode).toBe(400);
    expect(secret.json().message).toBe('没有可公开读取的参数');
  });

  it('locks an account after the number of wrong passwords the admin set, for the minutes set', async () => {
    expect((await setParam('login_lock_failures', 3)).statusCode).toBe(200);
    expect((await setParam('login_lock_minutes', 60)).statusCode).toBe(200);
    const user = await createUser(t.database.db, { role: 'trader' });
    const wrong = () => call('POST', '/sys/login', null, { username: user.username, password: 'Wrong#2026pass' });
    expect((await wrong()).statusCode).toBe(401);
    expect((await wrong()).statusCode).toBe(401);
    const locked = await wrong();
    expect(locked.statusCode).toBe(423);
    expect(locked.json().message).toMatch(/^密码连续错误 3 次，账号已锁定至 /);
    t.clock.advance(59 * 60_000);
    expect((await wrong()).statusCode).toBe(423);
    t.clock.advance(2 * 60_000);
    expect((await wrong()).statusCode).toBe(401);
    await setParam('login_lock_failures', 5);
    await setParam('login_lock_minutes', 15);
  });

  it('limits bids per second to the admin\'s number once set (the configured default before)', async () => {
    const trader = (await signedIn(t.app, t.database.db, { role: 'trader' })).token;
    const bids = async () =>
      Promise.all([1, 2, 3].map(() => call('POST', '/api/bidRecord/bidAnswerApply', trader, { tradeId: 'JJ000000', price: 100 })));
    expect((await bids()).some((r) => r.statusCode === 429)).toBe(false);
    expect((await setParam('bid_rate_limit_per_second', 1)).statusCode).toBe(200);
    const limited = (await bids()).filter((r) => r.statusCode === 429);
    expect(limited.length).toBeGreaterThanOrEqual(2);
    expect(limited[0]!.json().message).toBe('出价过于频繁，请稍后再试');
    await setParam('bid_rate_limit_per_second', 100);
  });

  it('carries the 2026 PRC holidays with their 调休 workdays; the admin adds, bulk adds and deletes days', async () => {
    const year2026 = (await call('GET', '/sys/holiday/list?year=2026', admin)).json().result;
    expect(year2026).toContainEqual({ day: '2026-10-01', name: '国庆节', workday: false });
    expect(year2026).toContainEqual({ day: '2026-10-10', name: '国庆节调休上班', workday: true });
    expect(year2026).toContainEqual({ day: '2026-02-17', name: '春节', workday: false });
    expect(year2026.every((h: { day: string }) => h.day.startsWith('2026-'))).toBe(true);
    expect((await call('GET', '/sys/holiday/list?year=2027', admin)).json().result).toContainEqual({ day: '2027-10-01', name: '国庆节', workday: false });

    const bad = await call('POST', '/sys/holiday/add', admin, { day: '2028-02-30', name: '春节', workday: false });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('请求参数有误，日期不存在');
    const added = await call('POST', '/sys/holiday/add', admin, { day: '2028-01-01', name: '元旦', workday: false });
    expect(added.json().message).toBe('已保存 2028-01-01（放假）');
    const batch = await call('POST', '/sys/holiday/batchAdd', admin, {
      items: [
        { day: '2028-05-01', name: '劳动节', workday: false },
        { day: '2028-05-02', name: '劳动节', workday: false },
        { day: '2028-04-29', name: '劳动节调休上班', workday: true },
      ],
    });
    expect(batch.json().message).toBe('已保存 3 天');
    const doubled = await call('POST', '/sys/holiday/batchAdd', admin, { items: [{ day: '2028-06-01', name: '甲', workday: false }, { day: '2028-06-01', name: '乙', workday: false }] });
    expect(doubled.json().message).toBe('同一日期填写了多次，请检查');
    expect((await call('GET', '/sys/holiday/list?year=2028', admin)).json().result.map((h: { day: string }) => h.day)).toEqual([
      '2028-01-01',
      '2028-04-29',
      '2028-05-01',
      '2028-05-02',
    ]);
    expect((await call('POST', '/sys/holiday/delete', admin, { day: '2028-01-01' })).json().message).toBe('已删除 2028-01-01');
    const gone = await call('POST', '/sys/holiday/delete', admin, { day: '2028-01-01' });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe('2028-01-01 不在节假日列表中，请刷新后重试');
  });

  it('moves a working-day deadline over the holidays listed, and onto a 调休 Saturday', async () => {
    const db = t.database.db;
    // a deal on Wednesday 30 September 2026: 1–7 October are off, so one working day ends on Thursday 8 October
    expect((await workingDaysDeadline(db, new Date('2026-09-30T10:00:00+08:00'), 1)).toISOString()).toBe('2026-10-08T15:59:59.999Z');
    // a deal on Friday 9 October: Saturday 10 October is worked (调休)
    expect((await workingDaysDeadline(db, new Date('2026-10-09T10:00:00+08:00'), 1)).toISOString()).toBe('2026-10-10T15:59:59.999Z');
    // the admin lists a Tuesday off: a deal on the Monday before now has until Wednesday
    const monday = new Date('2028-03-06T09:00:00+08:00');
    expect((await workingDaysDeadline(db, monday, 1)).toISOString()).toBe('2028-03-07T15:59:59.999Z');
    await call('POST', '/sys/holiday/add', admin, { day: '2028-03-07', name: '临时休市', workday: false });
    expect((await workingDaysDeadline(db, monday, 1)).toISOString()).toBe('2028-03-08T15:59:59.999Z');
    await call('POST', '/sys/holiday/delete', admin, { day: '2028-03-07' });
    expect((await workingDaysDeadline(db, monday, 1)).toISOString()).toBe('2028-03-07T15:59:59.999Z');
  });
});
