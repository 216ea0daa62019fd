import { useEffect, useRef, useState } from 'react';
import { Dropdown, message, Tabs } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import type { MenuItem } from '@coalx/shared';
import { findRoute } from '@/app/menu';
import { STORAGE_KEYS } from '@/app/session';
import { applyTabAction, openTab, TAB_MENU, type TabAction, type TabsResult, type TabsState } from '@/app/tabs';

function restore(): TabsState {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEYS.tabs);
    if (raw) {
      const parsed = JSON.parse(raw) as TabsState;
      if (Array.isArray(parsed.tabs)) return parsed;
    }
  } catch {
    // start afresh
  }
  return { tabs: [], activeKey: '' };
}

/** Multi-tab bar of the workspace (spec §2): one tab per visited page, a right-click menu to close tabs. */
export default function TabBar({ menu }: { menu: MenuItem[] }) {
  const location = useLocation();
  const navigate = useNavigate();
  const [state, setState] = useState<TabsState>(restore);
  const stateRef = useRef(state);
  stateRef.current = state;

  useEffect(() => {
    const route = findRoute(menu, location.pathname);
    if (!route) return;
    setState((s) => openTab(s, { key: location.pathname, title: route.title, fullPath: location.pathname + location.search }));
  }, [menu, location.pathname, location.search]);

  useEffect(() => {
    sessionStorage.setItem(STORAGE_KEYS.tabs, JSON.stringify(state));
  }, [state]);

  const apply = (result: TabsResult) => {
    if (result.warning) {
      message.warning(result.warning);
      return;
    }
    const before = stateRef.current.activeKey;
    setState({ tabs: result.tabs, activeKey: result.activeKey });
    if (result.activeKey !== before || result.activeKey !== location.pathname) {
      const target = result.tabs.find((t) => t.key === result.activeKey);
      if (target) navigate(target.fullPath);
    }
  };

  const onMenu = (action: TabAction, key: string) => apply(applyTabAction(stateRef.current, action, key));

  return (
    <div className="coalx-tabbar">
      <Tabs
        type="editable-card"
        hideAdd
        size="small"
        activeKey={state.activeKey}
        onChange={(key) => {
          const tab = state.tabs.find((t) => t.key === key);
          if (tab) navigate(tab.fullPath);
        }}
        onEdit={(key, action) => {
          if (action === 'remove' && typeof key === 'string') onMenu('closeThat', key);
        }}
        items={state.tabs.map((tab) => ({
          key: tab.key,
          closable: true,
          label: (
            <Dropdown
              trigger={['contextMenu']}
              rootClassName="coalx-tab-menu"
              menu={{
                items: TAB_MENU.map((item) => ({ key: item.key, label: item.label })),
                onClick: ({ key, domEvent }) => {
                  domEvent.stopPropagation();
                  onMenu(key as TabAction, tab.key);
                },
              }}
            >
              <span className="coalx-tab-label" data-tab-key={tab.key}>
                {tab.title}
              </span>
            </Dropdown>
          ),
        }))}
      />
    </div>
  );
}
