import { SmsOutboxQuerySchema, SmsOutboxRecordSchema, SmsSendResultSchema, SmsSendSchema, envelopeSchema, pageSchema } from '@coalx/shared';
import { appError } from '../errors';
import { ok } from '../lib/envelope';
import type { ZodApp } from '../lib/route-types';
import { requireActor } from '../plugins/authenticate';
import { smsPolicy } from '../modules/sms/sms.policy';
import { listOutbox, sendSmsCode } from '../modules/sms/sms.service';

export default async function smsRoutes(app: ZodApp) {
  const tags = ['sms'];

  app.post(
    '/sys/sms/send',
    {
      config: {
        permission: 'public',
        // per address, on top of the per-mobile limits of the service
        rateLimit: {
          max: 20,
          timeWindow: '10 minutes',
          errorResponseBuilder: () => appError('too_many_requests', '获取验证码过于频繁，请稍后再试'),
        },
      },
      schema: {
        tags,
        summary: '发送短信验证码 (6 位，5 分钟有效；同一手机号 60 秒一次、每天 10 次)',
        body: SmsSendSchema,
        response: { 200: envelopeSchema(SmsSendResultSchema) },
      },
    },
    async (request) => ok(await sendSmsCode(app.db, app.clock, app.smsProvider, request.body, request.ip), '验证码已发送'),
  );

  app.get(
    '/sys/sms/outbox',
    {
      config: { permission: 'operation-smsOutbox' }, schema: {
        tags,
        summary: '短信发件箱 (内置短信通道，交易中心运营查看)',
        querystring: SmsOutboxQuerySchema,
        response: { 200: envelopeSchema(pageSchema(SmsOutboxRecordSchema)) },
      },
    },
    async (request) => {
      smsPolicy.can(requireActor(request), 'readOutbox');
      return ok(await listOutbox(app.db, request.query));
    },
  );
}
