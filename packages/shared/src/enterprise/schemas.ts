import { canTransition, type StateOf } from '../state-machine';
import { ChangeRequestStates, EnterpriseAuditStates } from './states';
import { z } from 'zod';
import { safeString } from '../text';
import { NewPasswordSchema, PASSWORD_MISMATCH_TEXT } from '../auth/schemas';
import { isValidCreditCode } from './credit-code';

/**
 * Enterprise onboarding (issue 3): registration, SMS codes, audit by the trading centre, company info, members,
 * areas. Free text is stored as typed and always shown as text (React escapes it); the rules here refuse what no
 * real enterprise would type (wrong formats, over-long values, control characters).
 */

// control characters (tabs, new lines, NUL …) never belong in a one-line field
const NO_CONTROL = /^[^\u0000-\u001f\u007f]*$/;

function text(label: string, min: number, max: number) {
  return z
    .string({ error: `请输入${label}` })
    .trim()
    .min(1, `请输入${label}`) // an empty field is asked for, not told it is too short
    .min(min, `${label}至少 ${min} 个字`)
    .max(max, `${label}不能超过 ${max} 个字`)
    .regex(NO_CONTROL, `${label}不能包含换行或控制字符`);
}

export const MOBILE_PATTERN = /^1[3-9]\d{9}$/;
export const MOBILE_RULE_TEXT = '请输入正确的 11 位手机号码';
export const EMAIL_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/;
export const EMAIL_RULE_TEXT = '请输入正确的电子邮箱';
export const USERNAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]{3,31}$/;
export const USERNAME_RULE_TEXT = '用户名须以字母开头，4-32 位字母、数字或下划线';
export const CREDIT_CODE_RULE_TEXT = '统一社会信用代码不正确，请核对 18 位代码（末位为校验码）';
export const BANK_ACCOUNT_PATTERN = /^\d{8,30}$/;
export const BANK_ACCOUNT_RULE_TEXT = '银行账号须为 8-30 位数字';
export const SMS_CODE_RULE_TEXT = '请输入 6 位短信验证码';
export const ORGAN_NAME_MAX = 50;

export const MobileSchema = safeString({ error: '请输入手机号码' }).trim().regex(MOBILE_PATTERN, MOBILE_RULE_TEXT);
export const EmailSchema = z
  .string({ error: '请输入电子邮箱' })
  .trim()
  .max(100, '电子邮箱不能超过 100 个字符')
  .regex(EMAIL_PATTERN, EMAIL_RULE_TEXT);
export const UsernameSchema = safeString({ error: '请输入用户名' }).trim().regex(USERNAME_PATTERN, USERNAME_RULE_TEXT);
export const CreditCodeSchema = z
  .string({ error: '请输入统一社会信用代码' })
  .trim()
  .toUpperCase()
  .refine(isValidCreditCode, CREDIT_CODE_RULE_TEXT);
export const OrganNameSchema = text('企业名称', 4, ORGAN_NAME_MAX);
export const LegalPersonSchema = text('法定代表人', 2, 30);
export const PersonNameSchema = (label: string) => text(label, 2, 30);
export const SmsCodeSchema = safeString({ error: SMS_CODE_RULE_TEXT }).trim().regex(/^\d{6}$/, SMS_CODE_RULE_TEXT);
export const EnterpriseTypeSchema = z.enum(['mine', 'trader', 'power_plant', 'other'], { error: '请选择企业类型' });
/** The leaf the area picker ends on: a district (6 digits) or a city without districts (4 digits). */
export const AreaCodeSchema = safeString({ error: '请选择所在地区' }).regex(/^\d{4}(\d{2})?$/, '请选择所在地区');
/** An uploaded file's key (see the files module): YYYY/MM/DD/<uuid>.<ext>. */
export const FileKeySchema = z
  .string({ error: '请上传附件' })
  .regex(/^\d{4}\/\d{2}\/\d{2}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(jpg|png|pdf)$/, '附件无效，请重新上传');

export const BankFields = {
  bankName: text('开户银行', 2, 60),
  bankBranch: text('开户支行', 2, 60),
  bankAccountNo: safeString({ error: '请输入银行账号' }).trim().regex(BANK_ACCOUNT_PATTERN, BANK_ACCOUNT_RULE_TEXT),
};

/** What the audit looks at: the legal identity, the registered address, contact and settlement account. */
const EnterpriseFields = {
  organName: OrganNameSchema,
  creditCode: CreditCodeSchema,
  legalPerson: LegalPersonSchema,
  enterpriseType: EnterpriseTypeSchema,
  areaCode: AreaCodeSchema,
  addressDetail: text('详细地址', 2, 100),
  contactName: PersonNameSchema('联系人'),
  contactMobile: MobileSchema,
  contactEmail: EmailSchema,
  ...BankFields,
  licenceUrl: FileKeySchema.describe('营业执照 (上传时 scene=register)'),
  authorizationUrl: FileKeySchema.describe('授权委托书 (上传时 scene=register)'),
};

export const ATTACHMENT_KINDS = { licence: '营业执照', authorization: '授权委托书' } as const;
export type AttachmentKind = keyof typeof ATTACHMENT_KINDS;

export const EnterpriseRegisterSchema = z
  .strictObject({
    username: UsernameSchema,
    realname: PersonNameSchema('姓名'),
    mobile: MobileSchema,
    smsCode: SmsCodeSchema,
    password: NewPasswordSchema,
    confirmPassword: safeString({ error: '请再次输入密码' }).max(128, '密码过长'),
    ...EnterpriseFields,
  })
  .refine((v) => v.password === v.confirmPassword, { message: PASSWORD_MISMATCH_TEXT, path: ['confirmPassword'] });
export type EnterpriseRegisterInput = z.infer<typeof EnterpriseRegisterSchema>;

/** A rejected registrant proves who they are with the account chosen at registration. */
export const RegistrantCredentialsSchema = z.strictObject({
  username: safeString({ error: '请输入用户名' }).trim().min(1, '请输入用户名').max(64, '用户名过长'),
  password: safeString({ error: '请输入密码' }).min(1, '请输入密码').max(128, '密码过长'),
});

export const EnterpriseResubmitSchema = z.strictObject({
  username: RegistrantCredentialsSchema.shape.username,
  password: RegistrantCredentialsSchema.shape.password,
  ...EnterpriseFields,
});
export type EnterpriseResubmitInput = z.infer<typeof EnterpriseResubmitSchema>;

export const EnterpriseCheckExistSchema = z
  .strictObject({
    organName: safeString().trim().max(ORGAN_NAME_MAX, `企业名称不能超过 ${ORGAN_NAME_MAX} 个字`).optional(),
    creditCode: safeString().trim().toUpperCase().max(18, '统一社会信用代码为 18 位').optional(),
    username: safeString().trim().max(64, '用户名过长').optional(),
  })
  .refine((v) => Boolean(v.organName || v.creditCode || v.username), { message: '请提供企业名称、统一社会信用代码或用户名' });
export const CheckExistResultSchema = z.object({
  exists: z.boolean(),
  field: z.enum(['organName', 'creditCode', 'username']).nullable(),
  message: safeString(),
});
export type CheckExistResult = z.infer<typeof CheckExistResultSchema>;

export const RegisterResultSchema = z.object({
  clientId: safeString(),
  organName: safeString(),
  auditStatus: safeString(),
});

export const AttachmentSchema = z.object({
  id: z.number(),
  kind: safeString(),
  kindText: safeString(),
  url: safeString(),
  name: safeString(),
  contentType: safeString(),
  size: z.number(),
  createdAt: safeString(),
});
export type Attachment = z.infer<typeof AttachmentSchema>;

export const ChangeRequestSchema = z.object({
  id: z.number(),
  enterpriseId: z.number(),
  enterpriseName: safeString(),
  organName: safeString(),
  creditCode: safeString(),
  legalPerson: safeString(),
  bankName: safeString(),
  bankBranch: safeString(),
  bankAccountNo: safeString(),
  licenceUrl: safeString().nullable(),
  status: safeString(),
  reason: safeString().nullable(),
  appliedBy: safeString(),
  createdAt: safeString(),
  reviewedAt: safeString().nullable(),
});
export type ChangeRequest = z.infer<typeof ChangeRequestSchema>;

export const EnterpriseDetailSchema = z.object({
  id: z.number(),
  clientId: safeString(),
  organName: safeString(),
  creditCode: safeString(),
  enterpriseType: safeString(),
  legalPerson: safeString(),
  areaCode: safeString(),
  areaName: safeString(),
  addressDetail: safeString(),
  address: safeString(),
  contactName: safeString(),
  contactMobile: safeString(),
  contactEmail: safeString(),
  bankName: safeString(),
  bankBranch: safeString(),
  bankAccountNo: safeString(),
  auditStatus: safeString(),
  auditReason: safeString().nullable(),
  auditedAt: safeString().nullable(),
  submittedAt: safeString().nullable(),
  createdAt: safeString(),
  registrant: z.object({ username: safeString(), realname: safeString(), mobile: safeString() }).nullable(),
  attachments: z.array(AttachmentSchema),
  pendingChange: ChangeRequestSchema.nullable(),
});
export type EnterpriseDetail = z.infer<typeof EnterpriseDetailSchema>;

/** Labels of the transition tables in ./states.ts (the moves live there). */
export const ENTERPRISE_AUDIT_STATUS = EnterpriseAuditStates.states;
export type EnterpriseAuditStatus = StateOf<typeof EnterpriseAuditStates>;
export function canMoveAudit(from: string, to: EnterpriseAuditStatus): boolean {
  return canTransition(EnterpriseAuditStates, from, to);
}

export const CHANGE_REQUEST_STATUS = ChangeRequestStates.states;

export const EnterpriseAuditQuerySchema = z.object({
  pageNo: z.coerce.number().int().min(1).max(100000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
  auditStatus: z.enum(['pending', 'approved', 'rejected'], { error: '审核状态不正确' }).optional(),
  keyword: safeString().trim().max(50, '关键字不能超过 50 个字').optional(),
});
export const ChangeRequestQuerySchema = z.object({
  pageNo: z.coerce.number().int().min(1).max(100000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
  status: z.enum(['pending', 'approved', 'rejected'], { error: '审核状态不正确' }).optional(),
});

export const AuditIdSchema = z.strictObject({ id: z.number({ error: '缺少编号' }).int().positive() });
export const AuditRejectSchema = z.strictObject({
  id: z.number({ error: '缺少编号' }).int().positive(),
  reason: text('驳回原因', 2, 200),
});

/** Applied at once: who to call and where the office is. */
export const EnterpriseUpdateSchema = z.strictObject({
  areaCode: EnterpriseFields.areaCode,
  addressDetail: EnterpriseFields.addressDetail,
  contactName: EnterpriseFields.contactName,
  contactMobile: EnterpriseFields.contactMobile,
  contactEmail: EnterpriseFields.contactEmail,
});
export type EnterpriseUpdateInput = z.infer<typeof EnterpriseUpdateSchema>;

/** Legal data: goes to the trading centre's audit; trading continues on the audited data meanwhile. */
export const EnterpriseChangeApplySchema = z.strictObject({
  organName: OrganNameSchema,
  creditCode: CreditCodeSchema,
  legalPerson: LegalPersonSchema,
  ...BankFields,
  licenceUrl: FileKeySchema.optional().describe('new business licence when the name or code changes'),
});
export type EnterpriseChangeApplyInput = z.infer<typeof EnterpriseChangeApplySchema>;

export const MemberSchema = z.object({
  id: z.number(),
  username: safeString(),
  realname: safeString(),
  mobile: safeString(),
  role: safeString(),
  roleName: safeString(),
  disabled: z.boolean(),
  isFirstLogin: z.enum(['0', '1']),
  createdAt: safeString(),
});
export type Member = z.infer<typeof MemberSchema>;
export const MemberAddSchema = z.strictObject({
  username: UsernameSchema,
  realname: PersonNameSchema('姓名'),
  mobile: MobileSchema,
});
export type MemberAddInput = z.infer<typeof MemberAddSchema>;
export const MemberAddResultSchema = z.object({
  id: z.number(),
  username: safeString(),
  initialPassword: safeString().describe('shown once; the member must change it at first sign-in'),
});
export const MemberDisableSchema = z.strictObject({
  id: z.number({ error: '缺少成员编号' }).int().positive(),
  disabled: z.boolean({ error: '请指定停用或启用' }),
});

// SMS codes
export const SMS_CODE_TTL_SECONDS = 300;
export const SMS_RESEND_SECONDS = 60;
export const SMS_DAILY_LIMIT = 10;
export const SMS_MAX_WRONG_TRIES = 5;
export const SMS_SCENES = { register: '企业注册' } as const;
export const SmsSendSchema = z.strictObject({
  mobile: MobileSchema,
  scene: z.enum(['register'], { error: '短信场景不正确' }),
});
export type SmsSendInput = z.infer<typeof SmsSendSchema>;
export const SmsSendResultSchema = z.object({ expiresIn: z.number(), resendIn: z.number() });
export const SmsOutboxQuerySchema = z.object({
  pageNo: z.coerce.number().int().min(1).max(100000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
  mobile: safeString().trim().max(11, '手机号码为 11 位').optional(),
});
export const SmsOutboxRecordSchema = z.object({
  id: z.number(),
  mobile: safeString(),
  scene: safeString(),
  content: safeString(),
  provider: safeString(),
  createdAt: safeString(),
});

// areas (spec §3 cascading area node)
export const AreaNodeSchema = z.object({
  code: safeString(),
  title: safeString(),
  parentId: safeString().nullable(),
  leaf: z.boolean(),
});
export type AreaNode = z.infer<typeof AreaNodeSchema>;
export const AreaChildrenQuerySchema = z.object({
  pcode: safeString({ error: '缺少上级地区编码' }).regex(/^\d{2}(\d{2})?$/, '上级地区编码不正确'),
});
