// pdf.js, loaded by the viewer through a dynamic import, so it never weighs on a first visit. Chinese documents
// use the standard non-embedded font STSong-Light with the UniGB-UCS2-H encoding: without the cMaps and the
// standard font data the text does not render.
import * as pdfjs from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;

/** Where the build puts pdf.js's data files (see vite-pdfjs-assets.ts). */
export const PDFJS_ASSETS = '/pdfjs/';

/**
 * A document by address (`httpHeaders` carry the token of a private one, so it never appears in an address) or
 * by its bytes already fetched (pdf.js takes them over, so it gets a copy).
 */
export function openPdf(source: { url?: string; httpHeaders?: Record<string, string>; data?: Uint8Array }) {
  return pdfjs.getDocument({
    url: source.data ? undefined : source.url,
    data: source.data ? source.data.slice() : undefined,
    httpHeaders: source.httpHeaders,
    cMapUrl: `${PDFJS_ASSETS}cmaps/`,
    cMapPacked: true,
    standardFontDataUrl: `${PDFJS_ASSETS}standard_fonts/`,
    wasmUrl: `${PDFJS_ASSETS}wasm/`,
  });
}

export type { PDFDocumentProxy, PDFPageProxy, RenderTask } from 'pdfjs-dist';
