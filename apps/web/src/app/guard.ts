import { flattenMenu, WORKBENCH_PATH, WORKSPACE_MENU } from '@coalx/shared';

/** Route guard of spec §4 Session, as a pure decision the router component carries out. */

export const LOGIN_PATH = '/user/login';
export const CHANGE_PASSWORD_PATH = '/user/changePassword';
export const HOME_PATH = '/index';
export const WORKSPACE_HOME_PATH = WORKBENCH_PATH;

export interface GuardInput {
  pathname: string;
  /** Query string including '?', or ''. */
  search: string;
  signedIn: boolean;
  /** User info and menu routes are loaded for this session. */
  routesLoaded: boolean;
  /** isFirstLogin === '1' (only known once loaded or signed in). */
  firstLogin: boolean;
  /** The path may be opened without signing in. */
  isPublic: boolean;
}

export type GuardDecision = { type: 'allow' } | { type: 'redirect'; to: string } | { type: 'load' };

export function decideNavigation(input: GuardInput): GuardDecision {
  const { pathname, search, signedIn, routesLoaded, firstLogin, isPublic } = input;
  if (signedIn) {
    if (pathname === LOGIN_PATH) {
      return { type: 'redirect', to: routesLoaded && firstLogin ? CHANGE_PASSWORD_PATH : HOME_PATH };
    }
    if (!routesLoaded) return { type: 'load' };
    if (firstLogin && pathname !== CHANGE_PASSWORD_PATH) return { type: 'redirect', to: CHANGE_PASSWORD_PATH };
    return { type: 'allow' };
  }
  if (isPublic) return { type: 'allow' };
  return { type: 'redirect', to: loginPathFor(pathname + search) };
}

/** /user/login?redirect=<wanted path with its query>. */
export function loginPathFor(wanted: string): string {
  if (!wanted || wanted === '/' || wanted.startsWith(LOGIN_PATH)) return LOGIN_PATH;
  return `${LOGIN_PATH}?redirect=${encodeURIComponent(wanted)}`;
}

/** Only same-site paths are followed after sign-in, so a crafted link cannot send the user elsewhere. */
export function safeRedirect(redirect: string | null | undefined): string | null {
  if (!redirect) return null;
  if (!redirect.startsWith('/') || redirect.startsWith('//') || redirect.startsWith('/\\')) return null;
  if (redirect.startsWith(LOGIN_PATH)) return null;
  return redirect;
}

/** Where to go after signing in: the first login changes its password first; then the redirect, or home. */
export function pathAfterLogin(search: string, firstLogin: boolean): string {
  if (firstLogin) return CHANGE_PASSWORD_PATH;
  return safeRedirect(new URLSearchParams(search).get('redirect')) ?? HOME_PATH;
}

/** Paths the server's workspace menu can hold; a visitor opening one is sent to sign in, not to 404. */
export const WORKSPACE_PATHS: ReadonlySet<string> = new Set(flattenMenu(WORKSPACE_MENU).map((item) => item.path));

export function normalizePath(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

/**
 * Whether a visitor may open the path: the public routes, plus any path that is no route at all (the router shows
 * 404 for it). Paths of the main layout and of the workspace need sign-in.
 */
export function isPublicPath(pathname: string, publicPaths: ReadonlySet<string>, protectedPaths: ReadonlySet<string>): boolean {
  const path = normalizePath(pathname);
  if (publicPaths.has(path)) return true;
  return !protectedPaths.has(path) && !WORKSPACE_PATHS.has(path);
}
