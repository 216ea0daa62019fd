import { Grid } from 'antd';

/** antd's sm breakpoint: narrower than this is a phone. */
const WIDER_THAN_PHONE = '(min-width: 576px)';

/**
 * True on a phone (narrower than antd's sm breakpoint, 576 px). antd measures after the first render: until then
 * the browser is asked directly, so a phone never renders the desktop layout first.
 */
export function usePhone(): boolean {
  const screens = Grid.useBreakpoint();
  if (screens.sm !== undefined) return !screens.sm;
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? !window.matchMedia(WIDER_THAN_PHONE).matches : false;
}
