import { Modal } from 'antd';
import { logout } from '@/services/auth';
import { browser, isRequestError } from './request';
import { session } from './session';
import { LOGIN_PATH } from './guard';

export const LOGOUT_CONFIRM_TEXT = '您确定要注销吗？';

/**
 * Logout of spec §4: the server call, then token, roles, routes, stored user and company info are cleared.
 * A 500 from the server reloads the page (the cleared session then shows the login page).
 */
export async function signOut(): Promise<void> {
  try {
    if (session.token()) await logout();
  } catch (error) {
    session.clear();
    if (isRequestError(error) && error.status === 500) browser.reload();
    return;
  }
  session.clear();
}

/** Confirm dialog, then logout and the login page. */
export function confirmSignOut(navigate: (to: string, options?: { replace?: boolean }) => void) {
  Modal.confirm({
    title: '提示',
    content: LOGOUT_CONFIRM_TEXT,
    okText: '确定',
    cancelText: '取消',
    onOk: async () => {
      await signOut();
      navigate(LOGIN_PATH, { replace: true });
    },
  });
}
