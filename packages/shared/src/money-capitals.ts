/**
 * An amount in Chinese financial capitals (大写金额), as contracts, cheques and invoices write it (the rules of the
 * People's Bank of China for filling in payment vouchers):
 * - the yuan part is read in sections of four digits (个, 万, 亿, 万亿); zeros at the end of a section are not
 *   written, zeros at the start or inside a section (and whole zero sections) are written as a single 零;
 * - 拾 is always preceded by its digit (壹拾元, not 拾元);
 * - an amount ending at 元 takes 整; one ending at 角 or 分 does not;
 * - 零 is written between 元 and 分 when there are no 角 (壹元零伍分); the optional 零 after a yuan part ending in
 *   zeros and before 角 is left out (壹拾元伍角), which the rules allow.
 */
const DIGITS = ['零', '壹', '贰', '叁', '肆', '伍', '陆', '柒', '捌', '玖'] as const;
const IN_SECTION = ['', '拾', '佰', '仟'] as const;
const SECTIONS = ['', '万', '亿', '万亿'] as const;
/** 10^16 yuan in fen: no amount on a coal platform comes near it. */
const LIMIT_FEN = 10n ** 18n;

/** One section (0 < value < 10000) without its leading zeros or trailing zeros. */
function sectionText(value: number): string {
  let text = '';
  let zeroPending = false;
  for (let place = 3; place >= 0; place--) {
    const digit = Math.floor(value / 10 ** place) % 10;
    if (digit === 0) {
      if (text) zeroPending = true;
      continue;
    }
    if (zeroPending) text += '零';
    zeroPending = false;
    text += DIGITS[digit]! + IN_SECTION[place]!;
  }
  return text;
}

function yuanText(yuan: bigint): string {
  const sections: number[] = [];
  for (let rest = yuan; rest > 0n; rest /= 10000n) sections.push(Number(rest % 10000n));
  let text = '';
  let zeroPending = false;
  for (let i = sections.length - 1; i >= 0; i--) {
    const value = sections[i]!;
    if (value === 0) {
      if (text) zeroPending = true;
      continue;
    }
    // a section that does not fill its four digits (after a higher one) starts with a zero
    if (text && (zeroPending || value < 1000)) text += '零';
    zeroPending = false;
    text += sectionText(value) + SECTIONS[i];
  }
  return text;
}

/** Integer fen → '壹拾万零壹拾元伍角'. Throws on a negative, fractional or absurdly large amount. */
export function fenToCapitals(fen: number | bigint): string {
  if (typeof fen === 'number' && !Number.isSafeInteger(fen)) throw new RangeError(`金额须为整数分：${fen}`);
  const value = BigInt(fen);
  if (value < 0n) throw new RangeError('大写金额不支持负数');
  if (value >= LIMIT_FEN) throw new RangeError('金额过大，无法转换为大写');
  const yuan = value / 100n;
  const jiao = Number((value / 10n) % 10n);
  const cents = Number(value % 10n);
  if (value === 0n) return '零元整';
  let text = yuan > 0n ? `${yuanText(yuan)}元` : '';
  if (jiao === 0 && cents === 0) return `${text}整`;
  if (jiao > 0) text += `${DIGITS[jiao]}角`;
  else if (yuan > 0n) text += '零';
  if (cents > 0) text += `${DIGITS[cents]}分`;
  return text;
}
