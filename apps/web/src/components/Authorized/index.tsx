import type { ReactNode } from 'react';
import { isActionAllowed } from '@/app/access';
import { usePageMeta } from '@/app/page-context';
import { useSession } from '@/app/session';

export interface AuthorizedProps {
  /** 'permissionId.action', or 'action' alone for the current page's permission. */
  action: string;
  children: ReactNode;
  /** Shown instead when the action is not allowed (default: nothing, the element is removed). */
  fallback?: ReactNode;
}

/** Removes its children when the page's permission exists in the role but lacks the action (spec §6). */
export default function Authorized({ action, children, fallback = null }: AuthorizedProps) {
  const { userInfo } = useSession();
  const { permission } = usePageMeta();
  return <>{isActionAllowed(userInfo?.role?.permissions, action, permission) ? children : fallback}</>;
}
