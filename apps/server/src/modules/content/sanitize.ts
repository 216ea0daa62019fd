import { createRequire } from 'node:module';
import type SanitizeHtml from 'sanitize-html';

// loaded on the first announcement saved, not at start-up (README start-up time)
const require = createRequire(import.meta.url);
let sanitizer: typeof SanitizeHtml | null = null;
const sanitizeHtml = () => (sanitizer ??= require('sanitize-html') as typeof SanitizeHtml);

/**
 * Announcement bodies are HTML written in the operator's editor; they are shown to every visitor, so only plain
 * formatting survives: no script, no event handlers, no styles, links only to http(s) or our own pages.
 */
const OPTIONS: SanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'h1', 'h2', 'h3', 'h4', 'ul', 'ol', 'li', 'blockquote', 'a', 'img', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'hr', 'span', 'div'],
  allowedAttributes: { a: ['href', 'target', 'rel'], img: ['src', 'alt', 'width', 'height'], td: ['colspan', 'rowspan'], th: ['colspan', 'rowspan'] },
  allowedSchemes: ['http', 'https'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  transformTags: { a: (tagName, attribs) => ({ tagName: 'a', attribs: { ...attribs, rel: 'noopener noreferrer', target: '_blank' } }) },
};

export function sanitizeBody(html: string): string {
  return sanitizeHtml()(html, OPTIONS);
}
