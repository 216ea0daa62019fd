import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CONTRACT_KIND_KEYS, CONTRACT_PLACEHOLDERS, renderContractText, sampleContractContext, unknownPlaceholders } from '@coalx/shared';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractTemplates } from '../../db/schema/index';
import { signedIn } from '../../test/factories';
import { createTestApp, testDatabaseKinds, type TestApp } from '../../test/test-app';
import { DEFAULT_TEMPLATES } from './default-templates';
import { currentTemplate, ensureDefaultTemplates } from './template.service';

const API = '/trade-api/api/contract-template';

describe('default templates', () => {
  it('use only known placeholders and render every clause a coal contract needs', () => {
    for (const kind of CONTRACT_KIND_KEYS) {
      const { body } = DEFAULT_TEMPLATES[kind];
      expect([kind, unknownPlaceholders(body)]).toEqual([kind, []]);
      const text = renderContractText(body, sampleContractContext(kind)).join('\n');
      for (const clause of ['质量标准', '溢短装', '金额', '交收地点', '运输', '计量', '质量检验', '质量价格调整', '预付', '履约保证金', '违约责任', '不可抗力', '争议解决', '人民法院', '电子签章与实物公章具有同等法律效力']) {
        expect([kind, clause, text.includes(clause)]).toEqual([kind, clause, true]);
      }
      expect(text).toContain('捌拾肆万伍仟伍佰元整');
      expect(text).toContain('买方有权拒收');
    }
    // the party that published the trade is 甲方
    expect(DEFAULT_TEMPLATES.listing_sale.body).toContain('甲方（卖方）');
    expect(DEFAULT_TEMPLATES.auction_purchase.body).toContain('甲方（买方）');
    expect(DEFAULT_TEMPLATES.long_term.body).toContain('月度');
    // every placeholder is used by some default template, but the single indicators (质量指标 lists them all)
    const used = new Set(CONTRACT_KIND_KEYS.flatMap((kind) => [...DEFAULT_TEMPLATES[kind].body.matchAll(/\{\{(.+?)\}\}/g)].map((m) => m[1])));
    expect(CONTRACT_PLACEHOLDERS.map((p) => p.key).filter((k) => !used.has(k))).toEqual(['发热量', '全水分', '全硫', '灰分', '挥发分']);
  });
});

describe.each(testDatabaseKinds())('contract templates on %s', (kind) => {
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
  afterAll(async () => {
    await t.close();
  });

  const get = (token: string, url: string) => t.app.inject({ method: 'GET', url: `${API}${url}`, headers: { 'x-access-token': token } });
  const post = (token: string, url: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url: `${API}${url}`, payload: payload as object, headers: { 'x-access-token': token } });

  it('installs version 1 of every kind with the system data, once', async () => {
    const res = await get(admin, '/list');
    expect(res.statusCode).toBe(200);
    const list = res.json().result;
    expect(list.map((x: { kind: string }) => x.kind)).toEqual(CONTRACT_KIND_KEYS);
    expect(list[0]).toMatchObject({ version: 1, name: '挂牌销售合同（标准版）', createdBy: '系统默认', body: DEFAULT_TEMPLATES.listing_sale.body });
    expect(list[0].createdAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    await ensureDefaultTemplates(t.database.db);
    const [{ n }] = (await t.database.db.select({ n: count() }).from(contractTemplates)) as [{ n: number }];
    expect(n).toBe(CONTRACT_KIND_KEYS.length);
  });

  it('lets the operator read but not edit, and refuses traders', async () => {
    expect((await get(operator, '/list')).statusCode).toBe(200);
    expect((await get(operator, '/placeholders')).statusCode).toBe(200);
    const operatorSave = await post(operator, '/save', { kind: 'listing_sale', name: '模板', body: '# 合同\n{{合同编号}}' });
    expect(operatorSave.statusCode).toBe(403);
    // the grant (模板配置) is checked before the policy: the operator's role has no such menu item
    expect(operatorSave.json().message).toBe('您的角色没有「模板配置」的编辑权限，请联系系统管理员');
    for (const res of [
      await get(trader, '/list'),
      await get(trader, '/history?kind=listing_sale'),
      await get(trader, '/placeholders'),
      await get(trader, '/preview.pdf?kind=listing_sale'),
      await post(trader, '/preview', { kind: 'listing_sale', body: '{{合同编号}}' }),
      await post(trader, '/save', { kind: 'listing_sale', name: '模板', body: '{{合同编号}}' }),
    ]) {
      expect(res.statusCode).toBe(403);
    }
    expect((await get(trader, '/list')).json().message).toBe('只有平台人员可以查看合同模板');
    expect((await t.app.inject({ method: 'GET', url: `${API}/list` })).statusCode).toBe(401);
  });

  it('serves the placeholders in order, the block one marked', async () => {
    const list = (await get(admin, '/placeholders')).json().result;
    expect(list.map((p: { key: string }) => p.key)).toEqual(CONTRACT_PLACEHOLDERS.map((p) => p.key));
    expect(list.find((p: { key: string }) => p.key === '质量价格调整')).toMatchObject({ block: true, group: '计量与检验' });
    expect(list.find((p: { key: string }) => p.key === '金额大写')).toMatchObject({ block: false });
  });

  it('refuses unknown placeholders and an unchanged body, and changes nothing then', async () => {
    const unknown = await post(admin, '/save', { kind: 'listing_sale', name: '新模板', body: '# 合同\n甲方：{{甲}}，乙方：{{乙}}，{{合同编号}}' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('模板中有未知占位符：{{甲}}、{{乙}}');
    const unclosed = await post(admin, '/save', { kind: 'listing_sale', name: '新模板', body: '合同编号：{{合同编号' });
    expect(unclosed.statusCode).toBe(400);
    expect(unclosed.json().message).toBe('模板中有未知占位符：{{合同编号');
    // the same text with Windows line endings and trailing blanks is still unchanged
    const same = await post(admin, '/save', { kind: 'listing_sale', name: '改个名字', body: `${DEFAULT_TEMPLATES.listing_sale.body.replace(/\n/g, '  \r\n')}\r\n` });
    expect(same.statusCode).toBe(422);
    expect(same.json().message).toBe('模板正文没有修改，无需保存新版本');
    const empty = await post(admin, '/save', { kind: 'listing_sale', name: '新模板', body: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('请输入模板正文');
    const badKind = await post(admin, '/save', { kind: 'other', name: '新模板', body: '{{合同编号}}' });
    expect(badKind.statusCode).toBe(400);
    expect((await get(admin, '/history?kind=listing_sale')).json().result).toHaveLength(1);
  });

  it('saves a new version each time, which currentTemplate then gives', async () => {
    const body = `${DEFAULT_TEMPLATES.auction_sale.body}\n本合同一式两份。`;
    const saved = await post(admin, '/save', { kind: 'auction_sale', name: '竞价销售合同（2027 版）', body });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().message).toBe('已保存为第 2 版');
    expect(saved.json().result).toMatchObject({ kind: 'auction_sale', version: 2, name: '竞价销售合同（2027 版）', createdBy: '测试用户', body });
    const third = await post(admin, '/save', { kind: 'auction_sale', name: '竞价销售合同（2027 版）', body: `${body}\n双方各执一份。` });
    expect(third.json().result.version).toBe(3);

    const history = (await get(admin, '/history?kind=auction_sale')).json().result;
    expect(history.map((h: { version: number }) => h.version)).toEqual([3, 2, 1]);
    expect(history[2].body).toBe(DEFAULT_TEMPLATES.auction_sale.body);
    const list = (await get(operator, '/list')).json().result;
    expect(list.find((x: { kind: string }) => x.kind === 'auction_sale').version).toBe(3);
    expect(list.find((x: { kind: string }) => x.kind === 'auction_purchase').version).toBe(1);

    const current = await currentTemplate(t.database.db, 'auction_sale');
    expect([current.version, current.body.endsWith('双方各执一份。')]).toEqual([3, true]);
    expect((await get(admin, '/history?kind=nope')).statusCode).toBe(400);
  });

  it('currentTemplate says so in Chinese when a kind has no template', async () => {
    await t.database.db.delete(contractTemplates).where(eq(contractTemplates.kind, 'long_term'));
    await expect(currentTemplate(t.database.db, 'long_term')).rejects.toThrow('尚未配置长协合同模板');
    await ensureDefaultTemplates(t.database.db);
    expect((await currentTemplate(t.database.db, 'long_term')).version).toBe(1);
  });

  it('previews a body on the sample deal, listing what it cannot fill', async () => {
    const res = await post(operator, '/preview', { kind: 'listing_purchase', body: '# 采购合同\n\n金额：{{金额}}（{{金额大写}}）{{甲方}}\n{{质量价格调整}}' });
    expect(res.statusCode).toBe(200);
    const { paragraphs, unknown } = res.json().result;
    expect(unknown).toEqual(['甲方']);
    expect(paragraphs[0]).toBe('# 采购合同');
    expect(paragraphs[1]).toBe('金额：¥845,500.00（捌拾肆万伍仟伍佰元整）{{甲方}}');
    expect(paragraphs.length).toBeGreaterThan(5);
    const ok = (await post(admin, '/preview', { kind: 'listing_sale', body: DEFAULT_TEMPLATES.listing_sale.body })).json().result;
    expect(ok.unknown).toEqual([]);
    expect(ok.paragraphs).toContain('1. 合同数量：1,000 吨。');
  });

  it('renders the current template on the sample deal as a PDF (a sandboxed download; the web previews it from a blob)', async () => {
    const res = await get(operator, '/preview.pdf?kind=auction_sale');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(String(res.headers['content-disposition'])).toMatch(/^attachment; filename="[^"]*"; filename\*=UTF-8''/);
    expect(res.headers['content-security-policy']).toMatch(/^sandbox;/);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-tpl-')), 'preview.pdf');
    fs.writeFileSync(file, res.rawPayload);
    const text = spawnSync('pdftotext', ['-raw', file, '-'], { encoding: 'utf8' }).stdout;
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
    expect(text).toContain('合同编号：HT202611220001');
    expect(text).toContain('煤炭买卖合同（竞价销售）');
    // the version saved above, with its added last line
    expect(text).toContain('双方各执一份。');
    expect((await get(admin, '/preview.pdf?kind=bad')).statusCode).toBe(400);
  });
});
