import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listings } from '../../db/schema/index';
import { createEnterprise, signedIn } from '../../test/factories';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';

describe.each(testDatabaseKinds())('数据字典 admin on %s', (kind) => {
  let t: TestApp;
  let admin: string;
  let operator: string;
  let trader: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = (await signedIn(t.app, t.database.db, { role: 'admin' })).token;
    operator = (await signedIn(t.app, t.database.db, { role: 'operator' })).token;
    trader = (await signedIn(t.app, t.database.db, { role: 'trader' })).token;
  });
  afterAll(async () => t?.close());

  const call = (method: 'GET' | 'POST', url: string, token: string | null, payload?: object) =>
    t.app.inject({ method, url: `/trade-api${url}`, headers: token ? { 'x-access-token': token } : {}, ...(payload ? { payload } : {}) });
  const version = async () => (await call('GET', '/sys/dict/manage/list', admin)).json().result.version as number;
  const publicDicts = async () => (await call('GET', '/sys/dict/getAllDictItems', null)).json().result;
  const userInfoVersion = async (token: string) => (await call('GET', '/sys/user/info', token)).json().result.dictVersion as number;

  it('is the admin\'s alone', async () => {
    for (const token of [operator, trader]) {
      const list = await call('GET', '/sys/dict/manage/list', token);
      expect(list.statusCode).toBe(403);
      // the role's grants refuse first (no 数据字典 menu); the policy behind them would say the same
      expect(list.json().message).toMatch(/数据字典/);
      expect((await call('POST', '/sys/dict/item/add', token, { dictCode: 'enterprise_type', value: 'x1', text: '测试', sort: 9 })).statusCode).toBe(403);
      expect((await call('POST', '/sys/dict/item/delete', token, { dictCode: 'enterprise_type', value: 'other' })).statusCode).toBe(403);
    }
    expect((await call('GET', '/sys/dict/manage/list', null)).statusCode).toBe(401);
  });

  it('lists every dictionary of getAllDictItems with its items, order, state, use and the version', async () => {
    await createEnterprise(t.database.db, { enterpriseType: 'power_plant' });
    const { version: v, dictionaries } = (await call('GET', '/sys/dict/manage/list', admin)).json().result;
    expect(v).toBeGreaterThanOrEqual(1);
    expect(dictionaries.map((d: { code: string }) => d.code).sort()).toEqual(Object.keys(await publicDicts()).sort());
    const tradeType = dictionaries.find((d: { code: string }) => d.code === 'trade_type');
    expect(tradeType).toMatchObject({ name: '交易类型', usedBy: '挂牌、竞价、成交记录' });
    expect(tradeType.items[0]).toEqual({ value: '0', text: '挂牌销售', sort: 0, enabled: true, inUse: 0 });
    const enterpriseType = dictionaries.find((d: { code: string }) => d.code === 'enterprise_type');
    expect(enterpriseType.items.find((i: { value: string }) => i.value === 'power_plant').inUse).toBeGreaterThanOrEqual(1);
    expect(dictionaries.find((d: { code: string }) => d.code === 'hang_state_total_select').usedBy).toBe('');
  });

  it('adds an item: served to every page at a new version, which the user info carries', async () => {
    const before = await version();
    expect(await userInfoVersion(trader)).toBe(before);
    const added = await call('POST', '/sys/dict/item/add', admin, { dictCode: 'enterprise_type', value: 'coking', text: '焦化厂', sort: 5 });
    expect(added.statusCode).toBe(200);
    expect(added.json().message).toBe('已新增字典项「焦化厂」');
    expect(await version()).toBe(before + 1);
    expect(await userInfoVersion(trader)).toBe(before + 1);
    expect((await publicDicts()).enterprise_type).toContainEqual({ value: 'coking', text: '焦化厂' });

    const again = await call('POST', '/sys/dict/item/add', admin, { dictCode: 'enterprise_type', value: 'coking', text: '焦化', sort: 6 });
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe('字典值「coking」已存在（焦化厂），请换一个值');
    const unknown = await call('POST', '/sys/dict/item/add', admin, { dictCode: 'no_such_dict', value: '1', text: '一', sort: 0 });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('数据字典不存在');
    const bad = await call('POST', '/sys/dict/item/add', admin, { dictCode: 'enterprise_type', value: '焦化', text: '', sort: 1000 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/字典值只能包含字母、数字、下划线或连字符|请输入显示文字|排序须为 0 至 999 的整数/);
    expect(await version()).toBe(before + 1);
  });

  it('edits the text (the value never changes), and a disabled item still names its records, marked', async () => {
    const before = await version();
    const edited = await call('POST', '/sys/dict/item/edit', admin, { dictCode: 'trade_type', value: '1', text: '挂牌求购', sort: 1, enabled: true });
    expect(edited.statusCode).toBe(200);
    expect(await version()).toBe(before + 1);
    expect((await publicDicts()).trade_type[1]).toEqual({ value: '1', text: '挂牌求购' });

    await call('POST', '/sys/dict/item/edit', admin, { dictCode: 'enterprise_type', value: 'other', text: '其他', sort: 3, enabled: false });
    expect(await version()).toBe(before + 2);
    expect((await publicDicts()).enterprise_type).toContainEqual({ value: 'other', text: '其他', disabled: true });
    const list = (await call('GET', '/sys/dict/manage/list', admin)).json().result;
    expect(list.dictionaries.find((d: { code: string }) => d.code === 'enterprise_type').items.find((i: { value: string }) => i.value === 'other').enabled).toBe(false);

    const missing = await call('POST', '/sys/dict/item/edit', admin, { dictCode: 'trade_type', value: '9', text: '九', sort: 9, enabled: true });
    expect(missing.statusCode).toBe(404);
    expect(await version()).toBe(before + 2);
  });

  it('refuses to delete a value records hold (disable it instead), deletes one nobody holds', async () => {
    const { user } = await signedIn(t.app, t.database.db, { role: 'trader' });
    const now = Date.now();
    await t.database.db.insert(listings).values({
      tradeNo: `GPDICT${now}`,
      tradeType: 1,
      enterpriseId: user.enterpriseId!,
      createdBy: user.id,
      stockCode: 'P5500',
      productName: '动力煤 5500',
      category: '动力煤',
      quantityKg: 1_000_000,
      priceFen: 65_000,
      minSubscribeKg: 1_000,
      maxSubscribeKg: 1_000_000,
      depositMode: 'fixed',
      depositValueFen: 0,
      priceType: 'factory_tax',
      transport: 'road',
      deliveryProvince: '山西省',
      deliveryCity: '朔州市',
      deliveryDistrict: '',
      deliveryPlace: '一号煤场',
      deliveryDateStart: '2030-01-01',
      deliveryDateEnd: '2030-02-01',
      listedDateStart: new Date(now),
      listedDateEnd: new Date(now + 86_400_000),
      status: 'draft',
    });
    const before = await version();
    const held = await call('POST', '/sys/dict/item/delete', admin, { dictCode: 'trade_type', value: '1' });
    expect(held.statusCode).toBe(422);
    expect(held.json().message).toBe('「挂牌求购」已被 1 条挂牌、竞价、成交记录使用，不能删除，可改为停用');
    const enterprise = await call('POST', '/sys/dict/item/delete', admin, { dictCode: 'enterprise_type', value: 'mine' });
    expect(enterprise.statusCode).toBe(422);
    expect(enterprise.json().message).toMatch(/^「煤矿」已被 \d+ 条企业记录使用，不能删除，可改为停用$/);
    expect((await publicDicts()).trade_type.map((i: { value: string }) => i.value)).toContain('1');
    expect(await version()).toBe(before);

    const deleted = await call('POST', '/sys/dict/item/delete', admin, { dictCode: 'enterprise_type', value: 'coking' });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().message).toBe('字典项已删除');
    expect(await version()).toBe(before + 1);
    expect((await publicDicts()).enterprise_type.map((i: { value: string }) => i.value)).not.toContain('coking');
    expect((await call('POST', '/sys/dict/item/delete', admin, { dictCode: 'enterprise_type', value: 'coking' })).statusCode).toBe(404);
  });
});
