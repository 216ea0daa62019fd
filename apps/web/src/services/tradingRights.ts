import type { DirectoryDetail, DirectoryEntry, EnterpriseDirectoryQuery, SuspendTradingInput } from '@coalx/shared';
import { requestResult, type PageResult } from '@/app/request';

/** 企业名录 and trading rights (暂停交易), apps/server/src/api/operation-enterprises.routes.ts. */
export const listDirectory = (params: Partial<EnterpriseDirectoryQuery>) =>
  requestResult<PageResult<DirectoryEntry>>('/api/operation/enterprises/list', { params: { ...params } });

export const directoryDetail = (id: number) => requestResult<DirectoryDetail>(`/api/operation/enterprises/${id}`);

export const suspendTrading = (data: SuspendTradingInput) =>
  requestResult<DirectoryDetail>('/api/operation/enterprises/suspend', { method: 'POST', data });

export const liftTrading = (data: { id: number; reason: string }) =>
  requestResult<DirectoryDetail>('/api/operation/enterprises/lift', { method: 'POST', data });
