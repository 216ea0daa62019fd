import { z } from 'zod';
import { safeString } from '../text';

export const PASSWORD_RULE_TEXT = '密码至少 8 位，须同时包含字母和数字';
export const PASSWORD_MISMATCH_TEXT = '两次输入的密码不匹配!';

export const LoginSchema = z.strictObject({
  username: safeString({ error: '请输入用户名' }).trim().min(1, '请输入用户名').max(64, '用户名过长'),
  password: safeString({ error: '请输入密码' }).min(1, '请输入密码').max(128, '密码过长'),
});
export type LoginInput = z.infer<typeof LoginSchema>;

export const NewPasswordSchema = z
  .string({ error: '请输入新密码' })
  .min(8, PASSWORD_RULE_TEXT)
  .max(64, '密码不能超过 64 位')
  .regex(/[A-Za-z]/, PASSWORD_RULE_TEXT)
  .regex(/\d/, PASSWORD_RULE_TEXT);

export const UpdatePasswordSchema = z
  .strictObject({
    oldPassword: safeString({ error: '请输入原密码' }).min(1, '请输入原密码').max(128, '密码过长'),
    password: NewPasswordSchema,
    confirmPassword: safeString({ error: '请再次输入新密码' }).max(128, '密码过长'),
  })
  .refine((v) => v.password === v.confirmPassword, { message: PASSWORD_MISMATCH_TEXT, path: ['confirmPassword'] });
export type UpdatePasswordInput = z.infer<typeof UpdatePasswordSchema>;

export const ActionEntitySchema = z.object({
  action: safeString(),
  describe: safeString(),
  defaultCheck: z.boolean(),
});

export const RolePermissionSchema = z.object({
  permissionId: safeString(),
  permissionName: safeString(),
  actionEntitySet: z.array(ActionEntitySchema),
});

export const UserInfoSchema = z.object({
  id: safeString(),
  username: safeString(),
  realname: safeString(),
  name: safeString(),
  avatar: safeString(),
  mobile: safeString(),
  isFirstLogin: z.enum(['0', '1']),
  /** Changes whenever the role's grants change; every signed-in answer carries it too (X-Grants-Version). */
  grantsVersion: safeString().optional(),
  /** the dictionaries' version (数据字典): the web reloads its all_dict cache when it holds another */
  dictVersion: z.number().int().optional(),
  role: z.object({
    id: safeString(),
    code: safeString(),
    name: safeString(),
    permissions: z.array(RolePermissionSchema),
  }),
});
export type UserInfo = z.infer<typeof UserInfoSchema>;

export const EnterpriseInfoSchema = z
  .object({
    organName: safeString(),
    clientId: safeString(),
    creditCode: safeString(),
    enterpriseType: safeString(),
    auditStatus: safeString(),
    legalPerson: safeString(),
    contactName: safeString(),
    contactMobile: safeString(),
    address: safeString(),
  })
  .nullable();
export type EnterpriseInfo = z.infer<typeof EnterpriseInfoSchema>;

export const LoginResultSchema = z.object({
  token: safeString(),
  userInfo: UserInfoSchema,
  enterPriseInfo: EnterpriseInfoSchema,
});
export type LoginResult = z.infer<typeof LoginResultSchema>;

export interface MenuMeta {
  title: string;
  icon?: string;
  show: boolean;
  hideChildren?: boolean;
  hiddenHeaderContent?: boolean;
  target?: string;
}
export interface MenuItem {
  id: string;
  parentId: string | null;
  title: string;
  icon: string | null;
  path: string;
  url: string;
  component: string;
  redirect: string | null;
  key: string;
  name: string;
  meta: MenuMeta;
  children?: MenuItem[];
}
export const MenuItemSchema: z.ZodType<MenuItem> = z.lazy(() =>
  z.object({
    id: safeString(),
    parentId: safeString().nullable(),
    title: safeString(),
    icon: safeString().nullable(),
    path: safeString(),
    url: safeString(),
    component: safeString(),
    redirect: safeString().nullable(),
    key: safeString(),
    name: safeString(),
    meta: z.object({
      title: safeString(),
      icon: safeString().optional(),
      show: z.boolean(),
      hideChildren: z.boolean().optional(),
      hiddenHeaderContent: z.boolean().optional(),
      target: safeString().optional(),
    }),
    children: z.array(MenuItemSchema).optional(),
  }),
);

export const UserPermissionSchema = z.object({
  menu: z.array(MenuItemSchema),
  auth: z.array(z.object({ action: safeString(), describe: safeString() })),
});
export type UserPermission = z.infer<typeof UserPermissionSchema>;
