import { useEffect } from 'react';
import { PRODUCT_TITLE } from '@coalx/shared';

/** '{route title} - {product title}' (spec §2). */
export function documentTitle(title: string | null | undefined): string {
  return title ? `${title} - ${PRODUCT_TITLE}` : PRODUCT_TITLE;
}

export function useDocumentTitle(title: string | null | undefined) {
  useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
}
