/**
 * Display rules of spec §5, used by the web and by the server's exports and PDFs.
 * Money arrives as integer fen, quantities as integer kilograms (DESIGN.md §4).
 */
const SHANGHAI_OFFSET_MS = 8 * 3600 * 1000;

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Integer fen → '1,234.56'. Pure integer arithmetic so no float ever rounds a fen. */
export function formatFen(fen: number | bigint | string | null | undefined): string {
  if (fen === null || fen === undefined || fen === '') return '-';
  const value = BigInt(fen);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const yuan = groupThousands((abs / 100n).toString());
  const cents = (abs % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${yuan}.${cents}`;
}

/** Price in fen per ton → '1,234.56 元/吨'. */
export function formatPrice(fenPerTon: number | bigint | string | null | undefined): string {
  const text = formatFen(fenPerTon);
  return text === '-' ? text : `${text} 元/吨`;
}

/** Integer kilograms → '20,000.00 吨' (tons with 2 decimals, half up). */
export function formatTons(kg: number | bigint | string | null | undefined, withUnit = true): string {
  if (kg === null || kg === undefined || kg === '') return '-';
  const value = BigInt(kg);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const hundredths = (abs + 5n) / 10n; // kg → 1/100 t, rounded half up
  const text = `${negative ? '-' : ''}${groupThousands((hundredths / 100n).toString())}.${(hundredths % 100n).toString().padStart(2, '0')}`;
  return withUnit ? `${text} 吨` : text;
}

/** Cuts a text to `max` characters with an ellipsis (spec §5: 16 default, 14 names, 40 announcement titles). */
export const ELLIPSIS = { default: 16, name: 14, announcementTitle: 40 } as const;
export function ellipsis(text: string | null | undefined, max: number = ELLIPSIS.default): string {
  if (!text) return '';
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max).join('')}...` : text;
}

/** A time shown in Asia/Shanghai as YYYY-MM-DD HH:mm:ss, whatever the viewer's own zone. */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '-';
  const time = new Date(value).getTime();
  if (Number.isNaN(time)) return '-';
  const d = new Date(time + SHANGHAI_OFFSET_MS);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** Masks a counterparty name for public result notices: keeps the first 2 and last 2 characters. */
export function maskName(name: string): string {
  const chars = Array.from(name);
  if (chars.length <= 4) return `${chars[0] ?? ''}**`;
  return `${chars.slice(0, 2).join('')}${'*'.repeat(Math.min(chars.length - 4, 6))}${chars.slice(-2).join('')}`;
}
