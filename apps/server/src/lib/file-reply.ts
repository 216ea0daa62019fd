import type { FastifyReply } from 'fastify';

/**
 * What every answer carrying a stored or uploaded file says (issue 27 item 4): a download, never a document of the
 * platform's origin. A PDF with JavaScript or a file a browser might take for HTML then never runs as the platform:
 *  - `Content-Disposition: attachment` with the name in RFC 5987 form (and an ASCII stand-in for old clients);
 *  - `X-Content-Type-Options: nosniff`: the declared type (told by content at upload) is the only one;
 *  - `Content-Security-Policy: sandbox`: opened anyway (a viewer, a direct address), it is a unique opaque origin
 *    with no script, no forms, no plugins and nothing it may load.
 * An <img src> still shows an image (the disposition is for navigations), and the web reads PDFs with pdf.js.
 */
export const FILE_CONTENT_SECURITY_POLICY = "sandbox; default-src 'none'; frame-ancestors 'none'";

/** RFC 5987 `ext-value` characters: encodeURIComponent leaves ' ( ) * as they are, which attr-char does not allow. */
function rfc5987(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `attachment; filename="…"; filename*=UTF-8''…`: the plain name keeps printable ASCII only (no quote, backslash). */
export function attachmentDisposition(fileName: string): string {
  const name = fileName.replace(/[\u0000-\u001f\u007f]/g, '').trim() || 'file';
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${rfc5987(name)}`;
}

export interface FileAnswer {
  contentType: string;
  fileName: string;
  size?: number;
  /** default `private, no-store` */
  cacheControl?: string;
}

/** Sets the headers of a file answer; the handler then sends the stream or buffer. */
export function fileHeaders(reply: FastifyReply, file: FileAnswer): FastifyReply {
  reply.header('content-type', file.contentType);
  if (file.size !== undefined) reply.header('content-length', file.size);
  reply.header('content-disposition', attachmentDisposition(file.fileName));
  reply.header('x-content-type-options', 'nosniff');
  reply.header('content-security-policy', FILE_CONTENT_SECURITY_POLICY);
  reply.header('cache-control', file.cacheControl ?? 'private, no-store');
  return reply;
}
