/** Multi-tab bar of the workspace (spec §2): pure functions so the close rules are tested without a browser. */

export const TAB_MESSAGES = {
  last: '这是最后一个标签了, 无法被关闭',
  noLeft: '左侧没有标签',
  noRight: '右侧没有标签',
} as const;

export interface TabItem {
  /** The page's pathname. */
  key: string;
  title: string;
  /** Pathname with query, to come back to the same view. */
  fullPath: string;
}

export interface TabsState {
  tabs: TabItem[];
  activeKey: string;
}

export interface TabsResult extends TabsState {
  /** Shown with message.warning when nothing could be closed. */
  warning?: string;
}

/** At most this many tabs stay open: a day of work would otherwise grow the bar without end. */
export const MAX_TABS = 20;

/**
 * Opens (or updates) the tab of the page being shown and makes it active. A new tab beyond MAX_TABS closes the
 * oldest one (tabs are kept in the order they were opened), never the page being shown nor the one just left.
 */
export function openTab(state: TabsState, tab: TabItem): TabsState {
  const index = state.tabs.findIndex((t) => t.key === tab.key);
  let tabs = index < 0 ? [...state.tabs, tab] : state.tabs.map((t, i) => (i === index ? tab : t));
  while (tabs.length > MAX_TABS) {
    const oldest = tabs.findIndex((t) => t.key !== tab.key && t.key !== state.activeKey);
    tabs = tabs.filter((_, i) => i !== oldest);
  }
  return { tabs, activeKey: tab.key };
}

/** Closes one tab; the last one stays. Closing the active tab activates its right neighbour, else its left one. */
export function closeTab(state: TabsState, key: string): TabsResult {
  const index = state.tabs.findIndex((t) => t.key === key);
  if (index < 0) return state;
  if (state.tabs.length <= 1) return { ...state, warning: TAB_MESSAGES.last };
  const tabs = state.tabs.filter((t) => t.key !== key);
  if (state.activeKey !== key) return { tabs, activeKey: state.activeKey };
  const next = tabs[Math.min(index, tabs.length - 1)]!;
  return { tabs, activeKey: next.key };
}

/** Closes the tabs left of `key`; if the active tab went with them, `key` becomes active. */
export function closeLeft(state: TabsState, key: string): TabsResult {
  const index = state.tabs.findIndex((t) => t.key === key);
  if (index < 0) return state;
  if (index === 0) return { ...state, warning: TAB_MESSAGES.noLeft };
  const tabs = state.tabs.slice(index);
  return { tabs, activeKey: keepActive(tabs, state.activeKey, key) };
}

/** Closes the tabs right of `key`; if the active tab went with them, `key` becomes active. */
export function closeRight(state: TabsState, key: string): TabsResult {
  const index = state.tabs.findIndex((t) => t.key === key);
  if (index < 0) return state;
  if (index === state.tabs.length - 1) return { ...state, warning: TAB_MESSAGES.noRight };
  const tabs = state.tabs.slice(0, index + 1);
  return { tabs, activeKey: keepActive(tabs, state.activeKey, key) };
}

/** Closes every tab but `key`, which becomes active. */
export function closeAll(state: TabsState, key: string): TabsResult {
  const tab = state.tabs.find((t) => t.key === key);
  if (!tab) return state;
  if (state.tabs.length <= 1) return { ...state, warning: TAB_MESSAGES.last };
  return { tabs: [tab], activeKey: key };
}

export type TabAction = 'closeThat' | 'closeRight' | 'closeLeft' | 'closeAll';

export const TAB_MENU: { key: TabAction; label: string }[] = [
  { key: 'closeThat', label: '关闭当前' },
  { key: 'closeRight', label: '关闭右侧' },
  { key: 'closeLeft', label: '关闭左侧' },
  { key: 'closeAll', label: '关闭全部' },
];

export function applyTabAction(state: TabsState, action: TabAction, key: string): TabsResult {
  switch (action) {
    case 'closeThat':
      return closeTab(state, key);
    case 'closeRight':
      return closeRight(state, key);
    case 'closeLeft':
      return closeLeft(state, key);
    case 'closeAll':
      return closeAll(state, key);
  }
}

function keepActive(tabs: TabItem[], activeKey: string, fallback: string): string {
  return tabs.some((t) => t.key === activeKey) ? activeKey : fallback;
}
