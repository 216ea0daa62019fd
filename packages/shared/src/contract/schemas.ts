import { z } from 'zod';
import { pageSchema } from '../api';
import { PaymentAuthSchema } from '../funds/schemas';
import { safeString } from '../text';
import { dayField, textField } from '../trade/fields';
import { TradeType } from '../trade/types';
import { ContractStates, ContractUploadStates } from './states';

/** Contract vocabulary of DESIGN.md §8 "Contracts". Money in integer fen, quantities in integer kg. */
export const CONTRACT_STATUS = ContractStates.states;
export type ContractStatus = keyof typeof CONTRACT_STATUS;
export const CONTRACT_UPLOAD_STATUS = ContractUploadStates.states;

/** One template per kind (模板配置). */
export const CONTRACT_KINDS = {
  listing_sale: '挂牌销售合同',
  listing_purchase: '挂牌采购合同',
  auction_sale: '竞价销售合同',
  auction_purchase: '竞价采购合同',
  long_term: '长协合同',
  /** a long-term deal's monthly call-off: a deal that runs the spot chain under the framework contract */
  long_term_monthly: '长协月度合同',
} as const;
export type ContractKind = keyof typeof CONTRACT_KINDS;
export const CONTRACT_KIND_KEYS = Object.keys(CONTRACT_KINDS) as ContractKind[];

export function contractKindOf(tradeType: number): ContractKind {
  switch (tradeType) {
    case TradeType.listingSale:
      return 'listing_sale';
    case TradeType.listingPurchase:
      return 'listing_purchase';
    case TradeType.auctionSale:
      return 'auction_sale';
    default:
      return 'auction_purchase';
  }
}

export const CONTRACT_SIDES = { seller: '卖方', buyer: '买方' } as const;
export type ContractSide = keyof typeof CONTRACT_SIDES;
/** Who breached, as the operator rules when voiding. */
export const BREACH_RULINGS = { seller: '卖方违约', buyer: '买方违约', none: '双方均无违约' } as const;
export type BreachRuling = keyof typeof BREACH_RULINGS;

export const WEIGHING_BASES = { seller: '以卖方（发货地）计量为准', buyer: '以买方（收货地）计量为准', third_party: '以第三方计量为准' } as const;
export const TESTING_BASES = { seller: '以卖方化验为准', buyer: '以买方化验为准', third_party: '以双方认可的第三方检验机构化验为准' } as const;
export const TRANSPORT_ARRANGERS = { seller: '卖方负责运输', buyer: '买方负责运输' } as const;

/** Default terms a new contract starts from (DESIGN.md §8): the system parameters may change them. */
export const CONTRACT_DEFAULTS = {
  quantityTolerancePct: 5,
  transitLossPct: 0.2,
  prepaymentPct: 100,
  paymentWorkingDays: 3,
  signWorkingDays: 1,
} as const;

/**
 * Quality price adjustments (质量价格调整), data on the contract: piecewise tiers for the calorific value, a
 * deduction per step of sulphur and ash above the basis, the rejection floor, and moisture above the pricing
 * moisture deducted from the weight. Settlement applies them; the contract text states them.
 */
export const QualityTierSchema = z.strictObject({
  /** kcal/kg, inclusive lower bound of the tier */
  from: z.number().int().min(1000).max(8000),
  /** kcal/kg, exclusive upper bound */
  to: z.number().int().min(1000).max(8000),
  /** 元/t (in fen) per 100 kcal away from the basis, added above and taken below */
  fenPer100Kcal: z.number().int().min(0).max(100_000),
});
/** A flat price change for Qnet,ar in [from, to) kcal/kg (fen per ton, negative = deduction). */
export const QualityFlatTierSchema = z.strictObject({
  from: z.number().int().min(0).max(8000),
  to: z.number().int().min(1000).max(8000),
  fen: z.number().int().min(-100_000).max(100_000),
});
/** Ad,d in [from, to) %: each 0.1 % above `from` takes fenPerStep per ton (tiers add up, like tax brackets). */
export const AdTierSchema = z.strictObject({
  from: z.number().min(0).max(60),
  to: z.number().min(0).max(100),
  fenPerStep: z.number().int().min(0).max(100_000),
});
export const QualityAdjustmentsSchema = z
  .strictObject({
    /** the contract's basis values (from the trade's quality indicators) */
    basisQnet: z.number().int().min(1000).max(8000),
    qnetTiers: z.array(QualityTierSchema).max(10),
    /** below this Qnet,ar the buyer may reject the goods */
    rejectBelowQnet: z.number().int().min(0).max(8000),
    basisSt: z.number().min(0).max(10),
    /** 元/t (in fen) deducted per 0.1 % of St,d above the basis */
    fenPerStStep: z.number().int().min(0).max(100_000),
    basisAd: z.number().min(0).max(60),
    /** 元/t (in fen) deducted per 1 % of Ad above the basis */
    fenPerAdStep: z.number().int().min(0).max(100_000),
    /** the pricing moisture: weight is deducted for Mt above it */
    pricingMt: z.number().min(0).max(60),
    /** flat amounts (negative: a deduction) added when Qnet,ar lies in a band, e.g. 4900–5000: −10 元/t */
    qnetFlatTiers: z.array(QualityFlatTierSchema).max(10).optional(),
    /** Ad bands priced per 0.1 % above each band's lower bound; when given they replace basisAd / fenPerAdStep */
    adTiers: z.array(AdTierSchema).max(10).optional(),
    /** true: a partial step counts in proportion (250 kcal = 2.5 steps); false or absent: whole steps only */
    prorate: z.boolean().optional(),
  })
  .superRefine((v, ctx) => {
    for (const [i, tier] of v.qnetTiers.entries()) {
      if (tier.from >= tier.to) ctx.addIssue({ code: 'custom', path: ['qnetTiers', i, 'to'], message: '发热量分档的上限须大于下限' });
    }
    for (const [i, tier] of (v.qnetFlatTiers ?? []).entries()) {
      if (tier.from >= tier.to) ctx.addIssue({ code: 'custom', path: ['qnetFlatTiers', i, 'to'], message: '发热量分档的上限须大于下限' });
    }
    for (const [i, tier] of (v.adTiers ?? []).entries()) {
      if (tier.from >= tier.to) ctx.addIssue({ code: 'custom', path: ['adTiers', i, 'to'], message: '灰分分档的上限须大于下限' });
    }
  });
export type QualityAdjustments = z.infer<typeof QualityAdjustmentsSchema>;

/** The terms either side may edit until the contract is effective (an edit clears a signature made). */
export const ContractTermsSchema = z.strictObject({
  quantityTolerancePct: z.number({ error: '溢短装比例须为数字' }).min(0, '溢短装比例不能为负').max(20, '溢短装比例不超过 20%'),
  transitLossPct: z.number({ error: '合理途损须为数字' }).min(0, '合理途损不能为负').max(5, '合理途损不超过 5%'),
  deliveryPlace: textField('交收地点', 100),
  deliveryDateStart: dayField('交收开始日期'),
  deliveryDateEnd: dayField('交收结束日期'),
  transportArranger: z.enum(['seller', 'buyer'], { error: '请选择运输责任方' }),
  weighingBasis: z.enum(['seller', 'buyer', 'third_party'], { error: '请选择计量依据' }),
  testingBasis: z.enum(['seller', 'buyer', 'third_party'], { error: '请选择化验依据' }),
  prepaymentPct: z.number({ error: '预付比例须为数字' }).int('预付比例须为整数').min(0, '预付比例不能为负').max(100, '预付比例不超过 100%'),
  paymentWorkingDays: z.number({ error: '付款期限须为数字' }).int('付款期限须为整数').min(1, '付款期限至少 1 个工作日').max(60, '付款期限不超过 60 个工作日'),
  qualityAdjustments: QualityAdjustmentsSchema,
  remark: safeString().trim().max(500, '补充约定不超过 500 字').default(''),
});
export type ContractTerms = z.infer<typeof ContractTermsSchema>;

export const ContractEditSchema = z
  .strictObject({ terms: ContractTermsSchema })
  .superRefine((v, ctx) => {
    if (v.terms.deliveryDateStart > v.terms.deliveryDateEnd) {
      ctx.addIssue({ code: 'custom', path: ['terms', 'deliveryDateEnd'], message: '交收结束日期不能早于开始日期' });
    }
  });

export const ContractQuerySchema = z.object({
  pageNo: z.coerce.number().int().min(1).max(100000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
  contractNo: safeString().trim().max(30).optional(),
  status: z.enum(Object.keys(CONTRACT_STATUS) as [ContractStatus, ...ContractStatus[]], { error: '合同状态不正确' }).optional(),
  /** 'submitted': contracts with a paper copy waiting for the operator's review */
  paper: z.enum(['submitted'], { error: '纸质合同筛选不正确' }).optional(),
  /** 'mine': contracts waiting for my side's signature (合同上传与签署) */
  scope: z.enum(['all', 'mine']).default('all'),
  counterparty: safeString().trim().max(60).optional(),
});
export type ContractQuery = z.infer<typeof ContractQuerySchema>;

export const ContractSummarySchema = z.object({
  id: z.number().int(),
  contractNo: z.string(),
  dealNo: z.string(),
  tradeNo: z.string(),
  tradeType: z.number().int(),
  kind: z.string(),
  /** the viewer's side; null for the trading centre */
  mySide: z.enum(['seller', 'buyer']).nullable(),
  sellerName: z.string(),
  buyerName: z.string(),
  productName: z.string(),
  quantity: z.number().int(),
  price: z.number().int(),
  amount: z.number().int(),
  status: z.string(),
  /** yyyy-MM-dd HH:mm:ss, Asia/Shanghai */
  signDeadline: z.string(),
  createdAt: z.string(),
  sellerSignedAt: z.string().nullable(),
  buyerSignedAt: z.string().nullable(),
  /** a paper contract waits for the operator */
  uploadPending: z.boolean(),
  /** the deadline was extended once already */
  extended: z.boolean(),
});
export type ContractSummary = z.infer<typeof ContractSummarySchema>;
export const ContractPageSchema = pageSchema(ContractSummarySchema);

export const ContractSignatureSchema = z.object({
  side: z.enum(['seller', 'buyer']),
  method: z.enum(['certificate', 'paper']),
  enterpriseName: z.string(),
  signerName: z.string(),
  signerUsername: z.string(),
  certificateSerial: z.string().nullable(),
  certificateSummary: z.string().nullable(),
  signedAt: z.string(),
});
export const ContractUploadSchema = z.object({
  id: z.number().int(),
  side: z.enum(['seller', 'buyer']),
  fileName: z.string(),
  /** path under {api}/api/common/static/ */
  url: z.string(),
  status: z.string(),
  submittedBy: z.string(),
  submittedAt: z.string(),
  reviewNote: z.string(),
  reviewedAt: z.string().nullable(),
});
export const ContractEventSchema = z.object({
  at: z.string(),
  action: z.string(),
  actorName: z.string(),
  note: z.string(),
});
export const ContractDetailSchema = ContractSummarySchema.extend({
  sellerCreditCode: z.string(),
  buyerCreditCode: z.string(),
  depositFen: z.number().int(),
  templateName: z.string(),
  templateVersion: z.number().int(),
  terms: ContractTermsSchema,
  /** the terms may still be edited (not yet effective, not voided) */
  editable: z.boolean(),
  /** What the viewer may do now (the contract policy's verdicts, grants included): the page shows exactly these buttons. */
  can: z.object({ sign: z.boolean(), uploadPaper: z.boolean(), editTerms: z.boolean(), reviewPaper: z.boolean(), void: z.boolean(), extend: z.boolean() }),
  /** the contract text as generated, paragraph by paragraph (for the page and for comparing a paper copy) */
  text: z.array(z.string()),
  /** path of the current PDF (the signed one once signed): GET {api}/api/contract/{id}/pdf */
  pdfSha256: z.string(),
  signatures: z.array(ContractSignatureSchema),
  uploads: z.array(ContractUploadSchema),
  events: z.array(ContractEventSchema),
  voidReason: z.string().nullable(),
  breachBy: z.string().nullable(),
});
export type ContractDetail = z.infer<typeof ContractDetailSchema>;

export const ContractSignCompleteSchema = z.strictObject({
  sessionId: z.string().uuid('签章会话编号无效'),
  signature: safeString().max(200, '签名值过长').regex(/^[A-Za-z0-9+/]+={0,2}$/, '签名值须为 Base64 编码'),
  ...PaymentAuthSchema,
});
export const ContractSignPrepareSchema = z.strictObject({
  deviceId: z.number({ error: '请选择签章使用的数字证书' }).int().positive('请选择签章使用的数字证书'),
  /** With the PayPassword switch on, signing asks the pay password in this first step (the key signs in the second). */
  payPassword: PaymentAuthSchema.payPassword,
});

export const ContractUploadReviewSchema = z.strictObject({
  accept: z.boolean({ error: '请选择确认或驳回' }),
  note: safeString().trim().max(200, '审核意见不超过 200 字').default(''),
});
export const ContractVoidSchema = z.strictObject({
  reason: textField('作废原因', 200),
  breachBy: z.enum(['seller', 'buyer', 'none'], { error: '请认定违约方' }),
});
export const ContractExtendSchema = z.strictObject({
  reason: textField('延期原因', 200),
  /** yyyy-MM-dd: the new deadline is the end of that day, Asia/Shanghai */
  until: dayField('新的签署截止日期'),
});

/** A contract template: the text with {{占位符}}; versioned, a contract keeps the version it was made from. */
export const ContractTemplateSchema = z.object({
  id: z.number().int(),
  kind: z.string(),
  name: z.string(),
  version: z.number().int(),
  body: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
});
export type ContractTemplate = z.infer<typeof ContractTemplateSchema>;
export const CONTRACT_TEMPLATE_MAX = 30_000;
export const ContractTemplateSaveSchema = z.strictObject({
  kind: z.enum(CONTRACT_KIND_KEYS as [ContractKind, ...ContractKind[]], { error: '请选择合同类型' }),
  name: textField('模板名称', 60),
  body: safeString({ error: '请输入模板正文' }).min(1, '请输入模板正文').max(CONTRACT_TEMPLATE_MAX, `模板正文不超过 ${CONTRACT_TEMPLATE_MAX} 字`),
});

const contractKindField = z.enum(CONTRACT_KIND_KEYS as [ContractKind, ...ContractKind[]], { error: '请选择合同类型' });
export const ContractTemplateKindQuerySchema = z.object({ kind: contractKindField });
export const ContractTemplateListSchema = z.array(ContractTemplateSchema);
/** A template body tried on the sample deal (模板配置's live preview); it need not be valid yet. */
export const ContractTemplatePreviewSchema = z.strictObject({
  kind: contractKindField,
  body: safeString().max(CONTRACT_TEMPLATE_MAX, `模板正文不超过 ${CONTRACT_TEMPLATE_MAX} 字`),
});
export const ContractTemplatePreviewResultSchema = z.object({
  /** the contract text, '# ' and '## ' markers kept; unknown placeholders left as written */
  paragraphs: z.array(z.string()),
  /** names the generator cannot fill (an unclosed '{{' as the fragment itself) */
  unknown: z.array(z.string()),
});
export type ContractTemplatePreviewResult = z.infer<typeof ContractTemplatePreviewResultSchema>;
export const ContractPlaceholderSchema = z.object({ key: z.string(), label: z.string(), group: z.string(), block: z.boolean() });
export const ContractPlaceholderListSchema = z.array(ContractPlaceholderSchema);
export type ContractPlaceholderInfo = z.infer<typeof ContractPlaceholderSchema>;

/** My side's paper copies across contracts (合同上传与签署), newest first. */
export const MyPaperCopySchema = z.object({
  id: z.number().int(),
  contractId: z.number().int(),
  contractNo: z.string(),
  counterparty: z.string(),
  side: z.enum(['seller', 'buyer']),
  fileName: z.string(),
  status: z.string(),
  submittedBy: z.string(),
  submittedAt: z.string(),
  reviewNote: z.string(),
  reviewedAt: z.string().nullable(),
});
export type MyPaperCopy = z.infer<typeof MyPaperCopySchema>;
export const MyPaperCopyPageSchema = pageSchema(MyPaperCopySchema);
