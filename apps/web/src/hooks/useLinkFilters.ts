import { useMemo } from 'react';
import { useSearchParams } from 'react-router';

/**
 * The filters a link put in the URL (a to-do's `?status=overdue`, `?late=1` …): the page hands them to its list API,
 * so it shows exactly the items the link promised. `clear` drops them from the URL and the page shows everything.
 */
export function useLinkFilters<K extends string>(keys: readonly K[]) {
  const [search, setSearch] = useSearchParams();
  const filters = useMemo(() => {
    const out: Partial<Record<K, string>> = {};
    for (const key of keys) {
      const value = search.get(key);
      if (value) out[key] = value;
    }
    return out;
    // keys are a constant list per page
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [search]);
  const clear = () => {
    const next = new URLSearchParams(search);
    for (const key of keys) next.delete(key);
    setSearch(next, { replace: true });
  };
  return { filters, active: Object.keys(filters).length > 0, clear };
}
