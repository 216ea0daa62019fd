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
