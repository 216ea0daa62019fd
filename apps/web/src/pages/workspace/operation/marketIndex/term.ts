/** The term after the latest published one (52 weekly terms a year, 53 in a long ISO year). */
export function nextTerm(latest: { currentYear: number; currentTerm: number } | null | undefined, today = new Date()): { year: number; term: number } {
  if (!latest) return { year: today.getFullYear(), term: 1 };
  if (latest.currentTerm >= 52) return { year: latest.currentYear + 1, term: 1 };
  return { year: latest.currentYear, term: latest.currentTerm + 1 };
}
