import type { EnterpriseInfo } from '@coalx/shared';
import { requestResult } from '@/app/request';

/** The caller's enterprise; null for operators and admins, who belong to none. */
export function getEnterpriseInfo(): Promise<EnterpriseInfo> {
  return requestResult<EnterpriseInfo>('/sys/enterprise/info');
}
