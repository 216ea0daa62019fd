import { describe, expect, it } from 'vitest';
import { nextTerm } from './term';

describe('nextTerm', () => {
  it('follows the latest term and wraps after week 52', () => {
    expect(nextTerm({ currentYear: 2026, currentTerm: 46 })).toEqual({ year: 2026, term: 47 });
    expect(nextTerm({ currentYear: 2026, currentTerm: 52 })).toEqual({ year: 2027, term: 1 });
    expect(nextTerm(null, new Date('2026-03-01T00:00:00Z'))).toEqual({ year: 2026, term: 1 });
  });
});
