import { lazy, Suspense, useEffect, useState } from 'react';
import { NavLink, useLocation } from 'react-router';
import { WORKSPACE_HOME_PATH } from '@/app/guard';
import { isFirstLogin, isSignedIn, useSession } from '@/app/session';
import Logo from '@/components/Logo';
import './header.css';

// Only signed-in users see it: visitors' first load of /user/login and /index does without Dropdown, Menu, Modal.
const AvatarDropdown = lazy(() => import('@/components/AvatarDropdown'));
// the bell opens the signed-in user's message socket: never part of a visitor's load either
const MessageBell = lazy(() => import('@/components/MessageBell'));

/** Which header links show (spec §2 Header, §6). */
export function headerLinks(signedIn: boolean, firstLogin: boolean) {
  return {
    home: !signedIn || !firstLogin,
    // 行情 is public: everyone but a first sign-in (which changes its password first)
    market: !signedIn || !firstLogin,
    workspace: signedIn && !firstLogin,
    login: !signedIn,
    register: !signedIn,
    // 消息中心 (issue 28); a first sign-in only changes its password before anything else
    messages: signedIn && !firstLogin,
  };
}

export default function GlobalHeader() {
  const s = useSession();
  const links = headerLinks(isSignedIn(s), isFirstLogin(s));
  const hasNav = links.home || links.market || links.workspace;
  // on a phone the nav folds into a menu button and a panel (CSS shows one or the other, so the desktop is untouched);
  // a plain panel rather than antd's Drawer keeps a visitor's first load as small as before
  const [menuOpen, setMenuOpen] = useState(false);
  const { pathname } = useLocation();
  useEffect(() => setMenuOpen(false), [pathname]);
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setMenuOpen(false);
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);
  const navLinks = (className: string) => (
    <>
      {links.home && (
        <NavLink to="/index" className={className}>
          首页
        </NavLink>
      )}
      {links.market && (
        <NavLink to="/market" className={className} data-testid={className === 'coalx-header-link' ? 'header-market' : undefined}>
          行情
        </NavLink>
      )}
      {links.workspace && (
        <NavLink to={WORKSPACE_HOME_PATH} className={className}>
          工作台
        </NavLink>
      )}
    </>
  );
  return (
    <header className="coalx-header">
      <div className="coalx-header-inner">
        <Logo />
        <nav className="coalx-header-nav">{navLinks('coalx-header-link')}</nav>
        <div className="coalx-header-right">
          {links.login || links.register ? (
            <div className="coalx-header-auth">
              {links.login && (
                <NavLink to="/user/login" className="coalx-header-btn coalx-header-btn-primary">
                  登录
                </NavLink>
              )}
              {links.register && (
                <NavLink to="/user/register" className="coalx-header-btn">
                  注册
                </NavLink>
              )}
            </div>
          ) : (
            <>
              {links.messages && (
                <Suspense fallback={<span style={{ display: 'inline-block', width: 40, height: 40 }} />}>
                  <MessageBell />
                </Suspense>
              )}
              <Suspense fallback={<span className="coalx-avatar-placeholder" />}>
                <AvatarDropdown />
              </Suspense>
            </>
          )}
          {hasNav && (
            <button
              type="button"
              className="coalx-header-menu-btn"
              aria-label="菜单"
              aria-expanded={menuOpen}
              data-testid="header-menu"
              onClick={() => setMenuOpen((open) => !open)}
            >
              <span className="coalx-header-menu-icon" aria-hidden="true" />
            </button>
          )}
        </div>
      </div>
      {menuOpen && (
        <>
          <div className="coalx-header-drawer-mask" onClick={() => setMenuOpen(false)} />
          <nav className="coalx-header-drawer" aria-label="导航菜单">
            {navLinks('coalx-header-drawer-link')}
          </nav>
        </>
      )}
    </header>
  );
}
