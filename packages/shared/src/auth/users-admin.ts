import { z } from 'zod';
import { MobileSchema, PersonNameSchema, UsernameSchema } from '../enterprise/schemas';
import { pageSchema } from '../api';
import { safeString } from '../text';

/** 用户管理 (system administrator): every account of the platform, staff and enterprise members. */

/** An account's state as the admin sees it; a disabled account stays 已停用 even while also locked. */
export const USER_STATES = { normal: '正常', disabled: '已停用', locked: '已锁定' } as const;
export type UserState = keyof typeof USER_STATES;

/** Which accounts a role fits: enterprise members hold trading roles, the trading centre's staff platform roles. */
export const ROLE_SCOPES = { enterprise: '企业用户', staff: '平台人员' } as const;
export type RoleScope = keyof typeof ROLE_SCOPES;

const search = (max: number) => safeString().trim().max(max, `查询条件不超过 ${max} 个字`).optional();

export const UserAdminQuerySchema = z.object({
  pageNo: z.coerce.number().int().min(1).max(100000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
  /** part of the real name */
  realname: search(30),
  /** part of the login name */
  username: search(32),
  /** part of the enterprise name; 交易中心 finds the platform's staff */
  enterprise: search(60),
  roleId: z.coerce.number().int().positive().optional(),
  state: z.enum(Object.keys(USER_STATES) as [UserState, ...UserState[]], { error: '账号状态不正确' }).optional(),
});
export type UserAdminQuery = z.infer<typeof UserAdminQuerySchema>;

export const UserAdminRowSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  realname: z.string(),
  mobile: z.string(),
  /** null for the platform's staff */
  enterpriseId: z.number().int().nullable(),
  enterpriseName: z.string().nullable(),
  roleId: z.number().int(),
  roleName: z.string(),
  /** the built-in role the role is made from (trader, enterprise_admin, operator, admin) */
  roleBase: z.string(),
  state: z.enum(Object.keys(USER_STATES) as [UserState, ...UserState[]]),
  /** yyyy-MM-dd HH:mm:ss while a lock runs, else null */
  lockedUntil: z.string().nullable(),
  /** wrong passwords since the last good sign-in */
  failedLoginCount: z.number().int(),
  /** still on the first-login password */
  isFirstLogin: z.boolean(),
  /** the newest session's start, or null when the account never signed in */
  lastLoginAt: z.string().nullable(),
  lastLoginIp: z.string().nullable(),
  openSessions: z.number().int(),
  createdAt: z.string(),
});
export type UserAdminRow = z.infer<typeof UserAdminRowSchema>;
export const UserAdminPageSchema = pageSchema(UserAdminRowSchema);

export const UserIdParamsSchema = z.object({ id: z.coerce.number({ error: '用户编号不正确' }).int('用户编号不正确').positive('用户编号不正确') });
export const UserSessionParamsSchema = UserIdParamsSchema.extend({
  sessionId: z.coerce.number({ error: '会话编号不正确' }).int('会话编号不正确').positive('会话编号不正确'),
});

const RoleIdSchema = z.number({ error: '请选择角色' }).int('请选择角色').positive('请选择角色');

/** A trading-centre account (operator or admin); enterprise members are added by their enterprise admin. */
export const StaffCreateSchema = z.strictObject({
  username: UsernameSchema,
  realname: PersonNameSchema('姓名'),
  mobile: MobileSchema,
  roleId: RoleIdSchema,
});
export type StaffCreateInput = z.infer<typeof StaffCreateSchema>;

/** A first-login password: shown once, in this answer only; only its hash is kept. */
export const InitialPasswordResultSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  initialPassword: z.string(),
});
export type InitialPasswordResult = z.infer<typeof InitialPasswordResultSchema>;

export const UserDisableSchema = z.strictObject({ disabled: z.boolean({ error: '请指定停用或启用' }) });
export const UserRoleChangeSchema = z.strictObject({ roleId: RoleIdSchema });

export const UserSessionSchema = z.object({
  id: z.number().int(),
  /** sign-in time, yyyy-MM-dd HH:mm:ss */
  createdAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
  ip: z.string(),
  userAgent: z.string(),
  /** the session the admin is using now */
  current: z.boolean(),
});
export type UserSession = z.infer<typeof UserSessionSchema>;

export const SessionsEndedSchema = z.object({ ended: z.number().int() });

/** A role the admin may give, with the accounts it fits. */
export const RoleOptionSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  base: z.string(),
  scope: z.enum(['enterprise', 'staff']),
});
export type RoleOption = z.infer<typeof RoleOptionSchema>;
