import {
  UkeyApplySchema,
  UkeyCertificateQuerySchema,
  UkeyCertificateSchema,
  UkeyChallengeRequestSchema,
  UkeyChallengeSchema,
  UkeyDeviceIdSchema,
  UkeyDeviceListSchema,
  UkeyRejectSchema,
  UkeyRenewSchema,
  UkeyRevokeSchema,
  envelopeSchema,
} from '@coalx/shared';
import { z } from 'zod';
import { ok } from '../lib/envelope';
import type { ZodApp } from '../lib/route-types';
import { requireActor } from '../plugins/authenticate';
import {
  applyDevice,
  approveDevice,
  certificateDer,
  createChallenge,
  listCertificates,
  listDevices,
  rejectDevice,
  renewDevice,
  revocationList,
  revokeDevice,
} from '../modules/ukey/ukey.service';

const DeviceStateSchema = z.object({ id: z.number(), status: z.string() });
const deviceState = (d: { id: number; status: string }) => ({ id: d.id, status: d.status });

/** 数字证书 (spec §7 "apply / update / query / delete key device", "certificate query") and the signing service. */
export default async function ukeyRoutes(app: ZodApp) {
  const tags = ['ukey'];

  app.post(
    '/api/ukey/device/apply',
    { config: { permission: 'ukey-info.add', audit: '申请数字证书' }, schema: { tags, summary: '申请数字证书 (浏览器生成密钥, PKCS#10)', body: UkeyApplySchema, response: { 200: envelopeSchema(DeviceStateSchema) } } },
    async (request) => {
      const device = await applyDevice(app.db, app.clock, app.platformCa, requireActor(request), request.body);
      return ok(deviceState(device), device.status === 'active' ? '数字证书已签发' : '申请已提交，等待企业管理员审批');
    },
  );

  app.post(
    '/api/ukey/device/update',
    { config: { permission: 'ukey-info.edit', audit: '更新数字证书' }, schema: { tags, summary: '更新数字证书 (新密钥)', body: UkeyRenewSchema, response: { 200: envelopeSchema(DeviceStateSchema) } } },
    async (request) => {
      const device = await renewDevice(app.db, app.clock, app.platformCa, requireActor(request), request.body);
      return ok(deviceState(device), device.status === 'active' ? '数字证书已更新' : '更新申请已提交，等待企业管理员审批');
    },
  );

  app.post(
    '/api/ukey/device/query',
    { config: { permission: 'ukey-info' }, schema: { tags, summary: '查询本企业的数字证书设备', body: z.strictObject({}).optional(), response: { 200: envelopeSchema(UkeyDeviceListSchema) } } },
    async (request) => ok(await listDevices(app.db, app.clock, requireActor(request))),
  );

  app.post(
    '/api/ukey/device/delete',
    { config: { permission: 'ukey-info.edit', audit: '注销数字证书' }, schema: { tags, summary: '注销数字证书 (吊销, 列入 CRL)', body: UkeyRevokeSchema, response: { 200: envelopeSchema(DeviceStateSchema) } } },
    async (request) => ok(deviceState(await revokeDevice(app.db, app.clock, requireActor(request), request.body)), '数字证书已注销'),
  );

  app.post(
    '/api/ukey/device/approve',
    { config: { permission: 'ukey-info.edit', audit: '批准数字证书' }, schema: { tags, summary: '企业管理员批准数字证书申请', body: UkeyDeviceIdSchema, response: { 200: envelopeSchema(DeviceStateSchema) } } },
    async (request) => ok(deviceState(await approveDevice(app.db, app.clock, app.platformCa, requireActor(request), request.body.deviceId)), '数字证书已签发'),
  );

  app.post(
    '/api/ukey/device/reject',
    { config: { permission: 'ukey-info.edit', audit: '驳回数字证书申请' }, schema: { tags, summary: '企业管理员驳回数字证书申请', body: UkeyRejectSchema, response: { 200: envelopeSchema(DeviceStateSchema) } } },
    async (request) => ok(deviceState(await rejectDevice(app.db, app.clock, requireActor(request), request.body)), '申请已驳回'),
  );

  app.post(
    '/api/ukey/certificate/query',
    { config: { permission: ['ukey-info', 'contract-sign'] }, schema: { tags, summary: '证书查询', body: UkeyCertificateQuerySchema.optional(), response: { 200: envelopeSchema(z.array(UkeyCertificateSchema)) } } },
    async (request) => ok(await listCertificates(app.db, app.clock, requireActor(request), request.body?.deviceId)),
  );

  app.get(
    '/api/ukey/certificate/:id/download',
    { config: { permission: 'ukey-info' }, schema: { tags, summary: '下载证书 (DER)', params: z.object({ id: z.coerce.number().int().positive() }) } },
    async (request, reply) => {
      const { der, serialNumber } = await certificateDer(app.db, requireActor(request), request.params.id);
      return reply.type('application/pkix-cert').header('content-disposition', `attachment; filename="${serialNumber}.cer"`).send(der);
    },
  );

  app.post(
    '/api/ukey/challenge',
    { config: { permission: 'self' }, schema: { tags, summary: '签名挑战 (一次性, 5 分钟)', body: UkeyChallengeRequestSchema, response: { 200: envelopeSchema(UkeyChallengeSchema) } } },
    async (request) => ok(await createChallenge(app.db, app.clock, requireActor(request), request.body)),
  );

  app.get('/ukey/ca.crt', { config: { permission: 'public' }, schema: { tags, summary: '平台根 CA 证书 (PEM)' } }, async (_request, reply) =>
    reply.type('application/x-pem-file').send(app.platformCa.pem),
  );

  app.get('/ukey/crl', { config: { permission: 'public' }, schema: { tags, summary: '证书吊销列表 (CRL, DER)' } }, async (_request, reply) =>
    reply.type('application/pkix-crl').header('cache-control', 'no-cache').send(Buffer.from(await revocationList(app.db, app.clock, app.platformCa))),
  );
}
