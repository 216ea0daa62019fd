import {
  RoleAddSchema,
  RoleCopySchema,
  RoleDetailSchema,
  RoleEditSchema,
  RoleIdQuerySchema,
  RoleIdSchema,
  RoleMenuNodeSchema,
  RoleMenuQuerySchema,
  RoleRecordSchema,
  envelopeSchema,
  roleMenuTree,
} from '@coalx/shared';
import { z } from 'zod';
import { ok } from '../lib/envelope';
import type { ZodApp } from '../lib/route-types';
import { requireActor } from '../plugins/authenticate';
import { rolesAdminPolicy } from '../modules/auth/roles-admin.policy';
import { addRole, copyRole, deleteRole, editRole, listRoles, roleDetail } from '../modules/auth/roles-admin.service';

/** 角色管理 (system admin): roles, their menu items × actions, enforced by plugins/grants.ts. */
export default async function rolesAdminRoutes(app: ZodApp) {
  const tags = ['system'];
  const manage = (request: import('fastify').FastifyRequest) => rolesAdminPolicy.can(requireActor(request), 'manage');

  app.get(
    '/sys/role/list',
    { config: { permission: 'system-role.query' }, schema: { tags, summary: '角色列表 (含用户数)', response: { 200: envelopeSchema(z.array(RoleRecordSchema)) } } },
    async (request) => {
      manage(request);
      return ok(await listRoles(app.db));
    },
  );

  app.get(
    '/sys/role/detail',
    { config: { permission: 'system-role.get' }, schema: { tags, summary: '角色详情与授权', querystring: RoleIdQuerySchema, response: { 200: envelopeSchema(RoleDetailSchema) } } },
    async (request) => {
      manage(request);
      return ok(await roleDetail(app.db, request.query.id));
    },
  );

  app.get(
    '/sys/role/menuTree',
    { config: { permission: 'system-role' }, schema: { tags, summary: '基础角色可授予的菜单与操作', querystring: RoleMenuQuerySchema, response: { 200: envelopeSchema(z.array(RoleMenuNodeSchema)) } } },
    async (request) => {
      manage(request);
      return ok(roleMenuTree(request.query.baseRole));
    },
  );

  app.post(
    '/sys/role/add',
    { config: { audit: '新增角色', permission: 'system-role.add' }, schema: { tags, summary: '新增角色', body: RoleAddSchema, response: { 200: envelopeSchema(RoleDetailSchema) } } },
    async (request) => {
      manage(request);
      const role = await addRole(app.db, app.clock, request.body);
      return ok(role, `角色「${role.name}」已创建`);
    },
  );

  app.post(
    '/sys/role/copy',
    { config: { audit: '复制角色', permission: 'system-role.add' }, schema: { tags, summary: '复制角色 (同一基础角色与授权)', body: RoleCopySchema, response: { 200: envelopeSchema(RoleDetailSchema) } } },
    async (request) => {
      manage(request);
      const role = await copyRole(app.db, app.clock, request.body);
      return ok(role, `已复制为角色「${role.name}」`);
    },
  );

  app.put(
    '/sys/role/edit',
    { config: { audit: '修改角色', permission: 'system-role.edit' }, schema: { tags, summary: '修改角色名称、描述与授权', body: RoleEditSchema, response: { 200: envelopeSchema(RoleDetailSchema) } } },
    async (request) => {
      manage(request);
      const role = await editRole(app.db, app.clock, request.body);
      return ok(role, `角色「${role.name}」已保存，用户下次加载菜单时生效`);
    },
  );

  app.post(
    '/sys/role/delete',
    { config: { audit: '删除角色', permission: 'system-role.delete' }, schema: { tags, summary: '删除角色 (内置角色与仍有用户的角色不能删除)', body: RoleIdSchema, response: { 200: envelopeSchema(z.null()) } } },
    async (request) => {
      manage(request);
      await deleteRole(app.db, request.body.id);
      return ok(null, '角色已删除');
    },
  );
}
