import { describe, expect, it } from 'vitest';
import { headerLinks } from '.';

describe('header links (spec §2 Header, §6)', () => {
  it('a visitor sees home, login and register', () => {
    expect(headerLinks(false, false)).toEqual({ home: true, workspace: false, login: true, register: true });
  });
  it('a signed-in user sees home and the workbench', () => {
    expect(headerLinks(true, false)).toEqual({ home: true, workspace: true, login: false, register: false });
  });
  it('a first login sees neither home nor the workbench', () => {
    expect(headerLinks(true, true)).toEqual({ home: false, workspace: false, login: false, register: false });
  });
});
