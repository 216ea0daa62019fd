import {
  WebhookDeliveryPageSchema,
  WebhookDeliveryQuerySchema,
  WebhookDeliveryRecordSchema,
  WebhookEndpointEditSchema,
  WebhookEndpointInputSchema,
  WebhookEndpointRecordSchema,
  WebhookEndpointWithSecretSchema,
  WebhookEventTypeRecordSchema,
  WebhookIdSchema,
  envelopeSchema,
  webhookEventTypeList,
} from '@coalx/shared';
import { z } from 'zod';
import { ok } from '../lib/envelope';
import type { ZodApp } from '../lib/route-types';
import { requireActor } from '../plugins/authenticate';
import { kickWebhookDeliveries } from '../plugins/webhooks';
import { webhookPolicy } from '../modules/webhook/webhook.policy';
import { createEndpoint, deleteEndpoint, editEndpoint, listDeliveries, listEndpoints, resendDelivery, rotateSecret } from '../modules/webhook/webhook.service';

const MENU = 'message-webhook';
const ENDPOINT = '推送接口';
const DELIVERY = '推送记录';

/** 推送接口 (issue 28 item 4): the enterprise admin's endpoints for the enterprise's own systems, and their delivery log. */
export default async function webhookRoutes(app: ZodApp) {
  const tags = ['message'];
  const address = () => ({ allowPrivate: app.config.webhookAllowPrivate });

  app.get(
    '/webhook/eventTypes',
    { config: { permission: `${MENU}.query` }, schema: { tags, summary: '可推送的事件类型', response: { 200: envelopeSchema(z.array(WebhookEventTypeRecordSchema)) } } },
    async (request) => {
      webhookPolicy.can(requireActor(request), 'manage');
      return ok(webhookEventTypeList());
    },
  );

  app.get(
    '/webhook/endpoint/list',
    { config: { permission: `${MENU}.query` }, schema: { tags, summary: '本企业的推送接口 (不含密钥)', response: { 200: envelopeSchema(z.array(WebhookEndpointRecordSchema)) } } },
    async (request) => ok(await listEndpoints(app.db, requireActor(request))),
  );

  app.post(
    '/webhook/endpoint/add',
    {
      config: { permission: `${MENU}.add`, audit: '新增推送接口' },
      schema: { tags, summary: '新增推送接口 (应答含密钥，仅此一次)', body: WebhookEndpointInputSchema, response: { 200: envelopeSchema(WebhookEndpointWithSecretSchema) } },
    },
    async (request) => {
      request.auditObject = { type: ENDPOINT };
      const created = await createEndpoint(app.db, app.clock, requireActor(request), request.body, address());
      request.auditObject = { type: ENDPOINT, id: created.id };
      return ok(created, '已新增，请立即保存密钥');
    },
  );

  app.post(
    '/webhook/endpoint/edit',
    { config: { permission: `${MENU}.edit`, audit: '编辑推送接口' }, schema: { tags, summary: '编辑推送接口', body: WebhookEndpointEditSchema, response: { 200: envelopeSchema(WebhookEndpointRecordSchema) } } },
    async (request) => {
      request.auditObject = { type: ENDPOINT, id: request.body.id };
      return ok(await editEndpoint(app.db, app.clock, requireActor(request), request.body, address()), '已保存');
    },
  );

  app.post(
    '/webhook/endpoint/delete',
    { config: { permission: `${MENU}.delete`, audit: '删除推送接口' }, schema: { tags, summary: '删除推送接口 (连同其推送记录)', body: WebhookIdSchema, response: { 200: envelopeSchema(z.null()) } } },
    async (request) => {
      request.auditObject = { type: ENDPOINT, id: request.body.id };
      await deleteEndpoint(app.db, requireActor(request), request.body.id);
      return ok(null, '已删除');
    },
  );

  app.post(
    '/webhook/endpoint/rotateSecret',
    {
      config: { permission: `${MENU}.edit`, audit: '重新生成推送密钥' },
      schema: { tags, summary: '重新生成密钥 (旧密钥立即失效；应答含新密钥，仅此一次)', body: WebhookIdSchema, response: { 200: envelopeSchema(WebhookEndpointWithSecretSchema) } },
    },
    async (request) => {
      request.auditObject = { type: ENDPOINT, id: request.body.id };
      return ok(await rotateSecret(app.db, app.clock, requireActor(request), request.body.id), '已重新生成密钥，请立即保存');
    },
  );

  app.get(
    '/webhook/delivery/list',
    {
      config: { permission: `${MENU}.query` },
      schema: { tags, summary: '推送记录 (含每次尝试的状态码)', querystring: WebhookDeliveryQuerySchema, response: { 200: envelopeSchema(WebhookDeliveryPageSchema) } },
    },
    async (request) => ok(await listDeliveries(app.db, requireActor(request), request.query)),
  );

  app.post(
    '/webhook/delivery/resend',
    { config: { permission: `${MENU}.edit`, audit: '重新发送推送' }, schema: { tags, summary: '重新发送 (立即重新投递，重新计算尝试次数)', body: WebhookIdSchema, response: { 200: envelopeSchema(WebhookDeliveryRecordSchema) } } },
    async (request) => {
      request.auditObject = { type: DELIVERY, id: request.body.id };
      const delivery = await resendDelivery(app.db, app.clock, requireActor(request), request.body.id);
      kickWebhookDeliveries(app);
      return ok(delivery, '已加入发送队列');
    },
  );
}
