import { useEffect, useMemo, useState } from 'react';
import { HomeOutlined, MenuOutlined } from '@ant-design/icons';
import { ProLayout, type MenuDataItem } from '@ant-design/pro-components';
import { Breadcrumb, Button } from 'antd';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { breadcrumbFor, findRoute, sideMenu, workspaceItems, type SideMenuEntry } from '@/app/menu';
import { WORKSPACE_HOME_PATH } from '@/app/guard';
import { useSession } from '@/app/session';
import { usePhone } from '@/hooks/usePhone';
import AvatarDropdown from '@/components/AvatarDropdown';
import MessageBell from '@/components/MessageBell';
import { documentTitle } from '@/hooks/useDocumentTitle';
import { LogoMark } from '@/components/Logo';
import { menuIcon } from './icons';
import TabBar from './TabBar';
import './header.css';

/** Layout defaults of spec §2/§9: side menu, fluid content, sider 256 wide and 80 when collapsed. */
export const WORKSPACE_LAYOUT = { layout: 'side', contentWidth: 'Fluid', siderWidth: 256, collapsedWidth: 80 } as const;

function toMenuData(entries: SideMenuEntry[]): MenuDataItem[] {
  return entries.map((e) => ({
    path: e.path,
    name: e.name,
    icon: menuIcon(e.icon),
    hideInMenu: e.hideInMenu,
    hideChildrenInMenu: e.hideChildrenInMenu,
    target: e.target,
    children: e.children ? toMenuData(e.children) : undefined,
  }));
}

/** Workspace layout (spec §2): ProLayout side menu from the children of /workspace, plus the multi-tab bar. */
export default function WorkspaceLayout() {
  const { menu } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const [collapsed, setCollapsed] = useState(false);
  // below 576 px (a phone) the side menu is ProLayout's drawer, opened by the header's menu button; ProLayout's
  // own mobile header is left out, ours (breadcrumb, bell, avatar) stands in its place
  const phone = usePhone();
  const [drawerOpen, setDrawerOpen] = useState(false);
  useEffect(() => setDrawerOpen(false), [location.pathname, phone]);
  const menuData = useMemo(() => toMenuData(sideMenu(workspaceItems(menu))), [menu]);
  const crumbs = useMemo(() => breadcrumbFor(menu, location.pathname), [menu, location.pathname]);

  return (
    <div
      className={`coalx-workspace${collapsed && !phone ? ' coalx-workspace-collapsed' : ''}${phone ? ' coalx-workspace-phone' : ''}`}
      style={{ ['--coalx-sider-width' as string]: `${collapsed ? WORKSPACE_LAYOUT.collapsedWidth : WORKSPACE_LAYOUT.siderWidth}px` }}
    >
      <ProLayout
        title="CoalX 工作台"
        logo={<LogoMark size={30} />}
        layout={WORKSPACE_LAYOUT.layout}
        contentWidth={WORKSPACE_LAYOUT.contentWidth}
        siderWidth={WORKSPACE_LAYOUT.siderWidth}
        fixSiderbar
        fixedHeader
        collapsed={phone ? !drawerOpen : collapsed}
        onCollapse={(next) => (phone ? setDrawerOpen(!next) : setCollapsed(next))}
        {...(phone ? { headerRender: false as const } : {})}
        location={{ pathname: location.pathname }}
        route={{ path: '/', children: menuData }}
        menu={{ locale: false }}
        menuDataRender={() => menuData}
        onMenuHeaderClick={() => navigate(WORKSPACE_HOME_PATH)}
        menuItemRender={(item, dom) =>
          item.path && !item.isUrl ? (
            <Link to={item.path} target={item.target}>
              {dom}
            </Link>
          ) : (
            dom
          )
        }
        // ProLayout writes document.title itself after our pages do: let it write the same text
        pageTitleRender={() => documentTitle(findRoute(menu, location.pathname)?.title)}
        token={{
          bgLayout: '#f2f4f8',
          sider: {
            colorMenuBackground: '#0b2545',
            colorMenuItemDivider: 'rgba(255,255,255,0.12)',
            colorTextMenu: 'rgba(255,255,255,0.72)',
            colorTextMenuSecondary: 'rgba(255,255,255,0.6)',
            colorTextMenuSelected: '#ffffff',
            colorTextMenuActive: '#ffffff',
            colorTextMenuItemHover: '#ffffff',
            colorTextMenuTitle: '#ffffff',
            colorTextSubMenuSelected: '#ffffff',
            colorBgMenuItemHover: 'rgba(255,255,255,0.08)',
            colorBgMenuItemSelected: '#1a56db',
            colorBgMenuItemActive: 'rgba(255,255,255,0.12)',
            colorBgMenuItemCollapsedElevated: '#0b2545',
            colorBgCollapsedButton: '#ffffff',
            colorTextCollapsedButton: '#0b2545',
            colorTextCollapsedButtonHover: '#1a56db',
          },
          header: {
            colorBgHeader: '#ffffff',
            colorHeaderTitle: '#0b2545',
            heightLayoutHeader: 56,
          },
          pageContainer: { paddingInlinePageContainerContent: 0, paddingBlockPageContainerContent: 0 },
        }}
      >
        <header className="coalx-ws-header">
          {phone ? (
            <Button type="text" className="coalx-ws-menu-button" icon={<MenuOutlined />} aria-label="打开菜单" onClick={() => setDrawerOpen(true)} />
          ) : null}
          <Breadcrumb className="coalx-ws-breadcrumb" items={crumbs.map((title) => ({ title }))} />
          <div className="coalx-ws-header-right">
            <Link to="/index" className="coalx-workspace-action" aria-label="首页">
              <HomeOutlined /> <span className="coalx-ws-home-text">首页</span>
            </Link>
            <MessageBell />
            <AvatarDropdown />
          </div>
        </header>
        <TabBar menu={menu ?? []} />
        <div className="coalx-workspace-content">
          <Outlet />
        </div>
      </ProLayout>
    </div>
  );
}
