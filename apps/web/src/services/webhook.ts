import type {
  WebhookDeliveryPage,
  WebhookDeliveryQuery,
  WebhookDeliveryRecord,
  WebhookEndpointEditInput,
  WebhookEndpointInput,
  WebhookEndpointRecord,
  WebhookEndpointWithSecret,
  WebhookEventTypeRecord,
} from '@coalx/shared';
import { requestResult } from '@/app/request';

/**
 * 推送接口 calls (issue 28 item 4; apps/server/src/api/webhook.routes.ts is the contract, its shapes are the shared
 * webhook schemas). The secret comes only in the answers of 新增 and 重新生成密钥.
 */

export type { WebhookDeliveryRecord, WebhookEndpointRecord, WebhookEndpointWithSecret, WebhookEventTypeRecord };
export type WebhookEndpointForm = Omit<WebhookEndpointInput, 'description' | 'enabled'> & { description?: string; enabled?: boolean };

export const listWebhookEventTypes = () => requestResult<WebhookEventTypeRecord[]>('/webhook/eventTypes');

export const listWebhookEndpoints = () => requestResult<WebhookEndpointRecord[]>('/webhook/endpoint/list');

export const addWebhookEndpoint = (input: WebhookEndpointForm) =>
  requestResult<WebhookEndpointWithSecret>('/webhook/endpoint/add', { method: 'POST', data: input });

export const editWebhookEndpoint = (input: WebhookEndpointForm & Pick<WebhookEndpointEditInput, 'id'>) =>
  requestResult<WebhookEndpointRecord>('/webhook/endpoint/edit', { method: 'POST', data: input });

export const deleteWebhookEndpoint = (id: number) => requestResult<null>('/webhook/endpoint/delete', { method: 'POST', data: { id } });

export const rotateWebhookSecret = (id: number) =>
  requestResult<WebhookEndpointWithSecret>('/webhook/endpoint/rotateSecret', { method: 'POST', data: { id } });

export const listWebhookDeliveries = (query: Partial<WebhookDeliveryQuery> & Pick<WebhookDeliveryQuery, 'endpointId'>) =>
  requestResult<WebhookDeliveryPage>('/webhook/delivery/list', { params: { ...query } });

export const resendWebhookDelivery = (id: number) =>
  requestResult<WebhookDeliveryRecord>('/webhook/delivery/resend', { method: 'POST', data: { id } });
