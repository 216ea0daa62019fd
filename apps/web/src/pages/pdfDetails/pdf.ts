// pdf.js, loaded only by this page. Chinese documents use the standard non-embedded font STSong-Light with the
// UniGB-UCS2-H encoding: without the cMaps and the standard font data the text does not render.
import * as pdfjs from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;

/** Where the build puts pdf.js's data files (see vite-pdfjs-assets.ts). */
export const PDFJS_ASSETS = '/pdfjs/';

export function openPdf(url: string) {
  return pdfjs.getDocument({
    url,
    cMapUrl: `${PDFJS_ASSETS}cmaps/`,
    cMapPacked: true,
    standardFontDataUrl: `${PDFJS_ASSETS}standard_fonts/`,
    wasmUrl: `${PDFJS_ASSETS}wasm/`,
  });
}

export type { PDFDocumentProxy, PDFPageProxy, RenderTask } from 'pdfjs-dist';
