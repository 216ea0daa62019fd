import { z } from 'zod';
import { ACTIONS, ROLES, ROLE_GRANTS, WORKSPACE_MENU, flattenMenu, type ActionKey, type RoleCode } from '../permissions';
import { safeString } from '../text';

/**
 * 角色管理 (issue 17 item 2). A role is any sys_role row; its base role (one of the four built-in codes) is what
 * the server's policies compare, and its grants (menu items × actions) are what the grants plugin enforces. A role
 * never holds more than its base role's ROLE_GRANTS: the tree offered for a trader-based role is the trader's menu.
 */

export const ROLE_CODES = Object.keys(ROLES) as [RoleCode, ...RoleCode[]];
export const ACTION_KEYS = Object.keys(ACTIONS) as [ActionKey, ...ActionKey[]];

/** Grants every role of a base keeps whatever the admin ticks: the public pages and the workspace root. */
export const IMPLIED_PERMISSIONS: ReadonlySet<string> = new Set(['index', 'listing', WORKSPACE_MENU.id]);

export interface RoleMenuNode {
  id: string;
  title: string;
  /** Actions a role of this base may hold on the item. */
  actions: ActionKey[];
  children?: RoleMenuNode[];
}

/** The workspace menu items a role of `base` may be granted, as a tree, each with the actions it may hold. */
export function roleMenuTree(base: RoleCode): RoleMenuNode[] {
  const offered = new Map(ROLE_GRANTS[base].map((g) => [g.permissionId, g.actions]));
  const walk = (items: typeof WORKSPACE_MENU.children): RoleMenuNode[] =>
    (items ?? [])
      .filter((item) => offered.has(item.id))
      .map((item) => {
        const children = walk(item.children);
        return { id: item.id, title: item.title, actions: offered.get(item.id)!, ...(children.length ? { children } : {}) };
      });
  return walk(WORKSPACE_MENU.children);
}

/** Parent of every workspace menu item, to add the folders of a granted page. */
export const MENU_PARENT: ReadonlyMap<string, string | null> = new Map(flattenMenu(WORKSPACE_MENU).map((m) => [m.id, m.parentId]));

export const RoleGrantSchema = z.strictObject({
  permissionId: safeString().min(1).max(64),
  actions: z.array(z.enum(ACTION_KEYS, { error: '操作权限不正确' })).max(ACTION_KEYS.length),
});
export type RoleGrant = z.infer<typeof RoleGrantSchema>;

const nameField = safeString({ error: '请输入角色名称' }).trim().min(1, '请输入角色名称').max(20, '角色名称不超过 20 个字');
const descriptionField = safeString().trim().max(200, '角色描述不超过 200 个字').default('');
const grantsField = z.array(RoleGrantSchema).max(200, '菜单项过多');

export const RoleAddSchema = z.strictObject({
  name: nameField,
  baseRole: z.enum(ROLE_CODES, { error: '请选择基础角色' }),
  description: descriptionField,
  grants: grantsField,
});
export type RoleAddInput = z.infer<typeof RoleAddSchema>;

export const RoleEditSchema = z.strictObject({
  id: z.number().int().positive(),
  name: nameField,
  description: descriptionField,
  grants: grantsField,
});
export type RoleEditInput = z.infer<typeof RoleEditSchema>;

export const RoleCopySchema = z.strictObject({ id: z.number().int().positive(), name: nameField });
export type RoleCopyInput = z.infer<typeof RoleCopySchema>;

export const RoleIdSchema = z.strictObject({ id: z.number().int().positive() });
export const RoleIdQuerySchema = z.object({ id: z.coerce.number().int().positive() });
export const RoleMenuQuerySchema = z.object({ baseRole: z.enum(ROLE_CODES, { error: '请选择基础角色' }) });

export const RoleRecordSchema = z.object({
  id: z.number(),
  code: safeString(),
  name: safeString(),
  baseRole: z.enum(ROLE_CODES),
  baseRoleName: safeString(),
  builtin: z.boolean(),
  description: safeString(),
  userCount: z.number(),
  updatedAt: safeString(),
});
export type RoleRecord = z.infer<typeof RoleRecordSchema>;

export const RoleDetailSchema = RoleRecordSchema.extend({
  /** Menu items of the workspace the role holds (implied ones left out), with their actions. */
  grants: z.array(z.object({ permissionId: safeString(), actions: z.array(safeString()) })),
});
export type RoleDetail = z.infer<typeof RoleDetailSchema>;

export const RoleMenuNodeSchema: z.ZodType<RoleMenuNode> = z.lazy(() =>
  z.object({ id: safeString(), title: safeString(), actions: z.array(z.enum(ACTION_KEYS)), children: z.array(RoleMenuNodeSchema).optional() }),
);
