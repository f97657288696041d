/**
 * The one door to pdf.js: imported dynamically so the library (and its worker, served as a file
 * of its own) loads only when a PDF is shown. Tests mock this module, not pdf.js itself.
 */
import type * as PdfjsModule from 'pdfjs-dist';

export type Pdfjs = typeof PdfjsModule;

let loading: Promise<Pdfjs> | null = null;

export function loadPdfjs(): Promise<Pdfjs> {
  loading ??= Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?url')]).then(
    ([pdfjs, worker]) => {
      pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
      return pdfjs;
    },
  );
  // A failed load (offline, chunk gone after a deploy) may be retried by the next viewer.
  loading.catch(() => {
    loading = null;
  });
  return loading;
}
