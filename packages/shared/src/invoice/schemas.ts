import { z } from 'zod';
import { pageSchema } from '../api';
import { safeString } from '../text';
import { dayField } from '../trade/fields';
import { InvoiceStates } from './states';

/**
 * VAT invoices (发票管理). Money in integer fen; dates yyyy-MM-dd (Asia/Shanghai). The rules a form and the server
 * both check live here: number formats by medium, tax = amount × rate rounded half up (±1 fen, as printed by the
 * tax system), total = amount + tax.
 */
export const INVOICE_STATUS = InvoiceStates.states;
export type InvoiceStatus = keyof typeof INVOICE_STATUS;
export const INVOICE_KINDS = { special: '增值税专用发票', ordinary: '增值税普通发票' } as const;
export type InvoiceKind = keyof typeof INVOICE_KINDS;
/** 纸质发票 carries a code and an 8-digit number; 数电发票 (全电) one 20-digit number. */
export const INVOICE_MEDIA = { paper: '纸质发票', digital: '数电发票' } as const;
export type InvoiceMedium = keyof typeof INVOICE_MEDIA;
/** VAT rates in percent: 13 % for coal; the lower ones for the rare mixed contract. */
export const INVOICE_RATES = [13, 9, 6, 3] as const;
export type InvoiceRate = (typeof INVOICE_RATES)[number];
/**
 * The VAT rate of a contract's price: every contract template prices the coal 含 13% 增值税, so that is the rate
 * its invoices must carry (an invoice at another rate does not invoice that contract).
 */
export const CONTRACT_VAT_RATE: InvoiceRate = 13;
/** Rounding on the printed tax, per invoice (the total, what the settled amount is compared with, is exact). */
export const INVOICE_TOLERANCE_FEN = 1;
export const INVOICE_DIRECTIONS = { blue: '蓝字发票', red: '红字发票' } as const;

/** Tax on an amount at a percent rate, rounded half up to the fen (amounts are positive here). */
export function invoiceTaxOf(amountFen: number, ratePct: number): number {
  return Math.floor((amountFen * ratePct + 50) / 100);
}

/**
 * What is wrong with the code and number for the medium and kind, or null. The tax system's formats:
 * - 数电发票 (全面数字化的电子发票, 专票 and 普票 alike): a 20-digit number, no code;
 * - 增值税专用发票 on paper: a 10-digit code and an 8-digit number;
 * - 增值税普通发票 (paper 折叠票 or 卷票, and the 增值税电子普通发票 registered as paper here): a 10- or 12-digit code
 *   and an 8-digit number.
 * Choice: a 专票 with a 12-digit code (the 增值税电子专用发票 that 数电专票 replaced) is refused. Without a kind (the
 * red-letter form, whose kind is the reversed invoice's) either code length passes; the server checks with the kind.
 */
export function invoiceNumberProblem(medium: InvoiceMedium, code: string, number: string, kind?: InvoiceKind): { path: 'code' | 'number'; message: string } | null {
  if (medium === 'digital') {
    if (!/^\d{20}$/.test(number)) return { path: 'number', message: '数电发票号码应为 20 位数字' };
    if (code !== '') return { path: 'code', message: '数电发票没有发票代码' };
    return null;
  }
  if (kind === 'special') {
    if (!/^\d{10}$/.test(code)) return { path: 'code', message: '增值税专用发票代码应为 10 位数字' };
  } else if (!/^(\d{10}|\d{12})$/.test(code)) return { path: 'code', message: '纸质发票代码应为 10 位或 12 位数字' };
  if (!/^\d{8}$/.test(number)) return { path: 'number', message: '纸质发票号码应为 8 位数字' };
  return null;
}

/**
 * The amount and tax of an invoice whose total is exactly `totalFen` at the rate: the amount nearest total ÷ (1 +
 * rate), the tax the rest, within the printed tax's rounding (INVOICE_TOLERANCE_FEN). Such an amount always exists,
 * as each fen more of amount adds at most two fen of total.
 */
export function invoiceSplitOf(totalFen: number, ratePct: number): { amount: number; tax: number } {
  const guess = Math.round((totalFen * 100) / (100 + ratePct));
  const fits = (amount: number) => amount > 0 && Math.abs(totalFen - amount - invoiceTaxOf(amount, ratePct)) <= INVOICE_TOLERANCE_FEN;
  const amount = [guess, guess - 1, guess + 1].find(fits) ?? guess;
  return { amount, tax: totalFen - amount };
}

/** What is wrong with the tax or total, or null. */
export function invoiceAmountProblem(amountFen: number, ratePct: number, taxFen: number, totalFen: number): { path: 'tax' | 'total'; message: string } | null {
  const expected = invoiceTaxOf(amountFen, ratePct);
  if (Math.abs(taxFen - expected) > INVOICE_TOLERANCE_FEN) return { path: 'tax', message: `税额应为不含税金额 × ${ratePct}%（${(expected / 100).toFixed(2)} 元，允许 ±0.01 元）` };
  if (totalFen !== amountFen + taxFen) return { path: 'total', message: '价税合计应等于不含税金额加税额' };
  return null;
}

const fenField = (label: string) =>
  z
    .number({ error: `请输入${label}` })
    .min(1, `${label}须大于 0`)
    .max(1_000_000_000_000, `${label}过大`)
    .int(`${label}须为整数分`);
const fileKey = (label: string) => safeString({ error: `请上传${label}` }).min(1, `请上传${label}`).max(200, `${label}无效，请重新上传`);
const digits = (label: string, max: number) => safeString({ error: `请输入${label}` }).trim().max(max, `${label}过长`);

/** 登记发票: the seller's invoice for a settled order. */
export const InvoiceCreateSchema = z
  .strictObject({
    kind: z.enum(['special', 'ordinary'], { error: '请选择发票类型' }),
    medium: z.enum(['paper', 'digital'], { error: '请选择发票介质' }),
    /** 发票代码: paper only; '' for 数电 */
    code: digits('发票代码', 30).default(''),
    number: digits('发票号码', 40),
    issuedOn: dayField('开票日期'),
    amount: fenField('不含税金额'),
    rate: z.union(INVOICE_RATES.map((r) => z.literal(r)) as unknown as [z.ZodLiteral<13>, z.ZodLiteral<9>, z.ZodLiteral<6>, z.ZodLiteral<3>], { error: '税率只能是 13%、9%、6% 或 3%' }),
    tax: z.number({ error: '请输入税额' }).min(0, '税额不能为负').max(1_000_000_000_000, '税额过大').int('税额须为整数分'),
    total: fenField('价税合计'),
    file: fileKey('发票文件'),
  })
  .superRefine((v, ctx) => {
    const number = invoiceNumberProblem(v.medium, v.code, v.number, v.kind);
    if (number) ctx.addIssue({ code: 'custom', path: [number.path], message: number.message });
    const amount = invoiceAmountProblem(v.amount, v.rate, v.tax, v.total);
    if (amount) ctx.addIssue({ code: 'custom', path: [amount.path], message: amount.message });
  });
export type InvoiceCreate = z.infer<typeof InvoiceCreateSchema>;

/** 红冲: the red-letter invoice's own number and date; its amounts are the reversed invoice's, negated. */
export const InvoiceReverseSchema = z
  .strictObject({
    medium: z.enum(['paper', 'digital'], { error: '请选择发票介质' }),
    code: digits('发票代码', 30).default(''),
    number: digits('红字发票号码', 40),
    issuedOn: dayField('开票日期'),
    reason: safeString({ error: '请输入红冲原因' }).trim().min(2, '红冲原因至少 2 个字').max(200, '红冲原因不超过 200 字'),
    file: fileKey('红字发票文件'),
  })
  .superRefine((v, ctx) => {
    const number = invoiceNumberProblem(v.medium, v.code, v.number);
    if (number) ctx.addIssue({ code: 'custom', path: [number.path], message: number.message });
  });
export type InvoiceReverse = z.infer<typeof InvoiceReverseSchema>;

export const InvoiceConfirmSchema = z.strictObject({ note: safeString().trim().max(200, '备注不超过 200 字').default('') });

// ---------- answers ----------

export const INVOICE_ACTIONS = ['confirm', 'reverse'] as const;
export type InvoiceAction = (typeof INVOICE_ACTIONS)[number];

export const InvoiceViewSchema = z.object({
  id: z.number().int(),
  orderId: z.number().int(),
  orderNo: z.string(),
  settlementNo: z.string(),
  sellerName: z.string(),
  buyerName: z.string(),
  mySide: z.enum(['seller', 'buyer']).nullable(),
  direction: z.enum(['blue', 'red']),
  kind: z.enum(['special', 'ordinary']),
  medium: z.enum(['paper', 'digital']),
  code: z.string(),
  number: z.string(),
  issuedOn: z.string(),
  rate: z.number().int(),
  /** fen; negative on a red-letter invoice */
  amount: z.number().int(),
  tax: z.number().int(),
  total: z.number().int(),
  status: z.string(),
  /** the red-letter invoice: the number it reverses; the reversed one: the red-letter number */
  reversesNumber: z.string().nullable(),
  reversedByNumber: z.string().nullable(),
  reverseReason: z.string(),
  file: z.object({ id: z.number().int(), name: z.string(), contentType: z.string() }),
  createdAt: z.string(),
  confirmedAt: z.string().nullable(),
  actions: z.array(z.enum(INVOICE_ACTIONS)),
});
export type InvoiceView = z.infer<typeof InvoiceViewSchema>;

const optionalText = (max: number, label: string) => safeString().trim().max(max, `${label}过长`).optional();
export const InvoiceFilterSchema = z
  .object({
    /** 'pending': 待确认 only */
    status: z.enum(Object.keys(INVOICE_STATUS) as [InvoiceStatus, ...InvoiceStatus[]], { error: '发票状态不正确' }).optional(),
    kind: z.enum(['special', 'ordinary'], { error: '发票类型不正确' }).optional(),
    /** 'buyer': only invoices my enterprise received (the side that confirms them) */
    side: z.enum(['buyer', 'seller'], { error: '买卖方筛选不正确' }).optional(),
    orderNo: optionalText(30, '订单编号'),
    number: optionalText(20, '发票号码'),
    counterparty: optionalText(60, '企业名称'),
    dateFrom: dayField('开始日期').optional(),
    dateTo: dayField('结束日期').optional(),
  })
  .superRefine((v, ctx) => {
    if (v.dateFrom && v.dateTo && v.dateFrom > v.dateTo) ctx.addIssue({ code: 'custom', path: ['dateTo'], message: '结束日期不能早于开始日期' });
  });
export type InvoiceFilter = z.infer<typeof InvoiceFilterSchema>;
export const InvoiceQuerySchema = InvoiceFilterSchema.safeExtend({
  pageNo: z.coerce.number().int().min(1).max(100000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
});
export type InvoiceQuery = z.infer<typeof InvoiceQuerySchema>;
export const InvoicePageSchema = pageSchema(InvoiceViewSchema);
export type InvoicePage = z.infer<typeof InvoicePageSchema>;

/** A settled order and how far its invoices have come (待开票, and the head of 登记发票). */
export const InvoiceDueSchema = z.object({
  orderId: z.number().int(),
  orderNo: z.string(),
  contractNo: z.string(),
  settlementNo: z.string(),
  sellerName: z.string(),
  buyerName: z.string(),
  mySide: z.enum(['seller', 'buyer']).nullable(),
  productName: z.string(),
  settledAt: z.string(),
  /** what the invoices must total, exactly */
  settled: z.number().int(),
  /** the contract's VAT rate, percent: every invoice of the order carries it */
  rate: z.number().int(),
  /** live invoices' totals so far, and of those confirmed */
  invoiced: z.number().int(),
  confirmed: z.number().int(),
  liveCount: z.number().int(),
  remaining: z.number().int(),
  orderStatus: z.string(),
  canRegister: z.boolean(),
});
export type InvoiceDue = z.infer<typeof InvoiceDueSchema>;
export const InvoiceDueQuerySchema = z.object({
  pageNo: z.coerce.number().int().min(1).max(100000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
  orderNo: optionalText(30, '订单编号'),
});
export type InvoiceDueQuery = z.infer<typeof InvoiceDueQuerySchema>;
export const InvoiceDuePageSchema = pageSchema(InvoiceDueSchema);

export const OrderInvoicesSchema = z.object({ due: InvoiceDueSchema, invoices: z.array(InvoiceViewSchema) });
export type OrderInvoices = z.infer<typeof OrderInvoicesSchema>;
