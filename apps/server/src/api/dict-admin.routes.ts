import { DictAdminListSchema, DictItemAddSchema, DictItemEditSchema, DictItemKeySchema, envelopeSchema } from '@coalx/shared';
import { z } from 'zod';
import { addDictItem, editDictItem, removeDictItem } from '../flows/edit-dictionary';
import { dictUsage } from '../queries/dict-usage';
import { ok } from '../lib/envelope';
import type { ZodApp } from '../lib/route-types';
import { requireActor } from '../plugins/authenticate';
import { listDictionaries } from '../modules/system/dict-admin.service';
import { systemPolicy } from '../modules/system/system.policy';

const tags = ['system'];

/** 数据字典 (admin): every dictionary with its items, how many records hold each value, and the version. */
export default async function dictAdminRoutes(app: ZodApp) {
  app.get(
    '/sys/dict/manage/list',
    { config: { permission: 'system-dict.query' }, schema: { tags, summary: '数据字典维护：全部字典及字典项 (管理员)', response: { 200: envelopeSchema(DictAdminListSchema) } } },
    async (request) => {
      systemPolicy.can(requireActor(request), 'manageDictionaries');
      return ok(await listDictionaries(app.db, await dictUsage(app.db)));
    },
  );

  app.post(
    '/sys/dict/item/add',
    { config: { audit: '新增字典项', permission: 'system-dict.add' }, schema: { tags, summary: '新增字典项 (管理员)', body: DictItemAddSchema, response: { 200: envelopeSchema(z.null()) } } },
    async (request) => {
      systemPolicy.can(requireActor(request), 'manageDictionaries');
      await addDictItem(app.db, request.body);
      return ok(null, `已新增字典项「${request.body.text}」`);
    },
  );

  app.post(
    '/sys/dict/item/edit',
    { config: { audit: '修改字典项', permission: 'system-dict.edit' }, schema: { tags, summary: '修改字典项的文字、排序或启用状态 (管理员)', body: DictItemEditSchema, response: { 200: envelopeSchema(z.null()) } } },
    async (request) => {
      systemPolicy.can(requireActor(request), 'manageDictionaries');
      await editDictItem(app.db, request.body);
      return ok(null, `已保存字典项「${request.body.text}」`);
    },
  );

  app.post(
    '/sys/dict/item/delete',
    { config: { audit: '删除字典项', permission: 'system-dict.delete' }, schema: { tags, summary: '删除未被使用的字典项 (管理员; 已被记录使用的只能停用)', body: DictItemKeySchema, response: { 200: envelopeSchema(z.null()) } } },
    async (request) => {
      systemPolicy.can(requireActor(request), 'manageDictionaries');
      await removeDictItem(app.db, request.body);
      return ok(null, '字典项已删除');
    },
  );
}
