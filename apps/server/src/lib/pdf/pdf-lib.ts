import type * as PdfLibModule from '@cantoo/pdf-lib';

/**
 * pdf-lib, loaded at the first PDF rather than at start-up: importing it costs about 0.4 s, more than anything else
 * the server loads, and most starts never draw or read a PDF before the first request that does.
 */
export type PdfLib = typeof PdfLibModule;
let loaded: PdfLib | undefined;

/** Every PDF entry point (render, sign, verify) awaits this first. */
export async function loadPdfLib(): Promise<PdfLib> {
  return (loaded ??= await import('@cantoo/pdf-lib'));
}

/** For synchronous code that runs on a document, so after its entry point loaded the library. */
export function pdfLib(): PdfLib {
  if (!loaded) throw new Error('pdf-lib is used before loadPdfLib()');
  return loaded;
}
