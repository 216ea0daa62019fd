import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { API_PREFIX } from '@coalx/shared';

/**
 * Short-lived signed links to private files (issue 27 item 9): an <img src> or a download link cannot send the
 * token header, and a token in an address ends up in the history, proxy logs and Referer headers. So the server
 * hands out a link that opens one path, for one user's session, for five minutes:
 *
 *   {path}?uid={userId}&sid={sessionId}&expires={epoch seconds}&signature={base64url HMAC-SHA256}
 *
 * signed over `coalx-file-link-v1 \n path \n uid \n sid \n expires` with a server key (FILE_LINK_KEY_FILE, or made once
 * in DATA_DIR/secrets/file-link.key). The link carries no credential: the file route still checks what that user may
 * read, and a signed-out session (logout, disabled user) no longer opens it. `signature` is masked in the logs
 * like every parameter so named (lib/log-redaction.ts).
 */
export const FILE_LINK_TTL_MS = 5 * 60 * 1000;

/** The GET routes (under the API prefix) that serve private files and accept a signed link instead of the token header. */
export const FILE_ROUTES = [
  '/api/common/static/*',
  '/api/contract/:id/pdf',
  '/api/contract/:id/uploads/:uploadId/file',
  '/api/delivery/order/:orderId/files/:fileId',
  '/api/invoice/:id/file',
  '/api/settlement/statements/:id/pdf',
].map((route) => API_PREFIX + route);

const FILE_ROUTE_SET = new Set(FILE_ROUTES);

/** The concrete paths a link may be signed for: each route with its parameters as plain path segments. */
const SIGNABLE_PATHS = FILE_ROUTES.map(
  (route) =>
    new RegExp(
      `^${route
        .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
        .replace(/:[A-Za-z]+/g, '[A-Za-z0-9_-]+')
        .replace(/\*$/, '[A-Za-z0-9_-]+(?:/[A-Za-z0-9_-]+)*\\.[A-Za-z0-9]+')}$`,
    ),
);

export function isFileRoute(routeUrl: string): boolean {
  return FILE_ROUTE_SET.has(routeUrl);
}

export function isSignablePath(pathname: string): boolean {
  return SIGNABLE_PATHS.some((pattern) => pattern.test(pathname));
}

export interface FileLinkHolder {
  userId: number;
  sessionId: number;
}

export type FileLinkCheck = { ok: true; userId: number; sessionId: number } | { ok: false; reason: 'invalid' | 'expired' };

/** The query parameters of a signed link; present on a request when `signature` is. */
export interface FileLinkQuery {
  uid?: unknown;
  sid?: unknown;
  expires?: unknown;
  signature?: unknown;
}

const POSITIVE_INTEGER = /^[1-9]\d{0,15}$/;

export class FileLinks {
  constructor(private readonly key: Buffer) {
    if (key.length < 32) throw new Error('文件链接签名密钥至少 32 字节');
  }

  /** A link to `pathname` (with the API prefix) for the holder's session, valid FILE_LINK_TTL_MS from `now`. */
  sign(pathname: string, holder: FileLinkHolder, now: Date): { url: string; expiresAt: number } {
    const expires = Math.floor((now.getTime() + FILE_LINK_TTL_MS) / 1000);
    const query = new URLSearchParams({
      uid: String(holder.userId),
      sid: String(holder.sessionId),
      expires: String(expires),
      signature: this.mac(pathname, holder.userId, holder.sessionId, expires),
    });
    return { url: `${pathname}?${query.toString()}`, expiresAt: expires * 1000 };
  }

  /** Whether the query signs `pathname`: the signature first (tampering is "invalid" whatever the time), then the expiry. */
  check(pathname: string, query: FileLinkQuery, now: Date): FileLinkCheck {
    const { uid, sid, expires, signature } = query;
    if (typeof uid !== 'string' || typeof sid !== 'string' || typeof expires !== 'string' || typeof signature !== 'string') return { ok: false, reason: 'invalid' };
    if (!POSITIVE_INTEGER.test(uid) || !POSITIVE_INTEGER.test(sid) || !POSITIVE_INTEGER.test(expires)) return { ok: false, reason: 'invalid' };
    const expected = Buffer.from(this.mac(pathname, Number(uid), Number(sid), Number(expires)));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'invalid' };
    if (now.getTime() >= Number(expires) * 1000) return { ok: false, reason: 'expired' };
    return { ok: true, userId: Number(uid), sessionId: Number(sid) };
  }

  private mac(pathname: string, userId: number, sessionId: number, expires: number): string {
    return createHmac('sha256', this.key).update(`coalx-file-link-v1\n${pathname}\n${userId}\n${sessionId}\n${expires}`).digest('base64url');
  }
}

/**
 * The signing key: the configured file (FILE_LINK_KEY_FILE), or DATA_DIR/secrets/file-link.key, made once with 32
 * random bytes, readable by the owner only. On PostgreSQL without FILE_LINK_KEY_FILE the key lives in the database
 * instead, shared by every server process (modules/system/platform-secret.service.ts, fileLinkKeyFor).
 */
export function loadFileLinkKey(files: { dataDir: string; keyFile?: string | null }): Buffer {
  const keyFile = files.keyFile || defaultFileLinkKeyFile(files.dataDir);
  if (!files.keyFile && !fs.existsSync(keyFile)) {
    fs.mkdirSync(path.dirname(keyFile), { recursive: true, mode: 0o700 });
    try {
      fs.writeFileSync(keyFile, newFileLinkKeyText(), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      // another process of the same folder made it first: use theirs
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  if (!fs.existsSync(keyFile)) throw new Error(`FILE_LINK_KEY_FILE 不存在: ${keyFile}`);
  return fileLinkKeyOf(fs.readFileSync(keyFile, 'utf8'), keyFile);
}

export const defaultFileLinkKeyFile = (dataDir: string) => path.join(dataDir, 'secrets', 'file-link.key');

/** A new key's text: 32 random bytes in hex. */
export const newFileLinkKeyText = () => `${randomBytes(32).toString('hex')}\n`;

export function fileLinkKeyOf(text: string, where: string): Buffer {
  const key = text.trim();
  if (key.length < 32) throw new Error(`文件链接签名密钥过短 (至少 32 个字符): ${where}`);
  return Buffer.from(key, 'utf8');
}
