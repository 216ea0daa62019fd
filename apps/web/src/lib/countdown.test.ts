import { describe, expect, it } from 'vitest';
import { countdownText, formatCountdown } from './countdown';

describe('countdown texts', () => {
  it('formats whole seconds rounded up, so 0 shows only when it is over', () => {
    expect(formatCountdown(0)).toBe('00:00');
    expect(formatCountdown(1)).toBe('00:01');
    expect(formatCountdown(59_001)).toBe('01:00');
    expect(formatCountdown(3_600_000)).toBe('01:00:00');
    expect(formatCountdown(-5)).toBe('00:00');
  });

  it('puts whole days before the clock and dashes when there is no deadline', () => {
    expect(countdownText(null)).toBe('--:--');
    expect(countdownText(2 * 86_400_000 + 61_000)).toBe('2 天 01:01');
    expect(countdownText(59_000)).toBe('00:59');
  });
});
