import dayjs, { type Dayjs } from 'dayjs';

/** Shanghai wall-clock texts of the forms' pickers: times of day and plain dates. */
export const WALL = 'YYYY-MM-DD HH:mm:ss';
export const DAY = 'YYYY-MM-DD';

export type DayjsPair = [Dayjs | null, Dayjs | null] | null | undefined;

/** One picked value as text in `format`; undefined when empty. */
export function pickedText(value: Dayjs | null | undefined, format: string): string | undefined {
  return value ? dayjs(value).format(format) : undefined;
}

/** A range picker's pair as two texts in `format`. */
export function pairTexts(pair: DayjsPair, format: string): [string | undefined, string | undefined] {
  return [pickedText(pair?.[0], format), pickedText(pair?.[1], format)];
}

/** Two saved texts as a range picker's pair; null unless both are set. */
export function textPair(start: string | undefined, end: string | undefined): [Dayjs, Dayjs] | null {
  return start && end ? [dayjs(start), dayjs(end)] : null;
}

/** Days before today cannot be picked. */
export const beforeToday = (day: Dayjs) => day.isBefore(dayjs(), 'day');
