import { describe, expect, it } from 'vitest';
import { applyTabAction, closeAll, closeLeft, closeRight, closeTab, MAX_TABS, openTab, TAB_MESSAGES, type TabsState } from './tabs';

const tab = (key: string) => ({ key, title: key.slice(1), fullPath: key });
const state = (keys: string[], activeKey: string): TabsState => ({ tabs: keys.map(tab), activeKey });
const keys = (s: TabsState) => s.tabs.map((t) => t.key);

describe('tab bar', () => {
  it('messages are the specification texts', () => {
    expect(TAB_MESSAGES).toEqual({ last: '这是最后一个标签了, 无法被关闭', noLeft: '左侧没有标签', noRight: '右侧没有标签' });
  });

  it('opens a tab once per page and makes it active', () => {
    let s = state([], '');
    s = openTab(s, tab('/a'));
    s = openTab(s, tab('/b'));
    s = openTab(s, { ...tab('/a'), fullPath: '/a?x=1' });
    expect(keys(s)).toEqual(['/a', '/b']);
    expect(s.activeKey).toBe('/a');
    expect(s.tabs[0]!.fullPath).toBe('/a?x=1');
  });

  it('keeps at most 20 tabs, closing the oldest one that is not being shown', () => {
    let s = state([], '');
    for (let i = 1; i <= 31; i++) s = openTab(s, tab(`/p${i}`));
    expect(MAX_TABS).toBe(20);
    expect(s.tabs).toHaveLength(20);
    expect(keys(s)[0]).toBe('/p12');
    expect(s.activeKey).toBe('/p31');
    // coming back to an open tab closes nothing
    s = openTab(s, tab('/p12'));
    expect(s.tabs).toHaveLength(20);
    expect(s.activeKey).toBe('/p12');
    // the next new page closes the oldest tab, but not /p12, the page the user just left
    s = openTab(s, tab('/p32'));
    expect(keys(s)).not.toContain('/p13');
    expect(keys(s)).toContain('/p12');
    expect(keys(s)).toContain('/p32');
  });

  it('closing the last tab is refused with its message', () => {
    const r = closeTab(state(['/a'], '/a'), '/a');
    expect(r.warning).toBe('这是最后一个标签了, 无法被关闭');
    expect(keys(r)).toEqual(['/a']);
  });

  it('closing the active tab activates its right neighbour, or the left one at the end', () => {
    expect(closeTab(state(['/a', '/b', '/c'], '/b'), '/b')).toEqual({ ...state(['/a', '/c'], '/c') });
    expect(closeTab(state(['/a', '/b', '/c'], '/c'), '/c').activeKey).toBe('/b');
  });

  it('closing another tab keeps the active one', () => {
    const r = closeTab(state(['/a', '/b', '/c'], '/c'), '/a');
    expect(keys(r)).toEqual(['/b', '/c']);
    expect(r.activeKey).toBe('/c');
    expect(r.warning).toBeUndefined();
  });

  it('close left: nothing on the left of the first tab', () => {
    const r = closeLeft(state(['/a', '/b'], '/b'), '/a');
    expect(r.warning).toBe('左侧没有标签');
    expect(keys(r)).toEqual(['/a', '/b']);
  });

  it('close left removes the tabs on the left; the clicked tab becomes active if the active one went', () => {
    const r = closeLeft(state(['/a', '/b', '/c', '/d'], '/a'), '/c');
    expect(keys(r)).toEqual(['/c', '/d']);
    expect(r.activeKey).toBe('/c');
    expect(closeLeft(state(['/a', '/b', '/c', '/d'], '/d'), '/c').activeKey).toBe('/d');
  });

  it('close right: nothing on the right of the last tab', () => {
    const r = closeRight(state(['/a', '/b'], '/a'), '/b');
    expect(r.warning).toBe('右侧没有标签');
    expect(keys(r)).toEqual(['/a', '/b']);
  });

  it('close right removes the tabs on the right', () => {
    const r = closeRight(state(['/a', '/b', '/c', '/d'], '/d'), '/b');
    expect(keys(r)).toEqual(['/a', '/b']);
    expect(r.activeKey).toBe('/b');
  });

  it('close all keeps only the clicked tab; with one tab it is refused', () => {
    const r = closeAll(state(['/a', '/b', '/c'], '/a'), '/b');
    expect(keys(r)).toEqual(['/b']);
    expect(r.activeKey).toBe('/b');
    expect(closeAll(state(['/a'], '/a'), '/a').warning).toBe(TAB_MESSAGES.last);
  });

  it('menu actions map to the close functions', () => {
    const s = state(['/a', '/b', '/c'], '/b');
    expect(applyTabAction(s, 'closeThat', '/b')).toEqual(closeTab(s, '/b'));
    expect(applyTabAction(s, 'closeLeft', '/a').warning).toBe(TAB_MESSAGES.noLeft);
    expect(applyTabAction(s, 'closeRight', '/c').warning).toBe(TAB_MESSAGES.noRight);
    expect(keys(applyTabAction(s, 'closeAll', '/c'))).toEqual(['/c']);
  });
});
