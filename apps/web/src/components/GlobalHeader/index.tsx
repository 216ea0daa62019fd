import { lazy, Suspense } from 'react';
import { NavLink } from 'react-router';
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
  return (
    <header className="coalx-header">
      <div className="coalx-header-inner">
        <Logo />
        <nav className="coalx-header-nav">
          {links.home && (
            <NavLink to="/index" className="coalx-header-link">
              首页
            </NavLink>
          )}
          {links.market && (
            <NavLink to="/market" className="coalx-header-link" data-testid="header-market">
              行情
            </NavLink>
          )}
          {links.workspace && (
            <NavLink to={WORKSPACE_HOME_PATH} className="coalx-header-link">
              工作台
            </NavLink>
          )}
        </nav>
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
        </div>
      </div>
    </header>
  );
}
