import { Suspense, useEffect, useMemo } from 'react';
import { Navigate, useLocation, useNavigate, useRoutes, type RouteObject } from 'react-router';
import type { MenuItem } from '@coalx/shared';
import PageLoading from '@/components/PageLoading';
import { getUserInfo, getUserPermission } from '@/services/auth';
import { assertRoles } from './access';
import { isRequestError } from './request';
import { decideNavigation, isPublicPath, loginPathFor, normalizePath, WORKSPACE_PATHS } from './guard';
import { lazyPage } from './lazy';
import { menuRoutes, workspaceItems, workspaceRedirect, WORKSPACE_PATH } from './menu';
import { resolveView } from './registry';
import RoutePage from './RoutePage';
import { PROTECTED_PATHS, PUBLIC_PATHS, STATIC_REDIRECTS, STATIC_ROUTES, type LayoutName } from './routes';
import { syncDictionaries } from './dict';
import { isFirstLogin, onGrantsChanged, session, useSession } from './session';
import { notice } from './notice';

const UserLayout = lazyPage(() => import('./layouts/UserLayout'));
const PublicLayout = lazyPage(() => import('./layouts/PublicLayout'));
const BlankLayout = lazyPage(() => import('./layouts/BlankLayout'));
const WorkspaceLayout = lazyPage(() => import('./layouts/WorkspaceLayout'));
const Exception403 = lazyPage(() => import('@/pages/exception/403'));

const LAYOUTS: Record<LayoutName, typeof UserLayout> = { user: UserLayout, public: PublicLayout, blank: BlankLayout };

export const LOAD_FAILED_NOTICE = { message: '错误', description: '请求用户信息失败，请重试!' } as const;

function withSuspense(element: React.ReactNode) {
  return <Suspense fallback={<PageLoading fullscreen />}>{element}</Suspense>;
}

/** The route tree: static routes of spec §2 plus, once loaded, the workspace routes of the server's menu. */
export function buildRoutes(menu: MenuItem[] | null): RouteObject[] {
  const routes: RouteObject[] = Object.entries(STATIC_REDIRECTS).map(([path, to]) => ({
    path,
    element: <Navigate to={to} replace />,
  }));
  for (const layout of Object.keys(LAYOUTS) as LayoutName[]) {
    const Layout = LAYOUTS[layout];
    routes.push({
      element: withSuspense(<Layout />),
      children: STATIC_ROUTES.filter((r) => r.layout === layout).map((r) => ({
        path: r.path,
        element: <RoutePage title={r.title} permission={r.permission} page={r.page} />,
      })),
    });
  }
  if (menu) {
    const children: RouteObject[] = [{ path: WORKSPACE_PATH, element: <Navigate to={workspaceRedirect(menu)} replace /> }];
    for (const r of menuRoutes(workspaceItems(menu))) {
      children.push({
        path: r.path,
        element: r.redirect ? (
          <Navigate to={r.redirect} replace />
        ) : (
          <RoutePage title={r.title} permission={r.permission} page={resolveView(r.component)} />
        ),
      });
    }
    routes.push({ element: withSuspense(<WorkspaceLayout />), children });
  }
  routes.push({ path: '*', element: <Fallback /> });
  return routes;
}

/**
 * Asks for the chunks of the page being opened (its layout and its page) at start, in parallel with the entry's
 * own work: React would otherwise discover them one after the other, the page only once its layout has rendered.
 */
export function preloadRoute(pathname: string): string {
  const path = STATIC_REDIRECTS[normalizePath(pathname)] ?? normalizePath(pathname);
  const route = STATIC_ROUTES.find((r) => r.path === path);
  if (route) {
    void LAYOUTS[route.layout].preload();
    void route.page.preload();
  }
  return path;
}

/** Unknown path: /404; a workspace page the role's menu does not hold: 403. */
function Fallback() {
  const { pathname } = useLocation();
  const { menu } = useSession();
  if (menu && WORKSPACE_PATHS.has(normalizePath(pathname))) {
    return <RoutePage title="无权访问" page={Exception403} />;
  }
  return <Navigate to="/404" replace />;
}

let loading: Promise<void> | null = null;

/**
 * Set while the page is being left (reload, a typed address): the browser then aborts the user-info requests, and
 * that abort is no failure of the session. Without this, reloading while they load logged the user out, since the
 * old page cleared the shared localStorage token on its way out.
 */
let leavingPage = false;
if (typeof window !== 'undefined') {
  window.addEventListener('beforeunload', () => (leavingPage = true));
  window.addEventListener('pagehide', () => (leavingPage = true));
  window.addEventListener('pageshow', () => (leavingPage = false));
}

/** Fetches user info and menu once for concurrent callers; rejects per spec §6 without a role holding permissions. */
export function loadUserRoutes(): Promise<void> {
  loading ??= Promise.all([getUserInfo(), getUserPermission()])
    .then(([userInfo, permission]) => {
      assertRoles(userInfo);
      session.loaded(userInfo, permission?.menu ?? [], permission?.auth ?? []);
      // the admin may have edited a dictionary since this browser cached them
      void syncDictionaries(userInfo.dictVersion);
    })
    .finally(() => {
      loading = null;
    });
  return loading;
}

// an admin's change to the role's grants reaches the menu at the user's next request
onGrantsChanged(loadUserRoutes);

/** The guard of spec §4 around the route tree. */
export default function AppRoutes() {
  const location = useLocation();
  const navigate = useNavigate();
  const s = useSession();
  const routes = useMemo(() => buildRoutes(s.menu), [s.menu]);
  const element = useRoutes(routes, location);

  const decision = decideNavigation({
    pathname: normalizePath(location.pathname),
    search: location.search,
    signedIn: Boolean(s.token),
    routesLoaded: s.menu !== null,
    firstLogin: isFirstLogin(s),
    isPublic: isPublicPath(location.pathname, PUBLIC_PATHS, PROTECTED_PATHS),
  });

  useEffect(() => {
    if (decision.type !== 'load') return;
    const wanted = location.pathname + location.search;
    const fail = () => {
      if (leavingPage) return;
      // the session is cleared first: with a token left, the login page would send the user back to /index
      session.clear();
      notice.error({ message: LOAD_FAILED_NOTICE.message, description: LOAD_FAILED_NOTICE.description });
      navigate(loginPathFor(wanted), { replace: true });
    };
    loadUserRoutes().catch((error: unknown) => {
      // a network-level failure (status 0) may be the abort of a page being left: look again once unload had time
      if (isRequestError(error) && error.status === 0) setTimeout(fail, 500);
      else fail();
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [decision.type]);

  if (decision.type === 'redirect') return <Navigate to={decision.to} replace />;
  if (decision.type === 'load') return <PageLoading fullscreen />;
  return element;
}
