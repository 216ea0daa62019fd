import { describe, expect, it } from 'vitest';
import { headerLinks } from '.';

describe('header links (spec §2 Header, §6)', () => {
  it('a visitor sees home, login and register', () => {
    expect(headerLinks(false, false)).toEqual({ home: true, market: true, workspace: false, login: true, register: true, messages: false });
  });
  it('a signed-in user sees home, the workbench and the message bell', () => {
    expect(headerLinks(true, false)).toEqual({ home: true, market: true, workspace: true, login: false, register: false, messages: true });
  });
  it('a first login sees neither home nor the workbench nor the bell', () => {
    expect(headerLinks(true, true)).toEqual({ home: false, market: false, workspace: false, login: false, register: false, messages: false });
  });
});
