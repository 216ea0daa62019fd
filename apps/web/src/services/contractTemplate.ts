import {
  API_PREFIX,
  type ContractKind,
  type ContractPlaceholderInfo,
  type ContractTemplate,
  type ContractTemplatePreviewResult,
} from '@coalx/shared';
import { request, requestResult, TOKEN_HEADER } from '@/app/request';
import { session } from '@/app/session';

/** 模板配置 calls (apps/server/src/modules/contract/template.routes.ts is the contract). */
const BASE = '/api/contract-template';

export const CONTRACT_TEMPLATES_QUERY_KEY = ['contract-template', 'list'] as const;

export function listContractTemplates(): Promise<ContractTemplate[]> {
  return requestResult(`${BASE}/list`);
}

export function contractTemplateHistory(kind: ContractKind): Promise<ContractTemplate[]> {
  return requestResult(`${BASE}/history`, { params: { kind } });
}

export function contractPlaceholders(): Promise<ContractPlaceholderInfo[]> {
  return requestResult(`${BASE}/placeholders`);
}

/** Saves a new version; the answer's message says which ('已保存为第 2 版'). */
export async function saveContractTemplate(input: { kind: ContractKind; name: string; body: string }): Promise<{ template: ContractTemplate; message: string }> {
  const body = await request<ContractTemplate>(`${BASE}/save`, { method: 'POST', data: input });
  return { template: body.result, message: body.message };
}

export function previewContractTemplate(input: { kind: ContractKind; body: string }, signal?: AbortSignal): Promise<ContractTemplatePreviewResult> {
  return requestResult(`${BASE}/preview`, { method: 'POST', data: input, signal });
}

/** The current template on the sample deal as a PDF blob: fetched with the token header, never a token in a URL. */
export async function fetchContractTemplatePdf(kind: ContractKind): Promise<Blob> {
  const token = session.token();
  const response = await fetch(`${API_PREFIX}${BASE}/preview.pdf?kind=${encodeURIComponent(kind)}`, { headers: token ? { [TOKEN_HEADER]: token } : {} });
  if (!response.ok) {
    let text = 'PDF 生成失败，请稍后重试';
    try {
      const body = (await response.json()) as { message?: string };
      if (body?.message) text = body.message;
    } catch {
      // not JSON
    }
    throw new Error(text);
  }
  return response.blob();
}
