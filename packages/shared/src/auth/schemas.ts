import { z } from 'zod';

export const PASSWORD_RULE_TEXT = '密码至少 8 位，须同时包含字母和数字';
export const PASSWORD_MISMATCH_TEXT = '两次输入的密码不匹配!';

export const LoginSchema = z.strictObject({
  username: z.string({ error: '请输入用户名' }).trim().min(1, '请输入用户名').max(64, '用户名过长'),
  password: z.string({ error: '请输入密码' }).min(1, '请输入密码').max(128, '密码过长'),
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
    oldPassword: z.string({ error: '请输入原密码' }).min(1, '请输入原密码').max(128, '密码过长'),
    password: NewPasswordSchema,
    confirmPassword: z.string({ error: '请再次输入新密码' }).max(128, '密码过长'),
  })
  .refine((v) => v.password === v.confirmPassword, { message: PASSWORD_MISMATCH_TEXT, path: ['confirmPassword'] });
export type UpdatePasswordInput = z.infer<typeof UpdatePasswordSchema>;

export const ActionEntitySchema = z.object({
  action: z.string(),
  describe: z.string(),
  defaultCheck: z.boolean(),
});

export const RolePermissionSchema = z.object({
  permissionId: z.string(),
  permissionName: z.string(),
  actionEntitySet: z.array(ActionEntitySchema),
});

export const UserInfoSchema = z.object({
  id: z.string(),
  username: z.string(),
  realname: z.string(),
  name: z.string(),
  avatar: z.string(),
  mobile: z.string(),
  isFirstLogin: z.enum(['0', '1']),
  role: z.object({
    id: z.string(),
    code: z.string(),
    name: z.string(),
    permissions: z.array(RolePermissionSchema),
  }),
});
export type UserInfo = z.infer<typeof UserInfoSchema>;

export const EnterpriseInfoSchema = z
  .object({
    organName: z.string(),
    clientId: z.string(),
    creditCode: z.string(),
    enterpriseType: z.string(),
    auditStatus: z.string(),
    legalPerson: z.string(),
    contactName: z.string(),
    contactMobile: z.string(),
    address: z.string(),
  })
  .nullable();
export type EnterpriseInfo = z.infer<typeof EnterpriseInfoSchema>;

export const LoginResultSchema = z.object({
  token: z.string(),
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
    id: z.string(),
    parentId: z.string().nullable(),
    title: z.string(),
    icon: z.string().nullable(),
    path: z.string(),
    url: z.string(),
    component: z.string(),
    redirect: z.string().nullable(),
    key: z.string(),
    name: z.string(),
    meta: z.object({
      title: z.string(),
      icon: z.string().optional(),
      show: z.boolean(),
      hideChildren: z.boolean().optional(),
      hiddenHeaderContent: z.boolean().optional(),
      target: z.string().optional(),
    }),
    children: z.array(MenuItemSchema).optional(),
  }),
);

export const UserPermissionSchema = z.object({
  menu: z.array(MenuItemSchema),
  auth: z.array(z.object({ action: z.string(), describe: z.string() })),
});
export type UserPermission = z.infer<typeof UserPermissionSchema>;
