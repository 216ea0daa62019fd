import { DepositInStates, TradeDepositStates, WithdrawalStates } from './states';
import { z } from 'zod';
import { dayField } from '../trade/fields';
import { safeString } from '../text';

/** Amounts travel as integer fen (DESIGN.md §4); the web converts what the trader types in yuan. */
export const MAX_AMOUNT_FEN = 10_000_000_000_000;
export const AmountFenSchema = z
  .number({ error: '请输入金额' })
  .int('金额须精确到分')
  .positive('金额须大于 0')
  .max(MAX_AMOUNT_FEN, '金额过大，单笔不超过 1000 亿元');

/** A request id the browser makes once per form submission, so a double click or a retry moves money once. */
export const RequestIdSchema = safeString({ error: '缺少请求编号' }).regex(/^[A-Za-z0-9_-]{8,64}$/, '请求编号格式不正确');

/** The pay password arrives hashed by the browser: SHA-256 hex of `${clientId}:${sixDigits}`. */
export const PayPasswordHashSchema = safeString().regex(/^[0-9a-f]{64}$/, '支付密码格式不正确');
export const PAY_PASSWORD_RULE_TEXT = '支付密码为 6 位数字';

/** What a money-moving request carries when the PayPassword / UkeySwitch switches are on. */
export const PaymentAuthSchema = {
  payPassword: PayPasswordHashSchema.optional(),
  ukeySignature: safeString().max(8192).optional(),
};

export const FundInfoSchema = z.object({
  available: z.number().int(),
  frozen: z.number().int(),
  total: z.number().int(),
  depositFrozen: z.number().int().describe('frozen for trade deposits'),
  withdrawalFrozen: z.number().int().describe('frozen for withdrawals awaiting payment'),
  escrowFrozen: z.number().int().describe('frozen as goods payment in escrow for orders'),
});

/** Labels of the transition tables in ./states.ts. */
export const DEPOSIT_IN_STATUS = DepositInStates.states;
export const WITHDRAWAL_STATUS = WithdrawalStates.states;
export const TRADE_DEPOSIT_STATUS = TradeDepositStates.states;
export const JOURNAL_KIND = {
  credit: '入账',
  freeze: '冻结',
  release: '解冻',
  debit_frozen: '出金',
  pay_out_frozen: '保证金抵扣支付',
} as const;
export const JOURNAL_REF_TYPE = {
  deposit_in: '入金',
  withdrawal: '出金',
  trade_deposit: '交易保证金',
  payment: '货款',
  order_escrow: '订单货款托管',
  breach_compensation: '违约赔偿',
  settlement: '余额结算',
  settlement_fee: '平台服务费',
} as const;

export const DepositInApplySchema = z.strictObject({
  amount: AmountFenSchema,
  bankName: safeString({ error: '请输入付款银行' }).trim().min(2, '请输入付款银行').max(60, '银行名称过长'),
  payerAccountNo: safeString({ error: '请输入付款账号' }).trim().regex(/^\d{8,30}$/, '付款账号须为 8-30 位数字'),
  transferDate: safeString({ error: '请选择转账日期' }).regex(/^\d{4}-\d{2}-\d{2}$/, '转账日期格式应为 YYYY-MM-DD'),
  voucherUrl: safeString({ error: '请上传转账凭证' }).min(1, '请上传转账凭证').max(200),
  remark: safeString().max(200, '备注不超过 200 字').default(''),
  requestId: RequestIdSchema,
});

export const WithdrawApplySchema = z.strictObject({
  amount: AmountFenSchema,
  remark: safeString().max(200, '备注不超过 200 字').default(''),
  requestId: RequestIdSchema,
  ...PaymentAuthSchema,
});

export const ReviewIdSchema = z.strictObject({ id: z.number({ error: '缺少申请编号' }).int().positive() });
export const RejectSchema = z.strictObject({
  id: z.number({ error: '缺少申请编号' }).int().positive(),
  reason: safeString({ error: '请填写驳回原因' }).trim().min(2, '请填写驳回原因').max(200, '驳回原因不超过 200 字'),
});

export const TransferListQuerySchema = z.object({
  pageNo: z.coerce.number().int().min(1).max(100000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
  status: z.enum(['pending', 'confirmed', 'paid', 'rejected'], { error: '申请状态不正确' }).optional(),
});

export const JournalQuerySchema = z.object({
  pageNo: z.coerce.number().int().min(1).max(100000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
  kind: z.enum(['credit', 'freeze', 'release', 'debit_frozen', 'pay_out_frozen']).optional(),
  dateFrom: dayField('开始日期').optional(),
  dateTo: dayField('结束日期').optional(),
});

export const SetPayPasswordSchema = z.strictObject({
  password: PayPasswordHashSchema,
  oldPassword: PayPasswordHashSchema.optional(),
});

export const SwitchUpdateSchema = z.strictObject({
  code: z.enum(['PayPassword', 'UkeySwitch']),
  content: z.enum(['0', '1']),
});
