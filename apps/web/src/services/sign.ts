import { API_PREFIX, type SignedDocument, type SignPrepareResult, type SignVerifyResult } from '@coalx/shared';
import { requestResult, type PageResult } from '@/app/request';
import { session } from '@/app/session';

/** PDF signing and verification calls (apps/server/src/modules/sign/sign.routes.ts is the contract). */

export const SIGNED_DOCUMENTS_QUERY_KEY = ['sign', 'documents'] as const;

/** The own enterprise's seal as SVG text. */
export async function fetchSealSvg(): Promise<string> {
  const response = await fetch(`${API_PREFIX}/api/sign/seal`, { headers: { 'X-Access-Token': session.token() ?? '' } });
  if (!response.ok) throw new Error('印章加载失败');
  return response.text();
}

export function prepareSignature(file: File, deviceId: number, reason: string): Promise<SignPrepareResult> {
  const form = new FormData();
  form.append('deviceId', String(deviceId));
  form.append('reason', reason);
  form.append('file', file);
  return requestResult('/api/sign/prepare', { method: 'POST', data: form, timeout: 60_000 });
}

export function completeSignature(sessionId: string, signature: string): Promise<SignedDocument> {
  return requestResult('/api/sign/complete', { method: 'POST', data: { sessionId, signature } });
}

export function listSignedDocuments(pageNo: number, pageSize: number): Promise<PageResult<SignedDocument>> {
  return requestResult('/api/sign/documents', { params: { pageNo, pageSize } });
}

export function verifyPdf(file: File, number?: string): Promise<SignVerifyResult> {
  const form = new FormData();
  if (number) form.append('number', number);
  form.append('file', file);
  return requestResult('/api/sign/verify', { method: 'POST', data: form, timeout: 60_000 });
}

/** Saves a signed PDF: fetched with the token header, so the file downloads instead of opening in a viewer. */
export async function downloadSignedDocument(document: Pick<SignedDocument, 'url' | 'fileName'>): Promise<void> {
  const response = await fetch(`${API_PREFIX}/api/common/static/${document.url}`, { headers: { 'X-Access-Token': session.token() ?? '' } });
  if (!response.ok) throw new Error('文件下载失败，请稍后重试');
  const href = URL.createObjectURL(await response.blob());
  const link = Object.assign(window.document.createElement('a'), { href, download: document.fileName });
  link.click();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
