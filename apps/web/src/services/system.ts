import type { DictMap, SystemSwitch } from '@coalx/shared';
import { requestResult } from '@/app/request';

export function getAllDictItems(): Promise<DictMap> {
  return requestResult<DictMap>('/sys/dict/getAllDictItems', { params: { _t: Date.now() } });
}

export function getSwitchList(): Promise<SystemSwitch[]> {
  return requestResult<SystemSwitch[]>('/sys/switch/list');
}
