import { WORKBENCH_PATH, type MenuItem } from '@coalx/shared';

/** The server's menu (spec §3 Menu item) turned into routes and side-menu entries. */

export const WORKSPACE_PATH = '/workspace';
const FOLDER_VIEWS = new Set(['RouteView', 'WorkspaceLayout', 'PageView', 'BlankLayout', '']);

export function menuPath(item: MenuItem): string {
  return item.path || item.url || '';
}

export function menuTitle(item: MenuItem): string {
  return item.meta?.title || item.title || item.name || '';
}

/** The children of the /workspace root (the side menu); a menu without that root is taken as the children. */
export function workspaceItems(menu: MenuItem[] | null | undefined): MenuItem[] {
  if (!menu) return [];
  const root = menu.find((item) => menuPath(item) === WORKSPACE_PATH);
  return root ? (root.children ?? []) : menu;
}

export function workspaceRedirect(menu: MenuItem[] | null | undefined, fallback = WORKBENCH_PATH): string {
  const root = menu?.find((item) => menuPath(item) === WORKSPACE_PATH);
  return root?.redirect || fallback;
}

export interface WorkspaceRoute {
  path: string;
  title: string;
  /** Permission the route carries: the menu item's id (spec §6). */
  permission: string;
  /** View name resolved by the registry. */
  component: string;
  /** Folder routes redirect to their first page. */
  redirect?: string;
}

/** Every routed item of the menu: pages by their view name, folders as redirects to their first page. */
export function menuRoutes(items: MenuItem[], out: WorkspaceRoute[] = []): WorkspaceRoute[] {
  for (const item of items) {
    const path = menuPath(item);
    const children = item.children ?? [];
    if (!path) continue;
    if (FOLDER_VIEWS.has(item.component ?? '')) {
      const redirect = item.redirect || firstPage(children);
      if (redirect && redirect !== path) {
        out.push({ path, title: menuTitle(item), permission: item.id, component: '', redirect });
      }
    } else {
      out.push({ path, title: menuTitle(item), permission: item.id, component: item.component });
    }
    menuRoutes(children, out);
  }
  return out;
}

function firstPage(items: MenuItem[]): string | undefined {
  for (const item of items) {
    if (!FOLDER_VIEWS.has(item.component ?? '') && menuPath(item)) return menuPath(item);
    const deeper = firstPage(item.children ?? []);
    if (deeper) return deeper;
  }
  return undefined;
}

/** Title of the menu page at a pathname (for tabs and the document title). */
export function findRoute(menu: MenuItem[] | null | undefined, pathname: string): WorkspaceRoute | undefined {
  return menuRoutes(workspaceItems(menu)).find((r) => r.path === pathname && !r.redirect);
}

export interface SideMenuEntry {
  path: string;
  name: string;
  icon?: string | null;
  hideInMenu?: boolean;
  hideChildrenInMenu?: boolean;
  target?: string;
  children?: SideMenuEntry[];
}

/** Entries for ProLayout's side menu. */
export function sideMenu(items: MenuItem[]): SideMenuEntry[] {
  return items.map((item) => {
    const entry: SideMenuEntry = {
      path: menuPath(item),
      name: menuTitle(item),
      icon: item.meta?.icon || item.icon,
      hideInMenu: item.meta?.show === false,
      hideChildrenInMenu: item.meta?.hideChildren === true,
    };
    if (item.meta?.target) entry.target = item.meta.target;
    if (item.children?.length) entry.children = sideMenu(item.children);
    return entry;
  });
}

/** Titles from the workspace root down to the page at a pathname, for the breadcrumb. */
export function breadcrumbFor(menu: MenuItem[] | null | undefined, pathname: string): string[] {
  const walk = (items: MenuItem[], trail: string[]): string[] | null => {
    for (const item of items) {
      const next = [...trail, menuTitle(item)];
      if (menuPath(item) === pathname) return next;
      const found = walk(item.children ?? [], next);
      if (found) return found;
    }
    return null;
  };
  return walk(menu ?? [], []) ?? [];
}
