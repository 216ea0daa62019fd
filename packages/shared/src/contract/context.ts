import type { ContractKind, ContractTerms } from './schemas';

/** One party of a contract as the text names it (from the enterprise's registered data). */
export interface ContractParty {
  name: string;
  creditCode: string;
  legalRepresentative: string;
  address: string;
  phone: string;
  bankName: string;
  bankAccount: string;
}

/**
 * Everything a contract's text is made from: the deal, both parties, the trade's goods and delivery, and the
 * editable terms. The server builds it from the database; the template page builds a sample one for the preview.
 * The placeholders of a template (./template.ts) are computed from this and nothing else.
 */
export interface ContractContext {
  kind: ContractKind;
  contractNo: string;
  dealNo: string;
  tradeNo: string;
  tradeType: number;
  /** when the deal was made: ISO instant */
  dealAt: string;
  /** signing deadline: ISO instant */
  signDeadline: string;
  seller: ContractParty;
  buyer: ContractParty;
  productName: string;
  stockCode: string;
  /** the trade's quality indicators (QUALITY_FIELDS keys) */
  quality: { qnet?: number | null; mt?: number | null; st?: number | null; ad?: number | null; vdaf?: number | null; ashFusion?: number | null };
  quantityKg: number;
  priceFen: number;
  amountFen: number;
  /** PRICE_TYPES key */
  priceType: string;
  /** TRANSPORTS key */
  transport: string;
  /** performance deposit (履约保证金) in fen */
  depositFen: number;
  terms: ContractTerms;
  /** auction deals only: the final hash of the public bid log (公开出价记录), which anyone can recompute */
  bidLogHash?: string | null;
  /** long-term deals only: the framework's period, plan and pricing, or the call-off's month and price basis */
  longTerm?: ContractLongTerm;
}

/** What a long-term contract's text says beyond a spot contract's (DESIGN.md §8 "Long-term deals"). */
export interface ContractLongTerm {
  /** 长协编号 (CX…) */
  longTermNo: string;
  /** YYYY-MM */
  periodStart: string;
  periodEnd: string;
  /** the framework: every month's planned quantity */
  months?: { month: string; plannedKg: number }[];
  /** the framework: 定价条款, one paragraph per line */
  pricingClauses?: string[];
  /** a monthly contract: the framework contract it executes, its month and how its price was fixed */
  frameworkContractNo?: string;
  month?: string;
  priceBasis?: string;
}
