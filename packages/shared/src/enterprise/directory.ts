import { z } from 'zod';
import { safeString } from '../text';
import { MemberSchema } from './schemas';

/**
 * 企业名录 (the trading centre's list of enterprises) and trading rights (暂停交易): every enterprise with its audit
 * state and trading state; suspend for a period or until lifted, lift early, each with a reason.
 */
export const TRADING_STATES = { normal: '正常', suspended: '暂停交易' } as const;
export type TradingState = keyof typeof TRADING_STATES;

export const EnterpriseDirectoryQuerySchema = z.object({
  pageNo: z.coerce.number().int().min(1).max(100000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
  /** name, credit code or client number */
  keyword: safeString().trim().max(50).optional(),
  auditStatus: z.enum(['pending', 'approved', 'rejected'], { error: '审核状态不正确' }).optional(),
  tradingState: z.enum(['normal', 'suspended'], { error: '交易状态不正确' }).optional(),
  /** '1': only suspensions in force that end later today (Asia/Shanghai), the operator's to-do */
  endsToday: z.enum(['1'], { error: '筛选条件不正确' }).optional(),
  enterpriseType: safeString().max(20).optional(),
});
export type EnterpriseDirectoryQuery = z.infer<typeof EnterpriseDirectoryQuerySchema>;

export const SuspensionViewSchema = z.object({
  id: z.number(),
  enterpriseId: z.number(),
  reason: safeString(),
  startsAt: safeString(),
  /** null: until lifted */
  endsAt: safeString().nullable(),
  /** active | lifted | ended, with a time rule: an active one whose end passed shows as ended */
  status: safeString(),
  statusText: safeString(),
  createdBy: safeString(),
  liftedAt: safeString().nullable(),
  liftedBy: safeString().nullable(),
  liftReason: safeString().nullable(),
});
export type SuspensionView = z.infer<typeof SuspensionViewSchema>;

export const DirectoryEntrySchema = z.object({
  id: z.number(),
  clientId: safeString(),
  organName: safeString(),
  creditCode: safeString(),
  enterpriseType: safeString(),
  legalPerson: safeString(),
  areaName: safeString(),
  contactName: safeString(),
  contactMobile: safeString(),
  auditStatus: safeString(),
  auditedAt: safeString().nullable(),
  tradingState: z.enum(['normal', 'suspended']),
  /** "暂停交易 至 2026-12-05 18:00" or "正常" */
  tradingStateText: safeString(),
  suspension: SuspensionViewSchema.nullable(),
  memberCount: z.number(),
  createdAt: safeString(),
});
export type DirectoryEntry = z.infer<typeof DirectoryEntrySchema>;

export const AuditHistoryItemSchema = z.object({
  kind: z.enum(['registration', 'change']),
  title: safeString(),
  status: safeString(),
  statusText: safeString(),
  reason: safeString().nullable(),
  at: safeString(),
  decidedAt: safeString().nullable(),
});

export const DirectoryDetailSchema = DirectoryEntrySchema.extend({
  address: safeString(),
  bankName: safeString(),
  bankAccountNo: safeString(),
  members: z.array(MemberSchema),
  audits: z.array(AuditHistoryItemSchema),
  suspensions: z.array(SuspensionViewSchema),
  can: z.object({ suspend: z.boolean(), lift: z.boolean() }),
});
export type DirectoryDetail = z.infer<typeof DirectoryDetailSchema>;

export const EnterpriseIdParamsSchema = z.object({ id: z.coerce.number({ error: '企业编号不正确' }).int().min(1).max(Number.MAX_SAFE_INTEGER) });

const reasonField = (label: string) =>
  safeString({ error: `请填写${label}` })
    .trim()
    .min(1, `请填写${label}`)
    .max(200, `${label}不能超过 200 个字`);

export const SuspendTradingSchema = z.object({
  id: z.number({ error: '企业编号不正确' }).int().min(1),
  reason: reasonField('暂停交易原因'),
  /** ISO date-time with offset; absent or null: until lifted */
  endsAt: z.iso.datetime({ offset: true, error: '暂停截止时间格式不正确' }).nullable().optional(),
});
export type SuspendTradingInput = z.infer<typeof SuspendTradingSchema>;

export const LiftTradingSchema = z.object({
  id: z.number({ error: '企业编号不正确' }).int().min(1),
  reason: reasonField('恢复交易原因'),
});
