import type { DictAdminList, DictItemAddInput, DictItemEditInput, DictItemKey } from '@coalx/shared';
import { request, requestResult } from '@/app/request';

/** 数据字典 admin calls (apps/server/src/modules/system/dict-admin.routes.ts is the contract). */
export const DICT_ADMIN_QUERY_KEY = ['dict', 'manage'] as const;

export function listDictionariesForAdmin(): Promise<DictAdminList> {
  return requestResult('/sys/dict/manage/list');
}

/** Each change answers with its Chinese message ('已新增字典项「焦化厂」'). */
async function change(path: string, data: object): Promise<string> {
  return (await request<null>(path, { method: 'POST', data })).message;
}

export const addDictItem = (input: DictItemAddInput) => change('/sys/dict/item/add', input);
export const editDictItem = (input: DictItemEditInput) => change('/sys/dict/item/edit', input);
export const deleteDictItem = (key: DictItemKey) => change('/sys/dict/item/delete', key);
