import {
  InitialPasswordResultSchema,
  RoleOptionSchema,
  SessionsEndedSchema,
  StaffCreateSchema,
  UserAdminPageSchema,
  UserAdminQuerySchema,
  UserDisableSchema,
  UserIdParamsSchema,
  UserRoleChangeSchema,
  UserSessionParamsSchema,
  UserSessionSchema,
  envelopeSchema,
} from '@coalx/shared';
import { z } from 'zod';
import { ok } from '../lib/envelope';
import type { ZodApp } from '../lib/route-types';
import { requireActor } from '../plugins/authenticate';
import { authPolicy } from '../modules/auth/auth.policy';
import {
  changeRole,
  createStaff,
  endAllSessions,
  endSession,
  listRoleOptions,
  listSessions,
  listUsers,
  resetPassword,
  setUserDisabled,
  unlockUser,
} from '../modules/auth/users-admin.service';

const BASE = '/sys/user/admin';
const tags = ['users-admin'];
const Done = envelopeSchema(z.null());

/** 用户管理 (system administrator): every account of the platform. */
export default async function usersAdminRoutes(app: ZodApp) {
  app.get(
    `${BASE}/list`,
    { config: { permission: 'system-user.query' }, schema: { tags, summary: '全部账号 (分页，可按姓名、用户名、企业、角色、状态查询)', querystring: UserAdminQuerySchema, response: { 200: envelopeSchema(UserAdminPageSchema) } } },
    async (request) => {
      authPolicy.can(requireActor(request), 'listUsers');
      return ok(await listUsers(app.db, app.clock, request.query));
    },
  );

  app.get(
    `${BASE}/roles`,
    { config: { permission: 'system-user.query' }, schema: { tags, summary: '可分配的角色 (含适用的账号类型)', response: { 200: envelopeSchema(z.array(RoleOptionSchema)) } } },
    async (request) => {
      authPolicy.can(requireActor(request), 'listUsers');
      return ok(await listRoleOptions(app.db));
    },
  );

  app.post(
    `${BASE}/add`,
    { config: { audit: '新建账号', permission: 'system-user.add' }, schema: { tags, summary: '新建交易中心账号 (初始密码只返回这一次)', body: StaffCreateSchema, response: { 200: envelopeSchema(InitialPasswordResultSchema) } } },
    async (request) => {
      authPolicy.can(requireActor(request), 'createStaff');
      const result = await createStaff(app.db, app.clock, request.body);
      return ok(result, `账号 ${result.username} 已创建，首次登录须修改初始密码`);
    },
  );

  app.put(
    `${BASE}/:id/disabled`,
    { config: { audit: '停用或启用账号', permission: ['system-user.disable', 'system-user.enable'] }, schema: { tags, summary: '停用或启用账号 (停用立即结束其全部会话)', params: UserIdParamsSchema, body: UserDisableSchema, response: { 200: Done } } },
    async (request) => {
      const actor = requireActor(request);
      authPolicy.can(actor, 'setUserDisabled');
      const { disabled } = request.body;
      const { username } = await setUserDisabled(app.db, app.clock, actor, request.params.id, disabled);
      return ok(null, disabled ? `账号 ${username} 已停用，已登录的会话已全部结束` : `账号 ${username} 已启用`);
    },
  );

  app.post(
    `${BASE}/:id/unlock`,
    { config: { audit: '解锁账号', permission: 'system-user.edit' }, schema: { tags, summary: '解锁因密码错误被锁定的账号', params: UserIdParamsSchema, response: { 200: Done } } },
    async (request) => {
      authPolicy.can(requireActor(request), 'editUser');
      const { username } = await unlockUser(app.db, app.clock, request.params.id);
      return ok(null, `账号 ${username} 已解锁，可以立即登录`);
    },
  );

  app.post(
    `${BASE}/:id/resetPassword`,
    { config: { audit: '重置密码', permission: 'system-user.edit' }, schema: { tags, summary: '重置为首次登录密码 (只返回这一次，并结束其全部会话)', params: UserIdParamsSchema, response: { 200: envelopeSchema(InitialPasswordResultSchema) } } },
    async (request) => {
      const actor = requireActor(request);
      authPolicy.can(actor, 'editUser');
      const result = await resetPassword(app.db, app.clock, actor, request.params.id);
      return ok(result, `账号 ${result.username} 的密码已重置，首次登录须修改密码`);
    },
  );

  app.put(
    `${BASE}/:id/role`,
    { config: { audit: '修改账号角色', permission: 'system-user.edit' }, schema: { tags, summary: '修改账号的角色', params: UserIdParamsSchema, body: UserRoleChangeSchema, response: { 200: Done } } },
    async (request) => {
      const actor = requireActor(request);
      authPolicy.can(actor, 'editUser');
      const { username, roleName } = await changeRole(app.db, app.clock, actor, request.params.id, request.body.roleId);
      return ok(null, `账号 ${username} 的角色已改为「${roleName}」`);
    },
  );

  app.get(
    `${BASE}/:id/sessions`,
    { config: { permission: 'system-user.query' }, schema: { tags, summary: '账号当前的登录会话', params: UserIdParamsSchema, response: { 200: envelopeSchema(z.array(UserSessionSchema)) } } },
    async (request) => {
      const actor = requireActor(request);
      authPolicy.can(actor, 'manageSessions');
      return ok(await listSessions(app.db, app.clock, actor, request.params.id));
    },
  );

  app.delete(
    `${BASE}/:id/sessions/:sessionId`,
    { config: { audit: '结束会话', permission: 'system-user.edit' }, schema: { tags, summary: '结束一个会话', params: UserSessionParamsSchema, response: { 200: Done } } },
    async (request) => {
      authPolicy.can(requireActor(request), 'manageSessions');
      await endSession(app.db, app.clock, request.params.id, request.params.sessionId);
      return ok(null, '会话已结束，该设备须重新登录');
    },
  );

  app.delete(
    `${BASE}/:id/sessions`,
    { config: { audit: '结束全部会话', permission: 'system-user.edit' }, schema: { tags, summary: '结束账号的全部会话', params: UserIdParamsSchema, response: { 200: envelopeSchema(SessionsEndedSchema) } } },
    async (request) => {
      authPolicy.can(requireActor(request), 'manageSessions');
      const ended = await endAllSessions(app.db, app.clock, request.params.id);
      return ok({ ended }, ended ? `已结束 ${ended} 个会话` : '该账号没有登录中的会话');
    },
  );
}
