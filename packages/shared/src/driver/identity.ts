/**
 * A driver's ID card number as others see it (a dispatch note, the counterparty's truck list): the first four and
 * the last four characters, e.g. 1401**********1234. Only the transporting enterprise and the trading centre see
 * it whole.
 */
export function maskIdCard(idCardNo: string): string {
  if (idCardNo.length <= 8) return '*'.repeat(idCardNo.length);
  return `${idCardNo.slice(0, 4)}${'*'.repeat(idCardNo.length - 8)}${idCardNo.slice(-4)}`;
}

/** A driver as a weighbridge clerk with the QR pass sees them: 张*, 王** (the surname and one star a character). */
export function maskPersonName(name: string): string {
  const chars = Array.from(name);
  return chars.length <= 1 ? '*' : `${chars[0]}${'*'.repeat(chars.length - 1)}`;
}

/** A mobile number with its middle four hidden: 138****5678. */
export function maskMobile(mobile: string): string {
  return mobile.length < 8 ? '*'.repeat(mobile.length) : `${mobile.slice(0, 3)}${'*'.repeat(mobile.length - 7)}${mobile.slice(-4)}`;
}

/** GB 11643-1999: weights of the first 17 digits, and the check character for the sum mod 11. */
const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK_CHARS = '10X98765432';

/** The check character (0-9 or X) of the first 17 digits of a 居民身份证号. */
export function idCardCheckChar(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * ID_WEIGHTS[i]!;
  return ID_CHECK_CHARS[sum % 11]!;
}

/**
 * Why an ID card number is wrong, in the words the form shows, or null when it is right: 18 characters, 17 digits
 * then the check character, a region code and a real birth date (not in the future). Upper-case X expected.
 */
export function idCardProblem(value: string, today: Date = new Date()): string | null {
  if (value.length !== 18) return '身份证号码须为 18 位';
  if (!/^\d{17}[\dX]$/.test(value)) return '身份证号码须为 17 位数字加 1 位数字或 X';
  if (!/^[1-9]\d{5}/.test(value)) return '身份证号码的地区码不正确';
  const year = Number(value.slice(6, 10));
  const month = Number(value.slice(10, 12));
  const day = Number(value.slice(12, 14));
  const birth = new Date(Date.UTC(year, month - 1, day));
  const realDate = year >= 1900 && birth.getUTCFullYear() === year && birth.getUTCMonth() === month - 1 && birth.getUTCDate() === day;
  if (!realDate || birth.getTime() > today.getTime()) return '身份证号码中的出生日期不正确';
  if (idCardCheckChar(value) !== value[17]) return '身份证号码校验位不正确';
  return null;
}

/** A plate as typed (晋b·12345, 晋B 12345) in the stored form: upper case, without spaces or the middle dot. */
export function normalizePlate(value: string): string {
  return value.replace(/[\s·•.\-]/g, '').toUpperCase();
}

const PROVINCES = '京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼';
// letters on plates: A-Z without I and O
const L = 'A-HJ-NP-Z';
const PLATE_PATTERNS = [
  // 晋B12345; a trailer 蒙K1234挂
  new RegExp(`^[${PROVINCES}][${L}][${L}0-9]{5}$`),
  new RegExp(`^[${PROVINCES}][${L}][${L}0-9]{4}挂$`),
  // new-energy: small cars 晋BD12345 (D electric, F hybrid), large vehicles 晋B12345D
  new RegExp(`^[${PROVINCES}][${L}][DF][${L}0-9]{5}$`),
  new RegExp(`^[${PROVINCES}][${L}]\\d{5}[DF]$`),
];

/** Why a (normalised) plate is wrong, or null when it is a mainland plate of 7 or 8 (new-energy) characters. */
export function plateProblem(plate: string): string | null {
  if (plate.length !== 7 && plate.length !== 8) return '车牌号须为 7 位（新能源车 8 位），如 晋B12345';
  if (!PROVINCES.includes(plate[0]!)) return '车牌号首字须为省份简称，如 晋、蒙、冀';
  if (!PLATE_PATTERNS.some((p) => p.test(plate))) return '车牌号格式不正确，如 晋B12345、晋BD12345、蒙K1234挂';
  return null;
}
