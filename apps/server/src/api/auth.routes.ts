import { LoginResultSchema, LoginSchema, UpdatePasswordSchema, UserInfoSchema, envelopeSchema } from '@coalx/shared';
import { z } from 'zod';
import { appError } from '../errors';
import { ok } from '../lib/envelope';
import type { ZodApp } from '../lib/route-types';
import { requireActor } from '../plugins/authenticate';
import { signIn } from '../flows/sign-in';
import { updatePassword, userInfoJson } from '../modules/auth/auth.service';
import { revokeSession } from '../modules/auth/session.service';

export default async function authRoutes(app: ZodApp) {
  app.post(
    '/sys/login',
    {
      config: {
        permission: 'public',
        rateLimit: {
          max: app.config.loginRateLimit,
          timeWindow: '1 minute',
          errorResponseBuilder: () => appError('too_many_requests', '登录尝试过于频繁，请 1 分钟后再试'),
        },
      },
      schema: {
        tags: ['auth'],
        summary: '登录',
        body: LoginSchema,
        response: { 200: envelopeSchema(LoginResultSchema) },
      },
    },
    async (request) => {
      const result = await signIn(app.db, app.clock, request.body, {
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? '',
        requestId: String(request.id),
      });
      return ok(result, '登录成功');
    },
  );

  app.get(
    '/sys/logout',
    { config: { permission: 'self', audit: '退出登录' }, schema: { tags: ['auth'], summary: '退出登录', response: { 200: envelopeSchema(z.null()) } } },
    async (request) => {
      await revokeSession(app.db, app.clock, requireActor(request).sessionId);
      return ok(null, '退出登录成功');
    },
  );

  app.get(
    '/sys/user/info',
    { config: { permission: 'self' }, schema: { tags: ['auth'], summary: '当前用户信息 (含角色权限)', response: { 200: envelopeSchema(UserInfoSchema) } } },
    // the answer's bytes are put together from memory (auth.service userInfoJson): no serialiser, no query
    async (request, reply) => {
      const result = await userInfoJson(app.db, requireActor(request).userId);
      return reply
        .type('application/json; charset=utf-8')
        .send(`{"success":true,"code":0,"message":"操作成功","result":${result},"timestamp":${Date.now()}}` as never);
    },
  );

  app.put(
    '/sys/user/updatePassword',
    {
      config: { permission: 'self', audit: '修改密码' },
      schema: {
        tags: ['auth'],
        summary: '修改密码 (首次登录必须修改)',
        body: UpdatePasswordSchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await updatePassword(app.db, app.clock, requireActor(request), request.body);
      return ok(null, '密码修改成功');
    },
  );
}
