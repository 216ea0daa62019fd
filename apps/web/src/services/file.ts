import { useQueries } from '@tanstack/react-query';
import { API_PREFIX, type FileLink } from '@coalx/shared';
import { requestResult } from '@/app/request';
import { useSession } from '@/app/session';

export const UPLOAD_URL = `${API_PREFIX}/api/common/upload`;

/**
 * Address of an uploaded file under the static route. Public files open with it as it is; a private file needs the
 * token, which never goes into an address: read it with the token header (fetch → blob), or show and link it through
 * a signed link (`usePrivateFileUrls`).
 */
export function staticUrl(url: string | null | undefined): string {
  if (!url) return '';
  if (/^(https?:)?\/\//.test(url) || url.startsWith('data:') || url.startsWith('blob:')) return url;
  return `${API_PREFIX}/api/common/static/${url.replace(/^\/+/, '')}`;
}

/**
 * A short-lived signed link to a private file (GET /api/common/file-link): five minutes, for this session only, no
 * token in it. What an <img src> or an <a href> of a private file uses; the file answers as a download, sandboxed.
 */
// quiet: a link that cannot be had shows as a missing image, the page's own requests report a lost session
export const signFileLink = (path: string) => requestResult<FileLink>('/api/common/file-link', { params: { path }, skipErrorHandler: true });

/** Links are asked for again before their five minutes are up, so a page left open keeps working images and links. */
export const FILE_LINK_REFRESH_MS = 4 * 60 * 1000;

/**
 * Display addresses for uploaded files, keyed by the stored url: public files (and everything when signed out) by
 * their static address, private ones by a signed link once it has come ('' until then: render nothing yet).
 */
export function usePrivateFileUrls(urls: readonly (string | null | undefined)[], options: { private?: boolean } = { private: true }): Record<string, string> {
  const token = useSession().token;
  const sign = options.private !== false && Boolean(token);
  const stored = [...new Set(urls.filter((u): u is string => Boolean(u)))];
  const signable = sign ? stored.filter((u) => staticUrl(u).startsWith(`${API_PREFIX}/`)) : [];
  const links = useQueries({
    queries: signable.map((url) => ({
      queryKey: ['file-link', token, staticUrl(url)],
      queryFn: () => signFileLink(staticUrl(url)),
      staleTime: FILE_LINK_REFRESH_MS,
      gcTime: FILE_LINK_REFRESH_MS,
      refetchInterval: FILE_LINK_REFRESH_MS,
      retry: 1,
    })),
  });
  const out: Record<string, string> = {};
  for (const url of stored) out[url] = staticUrl(url);
  signable.forEach((url, i) => (out[url] = links[i]?.data?.url ?? ''));
  return out;
}

/** One file's display address (see usePrivateFileUrls). */
export function usePrivateFileUrl(url: string | null | undefined, options: { private?: boolean } = { private: true }): string {
  const urls = usePrivateFileUrls([url], options);
  return url ? (urls[url] ?? '') : '';
}
