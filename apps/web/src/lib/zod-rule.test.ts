import { describe, expect, it } from 'vitest';
import { CreditCodeSchema, EmailSchema, LegalPersonSchema, MobileSchema, PersonNameSchema, creditCodeCheckChar } from '@coalx/shared';
import { zodRule } from './zod-rule';

const run = (rule: ReturnType<typeof zodRule>, value: unknown) =>
  (rule as { validator: (r: unknown, v: unknown) => Promise<void> }).validator({}, value);

describe('zodRule', () => {
  it('passes good values and rejects bad ones with the shared Chinese message', async () => {
    await expect(run(zodRule(MobileSchema), '13800000000')).resolves.toBeUndefined();
    await expect(run(zodRule(MobileSchema), '1380000')).rejects.toThrow('请输入正确的 11 位手机号码');
    await expect(run(zodRule(EmailSchema), 'a@b')).rejects.toThrow('请输入正确的电子邮箱');
    const body = '91140600MA0K8B2C1';
    await expect(run(zodRule(CreditCodeSchema), body + creditCodeCheckChar(body))).resolves.toBeUndefined();
    await expect(run(zodRule(CreditCodeSchema), `${body}Z`)).rejects.toThrow('统一社会信用代码不正确');
  });
  it('asks for an empty field instead of calling it too short (registration)', async () => {
    await expect(run(zodRule(PersonNameSchema('姓名')), '')).rejects.toThrow(/^请输入姓名$/);
    await expect(run(zodRule(PersonNameSchema('姓名')), '   ')).rejects.toThrow(/^请输入姓名$/);
    await expect(run(zodRule(PersonNameSchema('姓名')), '张')).rejects.toThrow('姓名至少 2 个字');
    await expect(run(zodRule(LegalPersonSchema), '')).rejects.toThrow(/^请输入/);
  });
  it('lets an optional field stay empty', async () => {
    await expect(run(zodRule(EmailSchema, { required: false }), '')).resolves.toBeUndefined();
    await expect(run(zodRule(EmailSchema), '')).rejects.toThrow();
  });
});
