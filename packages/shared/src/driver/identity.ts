/**
 * A driver's ID card number as others see it (a dispatch note, the counterparty's truck list): the first four and
 * the last four characters, e.g. 1401**********1234. Only the transporting enterprise and the trading centre see
 * it whole.
 */
export function maskIdCard(idCardNo: string): string {
  if (idCardNo.length <= 8) return '*'.repeat(idCardNo.length);
  return `${idCardNo.slice(0, 4)}${'*'.repeat(idCardNo.length - 8)}${idCardNo.slice(-4)}`;
}
