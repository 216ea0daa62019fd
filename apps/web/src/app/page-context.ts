import { createContext, useContext } from 'react';

/** What the router knows about the page being shown: its title and the permission its route carries. */
export interface PageMeta {
  title: string;
  permission?: string | null;
}

export const PageMetaContext = createContext<PageMeta>({ title: '', permission: null });

export function usePageMeta(): PageMeta {
  return useContext(PageMetaContext);
}
