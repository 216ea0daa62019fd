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
}
