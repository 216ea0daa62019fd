/**
 * Contract text for generated deals without rendering 47,000 templates in JavaScript: each template (kind ×
 * product × transport) is rendered once by the platform's own renderContractText with marked values, the marked
 * values are turned into tokens, and SQL replaces the tokens with each contract's own (scale-sql.ts formats them as
 * the template functions do). Amounts in Chinese capitals come from a lookup the generator fills with fenToCapitals.
 */
import { defaultContractTerms, formatContractTons, formatDateTime, formatFen, fenToCapitals, renderContractText, type ContractContext, type ContractKind } from '@coalx/shared';

/** The values a contract's text is made of, each replaced by SQL (the names are the SQL columns' keys). */
export const TEXT_TOKENS = [
  'contractNo', 'dealNo', 'tradeNo', 'dealDate', 'signDeadline', 'bidLogHash', 'deliveryPlace', 'deliveryDates',
  'sellerName', 'sellerCreditCode', 'sellerLegal', 'sellerAddress', 'sellerPhone', 'sellerBank', 'sellerAccount',
  'buyerName', 'buyerCreditCode', 'buyerLegal', 'buyerAddress', 'buyerPhone', 'buyerBank', 'buyerAccount',
  'quantity', 'price', 'amount', 'amountCapitals', 'deposit', 'depositCapitals',
] as const;
export type TextToken = (typeof TEXT_TOKENS)[number];

export const token = (name: TextToken) => `⟪${name}⟫`;

// marked values that cannot occur in a real contract, and how the template writes them
const MARK = {
  dealAt: '2099-01-02T04:00:00.000Z',
  signDeadline: '2098-03-04T05:06:07.000Z',
  deliveryStart: '2097-05-06',
  deliveryEnd: '2097-07-08',
  quantityKg: 987_654_321,
  priceFen: 1_234_567,
  amountFen: 8_765_432_109,
  depositFen: 5_432_109_876,
};

export interface TextVariant {
  kind: ContractKind;
  /** the product's stock code and indicators */
  stockCode: string;
  productName: string;
  quality: ContractContext['quality'];
  priceType: string;
  transport: string;
}

/** The variant's text as a JSON array of paragraphs, with tokens where each contract's values go. */
export function tokenizedContractText(body: string, v: TextVariant, tradeType: number): string {
  const party = (side: 'seller' | 'buyer') => ({
    name: token(`${side}Name`),
    creditCode: token(`${side}CreditCode`),
    legalRepresentative: token(`${side}Legal`),
    address: token(`${side}Address`),
    phone: token(`${side}Phone`),
    bankName: token(`${side}Bank`),
    bankAccount: token(`${side}Account`),
  });
  const ctx: ContractContext = {
    kind: v.kind,
    contractNo: token('contractNo'),
    dealNo: token('dealNo'),
    tradeNo: token('tradeNo'),
    tradeType,
    dealAt: MARK.dealAt,
    signDeadline: MARK.signDeadline,
    seller: party('seller'),
    buyer: party('buyer'),
    productName: v.productName,
    stockCode: v.stockCode,
    quality: v.quality,
    quantityKg: MARK.quantityKg,
    priceFen: MARK.priceFen,
    amountFen: MARK.amountFen,
    priceType: v.priceType,
    transport: v.transport,
    depositFen: MARK.depositFen,
    terms: defaultContractTerms({ priceType: v.priceType, deliveryPlace: token('deliveryPlace'), deliveryDateStart: MARK.deliveryStart, deliveryDateEnd: MARK.deliveryEnd, quality: v.quality }),
    bidLogHash: v.kind.startsWith('auction') ? token('bidLogHash') : null,
  };
  let text = JSON.stringify(renderContractText(body, ctx));
  const chinese = (day: string) => {
    const [y, m, d] = day.split('-');
    return `${y}年${Number(m)}月${Number(d)}日`;
  };
  // longest first: a capital amount or a date range contains shorter marked texts
  const replacements: [string, TextToken][] = [
    [`${chinese(MARK.deliveryStart)}至${chinese(MARK.deliveryEnd)}`, 'deliveryDates'],
    [fenToCapitals(MARK.amountFen), 'amountCapitals'],
    [fenToCapitals(MARK.depositFen), 'depositCapitals'],
    [formatDateTime(MARK.signDeadline), 'signDeadline'],
    [chinese(formatDateTime(MARK.dealAt).slice(0, 10)), 'dealDate'],
    [formatContractTons(MARK.quantityKg), 'quantity'],
    [formatFen(MARK.amountFen), 'amount'],
    [formatFen(MARK.depositFen), 'deposit'],
    [formatFen(MARK.priceFen), 'price'],
  ];
  for (const [marked, name] of replacements) text = text.replaceAll(marked, token(name));
  return text;
}
