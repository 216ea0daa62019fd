import { Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { hasPermission } from '@coalx/shared';
import { useLocation } from 'react-router';
import ErrorBoundary from '@/components/ErrorBoundary';
import PageLoading from '@/components/PageLoading';
import { useDocumentTitle } from '@/hooks/useDocumentTitle';
import { lazyPage } from './lazy';
import { PageMetaContext } from './page-context';
import { useSession } from './session';

const Exception403 = lazyPage(() => import('@/pages/exception/403'));

export interface RoutePageProps {
  title: string;
  permission?: string | null;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  page: LazyExoticComponent<ComponentType<any>> | ComponentType<any>;
}

/**
 * One routed page: sets the document title, tells the page its permission (for <Authorized>), shows 403 when a
 * signed-in role lacks the route's permission, and loads the page's chunk with a spinner and an error boundary.
 */
export default function RoutePage({ title, permission, page: Page }: RoutePageProps) {
  const { pathname } = useLocation();
  const { token, userInfo, menu } = useSession();
  useDocumentTitle(title);
  const denied =
    Boolean(token && menu && userInfo && permission) && !hasPermission(userInfo?.role?.permissions ?? [], permission!);
  return (
    <PageMetaContext.Provider value={{ title, permission }}>
      <ErrorBoundary resetKey={pathname}>
        <Suspense fallback={<PageLoading />}>{denied ? <Exception403 /> : <Page />}</Suspense>
      </ErrorBoundary>
    </PageMetaContext.Provider>
  );
}
