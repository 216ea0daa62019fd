import { describe, expect, it } from 'vitest';
import { clampZoom } from './zoom';

describe('PDF zoom', () => {
  it('stays between 50% and 300% on quarter steps', () => {
    expect(clampZoom(0.25)).toBe(0.5);
    expect(clampZoom(1.25)).toBe(1.25);
    expect(clampZoom(1.3)).toBe(1.25);
    expect(clampZoom(9)).toBe(3);
  });
});
