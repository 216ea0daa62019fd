import { useSyncExternalStore } from 'react';
import type { EnterpriseInfo, MenuItem, UserInfo } from '@coalx/shared';

/**
 * The signed-in session (spec §4 Session): a stored token means signed in. The user and company info are kept in
 * localStorage too so a reload can draw the header at once; roles and menu routes live only in memory and are
 * fetched again after a reload (the guard's "routes not loaded" step).
 */
export const STORAGE_KEYS = {
  token: 'Access-Token',
  userInfo: 'Login_Userinfo',
  companyInfo: 'Login_Company',
  tabs: 'coalx_tabs',
} as const;

export interface SessionState {
  token: string | null;
  userInfo: UserInfo | null;
  companyInfo: EnterpriseInfo;
  /** Menu tree from the server (one root: /workspace). null = routes not loaded yet. */
  menu: MenuItem[] | null;
  /** Button-level permissions of the menu call. */
  auth: { action: string; describe: string }[];
}

function readJson<T>(key: string): T | null {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

function writeJson(key: string, value: unknown) {
  if (value === null || value === undefined) localStorage.removeItem(key);
  else localStorage.setItem(key, JSON.stringify(value));
}

function initialState(): SessionState {
  return {
    token: localStorage.getItem(STORAGE_KEYS.token) || null,
    userInfo: readJson<UserInfo>(STORAGE_KEYS.userInfo),
    companyInfo: readJson<NonNullable<EnterpriseInfo>>(STORAGE_KEYS.companyInfo),
    menu: null,
    auth: [],
  };
}

let state: SessionState = initialState();
const listeners = new Set<() => void>();

function setState(patch: Partial<SessionState>) {
  state = { ...state, ...patch };
  for (const listener of listeners) listener();
}

export const session = {
  get: (): SessionState => state,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** The token as stored now (the request layer reads it on every call, so another tab's logout counts). */
  token(): string | null {
    return localStorage.getItem(STORAGE_KEYS.token) || null;
  },
  signIn(token: string, userInfo: UserInfo, companyInfo: EnterpriseInfo) {
    localStorage.setItem(STORAGE_KEYS.token, token);
    writeJson(STORAGE_KEYS.userInfo, userInfo);
    writeJson(STORAGE_KEYS.companyInfo, companyInfo);
    setState({ token, userInfo, companyInfo, menu: null, auth: [] });
  },
  /** User info and menu fetched by the guard: the routes are now loaded. */
  loaded(userInfo: UserInfo, menu: MenuItem[], auth: SessionState['auth']) {
    writeJson(STORAGE_KEYS.userInfo, userInfo);
    setState({ userInfo, menu, auth });
  },
  setUserInfo(userInfo: UserInfo) {
    writeJson(STORAGE_KEYS.userInfo, userInfo);
    setState({ userInfo });
  },
  setCompanyInfo(companyInfo: EnterpriseInfo) {
    writeJson(STORAGE_KEYS.companyInfo, companyInfo);
    setState({ companyInfo });
  },
  /** Only the token (request layer cleanup of spec §8). */
  removeToken() {
    localStorage.removeItem(STORAGE_KEYS.token);
    setState({ token: null });
  },
  /** Logout: token, roles, routes, stored user and company info, open tabs. */
  clear() {
    localStorage.removeItem(STORAGE_KEYS.token);
    localStorage.removeItem(STORAGE_KEYS.userInfo);
    localStorage.removeItem(STORAGE_KEYS.companyInfo);
    sessionStorage.removeItem(STORAGE_KEYS.tabs);
    setState({ token: null, userInfo: null, companyInfo: null, menu: null, auth: [] });
  },
  /** Tests and the storage event of another tab. */
  reset() {
    state = initialState();
    for (const listener of listeners) listener();
  },
};

/**
 * Grants changed at the server (issue 17): every signed-in answer carries the role's grants version
 * (X-Grants-Version). When it differs from the one the loaded menu came with, the menu and user info are fetched
 * again, so a role edited by the admin takes effect at the user's next request without signing in again.
 */
let reloadGrants: (() => Promise<void>) | null = null;
let reloadingGrants = false;

/** The router registers how to fetch user info and menu again. */
export function onGrantsChanged(reload: () => Promise<void>) {
  reloadGrants = reload;
}

/** Called by the request layer with the version a signed-in answer carried. */
export function noteGrantsVersion(version: string) {
  const held = state.userInfo?.grantsVersion;
  // nothing loaded yet (the guard's load will bring the current version), or nothing changed
  if (state.menu === null || !held || held === version || reloadingGrants || !reloadGrants) return;
  reloadingGrants = true;
  reloadGrants()
    .catch(() => undefined)
    .finally(() => {
      reloadingGrants = false;
    });
}

export function useSession(): SessionState {
  return useSyncExternalStore(session.subscribe, session.get, session.get);
}

export function isSignedIn(s: SessionState = state): boolean {
  return Boolean(s.token);
}

export function isFirstLogin(s: SessionState = state): boolean {
  return s.userInfo?.isFirstLogin === '1';
}
