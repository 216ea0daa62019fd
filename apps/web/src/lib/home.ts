import {
  AUCTION_STATE_LABELS,
  AuctionState,
  formatFen,
  HANG_STATE_LABELS,
  HangState,
  isListing,
  RECOMMEND_QUICK_FILTERS,
  VIEW_MORE_THRESHOLD,
  type ContentType,
} from '@coalx/shared';
import { AUCTION_TYPE_TEXT, auctionButtonPath, auctionRowButtons } from '@/lib/auction';
import { TRADE_TYPE_TEXT as LISTING_TYPE_TEXT, listingButtonPath, listingButtons } from '@/lib/listing';

/** The home page's rules, free of React so they are tested alone. */

export type QuickFilterKey = (typeof RECOMMEND_QUICK_FILTERS)[number]['key'];

/** Request fields of a quick filter (spec §2): today = day offset 0; 'ended' = hang_state_total_select 2. */
export function quickFilterParams(key: QuickFilterKey): { preDayNum?: number; tradeType?: string; hangState?: number } {
  const filter = RECOMMEND_QUICK_FILTERS.find((f) => f.key === key) ?? RECOMMEND_QUICK_FILTERS[0];
  return { ...filter.params };
}

/** 'View more' appears only when the total exceeds the threshold (spec §9: 10). */
export function showViewMore(total: number | null | undefined): boolean {
  return (total ?? 0) > VIEW_MORE_THRESHOLD;
}

export function moreAnnouncementsPath(type: ContentType): string {
  return `/moreAnnouncements?type=${encodeURIComponent(type)}`;
}

/** pdfDetails address of an attachment (opened in a new tab). */
export function pdfDetailsPath(enclosure: string, title?: string): string {
  const q = new URLSearchParams({ enclosure });
  if (title) q.set('title', title);
  return `/pdfDetails?${q.toString()}`;
}

/** Index price, fen per ton → '1,234.56' (the unit 元/吨 is set beside it). */
export function indexPriceText(fen: number): string {
  return formatFen(fen);
}

/** Index change (spec §5): red with '+' when rising, green when falling, plain when unchanged. */
export function indexRise(rise: number): { text: string; tone: 'up' | 'down' | 'flat' } {
  if (rise > 0) return { text: `+${formatFen(rise)}`, tone: 'up' };
  if (rise < 0) return { text: formatFen(rise), tone: 'down' };
  return { text: formatFen(0), tone: 'flat' };
}

/** Change in percent of the previous price ('+1.23%'); '' when there is no previous price. */
export function indexRisePercent(price: number, rise: number): string {
  const previous = price - rise;
  if (previous <= 0) return '';
  const basisPoints = Math.round((rise * 10000) / previous);
  const sign = basisPoints > 0 ? '+' : basisPoints < 0 ? '-' : '';
  const abs = Math.abs(basisPoints);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}%`;
}

export interface RowButton {
  key: string;
  label: string;
  disabled: boolean;
  primary: boolean;
  path: string;
}

/**
 * Per-row buttons of the recommended list by state (spec §4). Listings (0/1): 1 → 摘牌 + 查看详情, 结果公告 disabled;
 * 2 → 结果公告, 查看详情 disabled. Auctions (2/3): 0 → 参与竞价 (enrolment) + 查看详情, 结果公告 disabled; 1 → 查看竞价
 * (waiting); 2 → 参与竞价 (bidding room); 3 → 结果公告, 查看详情 disabled.
 */
export function recommendButtons(tradeType: number, hangState: number, tradeId: string): RowButton[] {
  if (isListing(tradeType)) {
    return listingButtons(hangState).map((b) => ({
      key: b.key,
      label: b.label,
      disabled: b.disabled,
      primary: b.key === 'subscribe' || (hangState === HangState.ended && b.key === 'result'),
      path: listingButtonPath(b.key, tradeId),
    }));
  }
  return auctionRowButtons(hangState).map((b) => ({
    key: b.key,
    label: b.label,
    disabled: b.disabled,
    primary: b.highlight || (hangState === AuctionState.ended && b.key === 'result'),
    path: auctionButtonPath(b.key, tradeId),
  }));
}

export const TRADE_TYPE_TEXT: Record<number, string> = { ...LISTING_TYPE_TEXT, ...AUCTION_TYPE_TEXT };

/** hang_state_total_select text of a record's raw state: listing 1/2, auction 0–3. */
export function recommendStateText(tradeType: number, hangState: number): string {
  const labels: Record<number, string> = isListing(tradeType) ? HANG_STATE_LABELS : AUCTION_STATE_LABELS;
  return labels[hangState] ?? '-';
}

export interface RecommendSearchForm {
  tradeId?: string;
  tradeType?: string[];
  productName?: string;
  category?: string;
  hangState?: string[];
  quick?: QuickFilterKey;
}

/** The search form's fields → the recommend/list body: multi-selects become comma lists, blanks are dropped. */
export function recommendSearchParams(form: RecommendSearchForm, quick: QuickFilterKey) {
  const base = quickFilterParams(quick);
  return {
    ...base,
    tradeId: form.tradeId?.trim() || undefined,
    tradeType: form.tradeType?.length ? form.tradeType.join(',') : base.tradeType,
    productName: form.productName?.trim() || undefined,
    category: form.category || undefined,
    hangState: form.hangState?.length ? form.hangState.join(',') : base.hangState,
  };
}

