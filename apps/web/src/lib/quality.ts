import { QUALITY_FIELDS } from '@coalx/shared';

type QualityKey = keyof typeof QUALITY_FIELDS;

/** '5500 kcal/kg · Mt 12% · St,d 0.8%' — the short quality line of tables. */
export function qualityBrief(quality: Record<string, number | null | undefined> | null | undefined): string {
  if (!quality) return '-';
  const parts: string[] = [];
  if (quality.qnet != null) parts.push(`${quality.qnet} kcal/kg`);
  if (quality.st != null) parts.push(`St,d ${quality.st}%`);
  if (quality.ad != null) parts.push(`Ad ${quality.ad}%`);
  return parts.length ? parts.join(' · ') : '-';
}

/** Every indicator with its label and unit, for detail pages. */
export function qualityItems(quality: Record<string, number | null | undefined> | null | undefined) {
  return (Object.keys(QUALITY_FIELDS) as QualityKey[]).map((key) => ({
    key,
    label: QUALITY_FIELDS[key].label,
    value: quality?.[key] != null ? `${quality[key]} ${QUALITY_FIELDS[key].unit}` : '-',
  }));
}
