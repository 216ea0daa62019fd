import { API_PREFIX } from '@coalx/shared';
import { session } from '@/app/session';

export const UPLOAD_URL = `${API_PREFIX}/api/common/upload`;

/** Address to show or download an uploaded file; private files need the token (as a query for <img>/<a>). */
export function staticUrl(url: string | null | undefined, options: { private?: boolean } = {}): string {
  if (!url) return '';
  if (/^(https?:)?\/\//.test(url) || url.startsWith('data:') || url.startsWith('blob:')) return url;
  const path = `${API_PREFIX}/api/common/static/${url.replace(/^\/+/, '')}`;
  const token = session.token();
  if (options.private && token) return `${path}${path.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`;
  return path;
}
