/**
 * One id per form submission (issue 4): made when the form opens, reused when the user retries after a failure,
 * renewed after a success. The server moves money once per id, so a double click or a retried request is harmless.
 */
export function newRequestId(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  // randomUUID exists only in secure contexts; getRandomValues exists everywhere.
  const bytes = new Uint8Array(16);
  c.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
