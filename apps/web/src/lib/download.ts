import { API_PREFIX } from '@coalx/shared';
import { TOKEN_HEADER } from '@/app/request';
import { session } from '@/app/session';

/** spec §8: a download with an empty result warns with this text. */
export const EMPTY_DOWNLOAD = 'file download failed';

/** The file name of a Content-Disposition header (RFC 5987 filename* first). */
export function fileNameOf(disposition: string | null, fallback: string): string {
  return withExtension(headerName(disposition) ?? fallback, fallback);
}

function headerName(disposition: string | null): string | null {
  if (!disposition) return null;
  const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(disposition);
  if (star) {
    try {
      return decodeURIComponent(star[1]!.trim().replace(/^"|"$/g, ''));
    } catch {
      // fall through
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(disposition);
  return plain ? plain[1]!.trim() : null;
}

/** A name the server sent without an extension ('长协') keeps the fallback's ('.xlsx'), so the file still opens. */
function withExtension(name: string, fallback: string): string {
  const extension = /\.[A-Za-z0-9]+$/.exec(fallback)?.[0];
  return extension && !/\.[A-Za-z0-9]+$/.test(name) ? `${name}${extension}` : name;
}

/**
 * Downloads a file the server builds (an Excel export): fetch with the token header, then save the blob, so the
 * token never appears in a URL. Rejects with the server's Chinese message when it refuses.
 */
export async function downloadWithToken(path: string, params: Record<string, string | undefined>, fallbackName: string) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  const query = search.toString();
  const token = session.token();
  const response = await fetch(`${API_PREFIX}${path}${query ? `?${query}` : ''}`, { headers: token ? { [TOKEN_HEADER]: token } : {} });
  if (!response.ok) {
    let text = '导出失败，请稍后重试';
    try {
      const body = (await response.json()) as { message?: string };
      if (body?.message) text = body.message;
    } catch {
      // not JSON
    }
    throw new Error(text);
  }
  const blob = await response.blob();
  if (blob.size === 0) throw new Error(EMPTY_DOWNLOAD);
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = fileNameOf(response.headers.get('content-disposition'), fallbackName);
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 1000);
}
