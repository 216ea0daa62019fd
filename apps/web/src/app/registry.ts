import type { ComponentType, LazyExoticComponent } from 'react';
import { lazyPage } from './lazy';

/**
 * View name (the menu item's `component`, spec §3) → lazily loaded page. An issue that builds a workspace page
 * points its view name here at the new page; names not here yet show the 建设中 page.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Page = LazyExoticComponent<ComponentType<any>>;

export const UnderConstructionPage: Page = lazyPage(() => import('@/components/UnderConstruction'));

export const VIEW_REGISTRY: Record<string, Page> = {
  CompanyInfo: lazyPage(() => import('@/pages/workspace/companyInfo')),
};

export function resolveView(component: string | null | undefined): Page {
  return (component && VIEW_REGISTRY[component]) || UnderConstructionPage;
}
