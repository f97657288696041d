import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Icon } from '../../../components/ui/Icon';
import { useTranslation } from '../../../lib/i18n';
import { truncateFileName } from '../media/media-rules';
import { loadPdfjs, type Pdfjs } from './load-pdfjs';
import { fitScale, pageForKey, parsePageInput, stepZoom } from './pdf-paging';
import './pdf.css';

interface PdfViewerProps {
  /** The URL the API gave for the file (signed for the learner). */
  url: string;
  name: string;
}

interface Loaded {
  lib: Pdfjs;
  doc: PDFDocumentProxy;
}

/**
 * docs/product.md §1 PDF viewer: one page at a time drawn by pdf.js, with a text layer over the drawing so
 * screen readers (and text selection) get the words; previous/next, a page number field, zoom
 * in/out/fit, PageUp/PageDown/arrows while the viewer has focus, and a download link.
 */
export function PdfViewer(props: PdfViewerProps) {
  // Another document starts afresh (page 1, fitted), without carrying the last one's state.
  return <PdfDocumentViewer key={props.url} {...props} />;
}

function PdfDocumentViewer({ url, name }: PdfViewerProps) {
  const { t } = useTranslation();
  const id = useId();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [failed, setFailed] = useState(false);
  const [page, setPage] = useState(1);
  const [pageText, setPageText] = useState('1');
  const [zoom, setZoom] = useState<number | 'fit'>('fit');
  const [scale, setScale] = useState(1);
  const frame = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const textLayer = useRef<HTMLDivElement>(null);
  const count = loaded?.doc.numPages ?? 0;

  useEffect(() => {
    let cancelled = false;
    let task: { destroy(): Promise<void> } | null = null;
    loadPdfjs()
      .then((lib) => {
        if (cancelled) return;
        const loading = lib.getDocument({ url, isEvalSupported: false });
        task = loading;
        return loading.promise.then((doc) => {
          if (!cancelled) setLoaded({ lib, doc });
        });
      })
      .catch((error: unknown) => {
        console.warn('PDF not loaded', error);
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
      void task?.destroy();
    };
  }, [url]);

  useEffect(() => {
    if (!loaded) return;
    let cancelled = false;
    let render: { cancel(): void } | null = null;
    let text: { cancel(): void } | null = null;
    void (async () => {
      const pdfPage = await loaded.doc.getPage(page);
      if (cancelled) return;
      const effective =
        zoom === 'fit'
          ? fitScale(frame.current?.clientWidth ?? 0, pdfPage.getViewport({ scale: 1 }).width)
          : zoom;
      setScale(effective);
      const viewport = pdfPage.getViewport({ scale: effective });
      const drawing = canvas.current;
      const context = drawing?.getContext('2d');
      if (drawing && context) {
        // Drawn at the screen's pixel density so text stays sharp, shown at CSS size.
        const ratio = window.devicePixelRatio || 1;
        drawing.width = Math.floor(viewport.width * ratio);
        drawing.height = Math.floor(viewport.height * ratio);
        drawing.style.width = `${Math.floor(viewport.width)}px`;
        drawing.style.height = `${Math.floor(viewport.height)}px`;
        const task = pdfPage.render({
          canvas: drawing,
          canvasContext: context,
          viewport,
          transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0],
        });
        render = task;
        await task.promise;
      }
      const container = textLayer.current;
      if (cancelled || !container) return;
      container.replaceChildren();
      container.style.setProperty('--total-scale-factor', String(effective));
      const layer = new loaded.lib.TextLayer({
        textContentSource: pdfPage.streamTextContent(),
        container,
        viewport,
      });
      text = layer;
      await layer.render();
    })().catch((error: unknown) => {
      if (cancelled || (error instanceof Error && error.name === 'RenderingCancelledException')) return;
      console.warn('PDF page not drawn', error);
    });
    return () => {
      cancelled = true;
      render?.cancel();
      text?.cancel();
    };
  }, [loaded, page, zoom]);

  const goTo = (next: number) => {
    if (!count) return;
    const target = Math.min(Math.max(1, next), count);
    setPage(target);
    setPageText(String(target));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    // The page field and buttons keep their own keys (arrows change a number field).
    if (event.target instanceof HTMLInputElement || !count) return;
    const target = pageForKey(event.key, page, count);
    if (target === null) return;
    event.preventDefault();
    goTo(target);
  };

  const label = t('widgets.pdf.label', { name });
  const status = count ? t('widgets.pdf.pageOf', { page, count }) : '';

  return (
    <section className="pdf-viewer" aria-label={label}>
      <div className="pdf-viewer__bar">
        <button
          type="button"
          className="btn btn--ghost"
          onClick={() => goTo(page - 1)}
          disabled={!count || page <= 1}
        >
          <span aria-hidden="true">‹</span> {t('widgets.pdf.previous')}
        </button>
        <label htmlFor={`${id}-page`} className="pdf-viewer__page-field">
          {t('widgets.pdf.page')}{' '}
          <input
            id={`${id}-page`}
            type="number"
            inputMode="numeric"
            min={1}
            max={Math.max(1, count)}
            value={pageText}
            disabled={!count}
            onChange={(e) => {
              setPageText(e.target.value);
              const n = parsePageInput(e.target.value, count);
              if (n !== null) setPage(n);
            }}
            onBlur={() => setPageText(String(page))}
          />
        </label>
        <span>{count ? t('widgets.pdf.of', { count }) : t('widgets.pdf.loading')}</span>
        <button
          type="button"
          className="btn btn--ghost"
          onClick={() => goTo(page + 1)}
          disabled={!count || page >= count}
        >
          {t('widgets.pdf.next')} <span aria-hidden="true">›</span>
        </button>
        <span className="pdf-viewer__zoom">
          <button
            type="button"
            className="btn btn--ghost"
            onClick={() => setZoom(stepZoom(scale, -1))}
            disabled={!count}
          >
            <span aria-hidden="true">−</span> <span className="sr-only">{t('widgets.pdf.zoomOut')}</span>
          </button>
          <span aria-live="polite">{t('widgets.pdf.zoom', { percent: Math.round(scale * 100) })}</span>
          <button
            type="button"
            className="btn btn--ghost"
            onClick={() => setZoom(stepZoom(scale, 1))}
            disabled={!count}
          >
            <span aria-hidden="true">+</span> <span className="sr-only">{t('widgets.pdf.zoomIn')}</span>
          </button>
          <button
            type="button"
            className="btn btn--ghost"
            aria-pressed={zoom === 'fit'}
            onClick={() => setZoom('fit')}
            disabled={!count}
          >
            {t('widgets.pdf.fit')}
          </button>
        </span>
        <a className="btn btn--ghost" href={url} download={name}>
          <Icon name="document" /> {t('widgets.pdf.download')}{' '}
          <span className="sr-only">{truncateFileName(name)}</span>
        </a>
      </div>
      {failed ? (
        <p role="alert">{t('widgets.pdf.failed')}</p>
      ) : (
        // A scrollable page must be focusable (axe scrollable-region-focusable), and focused it pages
        // by keyboard: a named region, not a widget role that would hide the text layer.
        // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
        <div
          ref={frame}
          onKeyDown={onKeyDown}
          className="pdf-viewer__frame"
          // Focusable so the keyboard pages it and scrolls it when zoomed in (WCAG 2.1.1).
          // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
          tabIndex={0}
          role="region"
          aria-label={status ? `${label} — ${status}` : label}
          aria-busy={!count}
        >
          <div className="pdf-viewer__page">
            <canvas ref={canvas} aria-hidden="true" />
            <div ref={textLayer} className="textLayer" />
          </div>
        </div>
      )}
      <p className="sr-only" aria-live="polite">
        {status}
      </p>
    </section>
  );
}
