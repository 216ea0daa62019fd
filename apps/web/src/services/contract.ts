import type { z } from 'zod';
import {
  API_PREFIX,
  type ContractDetailSchema,
  type ContractExtendSchema,
  type ContractPageSchema,
  type MyPaperCopyPageSchema,
  type ContractQuery,
  type ContractSummary,
  type ContractTerms,
  type ContractUploadReviewSchema,
  type ContractVoidSchema,
  type SignPrepareResult,
} from '@coalx/shared';
import { requestResult, TOKEN_HEADER } from '@/app/request';
import { session } from '@/app/session';
import type { PaymentAuth } from '@/services/funds';

/** Contract calls (apps/server/src/modules/contract/contract.routes.ts is the contract). */

export type { ContractSummary, ContractTerms };
export type ContractDetail = z.infer<typeof ContractDetailSchema>;
export type ContractPage = z.infer<typeof ContractPageSchema>;
export type ContractSignature = ContractDetail['signatures'][number];
export type ContractUpload = ContractDetail['uploads'][number];
export type ContractEvent = ContractDetail['events'][number];
export type ContractVoid = z.infer<typeof ContractVoidSchema>;
export type ContractExtend = z.infer<typeof ContractExtendSchema>;
export type ContractReview = z.input<typeof ContractUploadReviewSchema>;
/** The list filters (paging added by the call). */
export type ContractFilters = Partial<Omit<ContractQuery, 'pageNo' | 'pageSize'>>;

/** TanStack Query keys, so a page that signs refreshes the others. */
export const CONTRACT_KEYS = {
  all: ['contract'] as const,
  detail: (key: string) => ['contract', 'detail', key] as const,
};

export const CONTRACT_EXPORT_PATH = '/api/contract/export';

export const listContracts = (params: ContractFilters & { pageNo: number; pageSize: number }) =>
  requestResult<ContractPage>('/api/contract/list', { params: { ...params } });

export type MyPaperCopyPage = z.infer<typeof MyPaperCopyPageSchema>;
export type MyPaperCopy = MyPaperCopyPage['records'][number];
export const listMyPaperCopies = (params: { pageNo: number; pageSize: number }) =>
  requestResult<MyPaperCopyPage>('/api/contract/uploads/mine', { params: { ...params } });

export const getContract = (id: number) => requestResult<ContractDetail>(`/api/contract/${id}`);

export const getContractByDeal = (dealNo: string) => requestResult<ContractDetail>(`/api/contract/by-deal/${encodeURIComponent(dealNo)}`);

/** The current PDF (the signed one once signed); the token travels as a header, never in the address. */
export function contractPdfSource(id: number): { url: string; httpHeaders: Record<string, string> } {
  const token = session.token();
  return { url: `${API_PREFIX}/api/contract/${id}/pdf`, httpHeaders: token ? { [TOKEN_HEADER]: token } : {} };
}

export const saveContractTerms = (id: number, terms: ContractTerms) =>
  requestResult<ContractDetail>(`/api/contract/${id}/terms`, { method: 'PUT', data: { terms } });

/** The first step carries the pay password when the PayPassword switch is on (PaymentAuth). */
export const prepareContractSign = (id: number, deviceId: number, auth: PaymentAuth = {}) =>
  requestResult<SignPrepareResult>(`/api/contract/${id}/sign/prepare`, { method: 'POST', data: { deviceId, ...(auth.payPassword ? { payPassword: auth.payPassword } : {}) }, timeout: 60_000 });

export const completeContractSign = (id: number, body: { sessionId: string; signature: string } & PaymentAuth) =>
  requestResult<ContractDetail>(`/api/contract/${id}/sign/complete`, { method: 'POST', data: body, timeout: 60_000 });

export function uploadPaperContract(id: number, file: File): Promise<ContractDetail> {
  const form = new FormData();
  form.append('file', file);
  return requestResult(`/api/contract/${id}/upload`, { method: 'POST', data: form, timeout: 60_000 });
}

export const reviewPaperContract = (id: number, uploadId: number, body: ContractReview) =>
  requestResult<ContractDetail>(`/api/contract/${id}/uploads/${uploadId}/review`, { method: 'POST', data: body });

export const voidContract = (id: number, body: ContractVoid) =>
  requestResult<ContractDetail>(`/api/contract/${id}/void`, { method: 'POST', data: body });

export const extendContract = (id: number, body: ContractExtend) =>
  requestResult<ContractDetail>(`/api/contract/${id}/extend`, { method: 'POST', data: body });

/** An uploaded paper copy, fetched with the token header (never in an address). */
export async function fetchUploadFile(id: number, uploadId: number): Promise<Blob> {
  const token = session.token();
  const response = await fetch(`${API_PREFIX}/api/contract/${id}/uploads/${uploadId}/file`, { headers: token ? { [TOKEN_HEADER]: token } : {} });
  if (!response.ok) throw new Error(response.status === 404 ? '文件不存在或已删除' : '文件加载失败，请稍后重试');
  return response.blob();
}

/** Saves the contract's current PDF (fetched with the token header, so it downloads instead of opening). */
export async function downloadContractPdf(id: number, fileName: string): Promise<void> {
  const { url, httpHeaders } = contractPdfSource(id);
  const response = await fetch(url, { headers: httpHeaders });
  if (!response.ok) throw new Error('合同文件下载失败，请稍后重试');
  const href = URL.createObjectURL(await response.blob());
  const link = Object.assign(document.createElement('a'), { href, download: fileName });
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/** Opens an uploaded paper copy in a new tab. */
export async function openUploadFile(id: number, uploadId: number): Promise<void> {
  const tab = window.open('', '_blank');
  try {
    const url = URL.createObjectURL(await fetchUploadFile(id, uploadId));
    if (tab) tab.location.href = url;
    else window.location.assign(url);
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  } catch (error) {
    tab?.close();
    throw error;
  }
}
