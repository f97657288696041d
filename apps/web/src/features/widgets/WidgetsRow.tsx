import type { PublicRowView } from '@parcours/domain/entities';
import { lazy, Suspense, useState } from 'react';
import { RichText } from '../../components/ui/RichText';
import { Spinner } from '../../components/ui/Spinner';
import { useTranslation } from '../../lib/i18n';
import { CountdownWidget } from './countdown/CountdownWidget';
import { SoundPlayer } from './sound/SoundPlayer';
import { VideoButton } from './video/VideoButton';
import './widgets.css';

const PdfViewer = lazy(() => import('./pdf/PdfViewer').then((m) => ({ default: m.PdfViewer })));
const Calculator = lazy(() => import('./calculator/Calculator').then((m) => ({ default: m.Calculator })));

interface Widget {
  kind?: unknown;
  html?: unknown;
  seconds?: unknown;
  url?: unknown;
  appFile?: { id: string; name?: string; url?: string; type?: string } | null;
}

// Only the URL the API gave: it is signed for the learner (docs/api.md "Files").
const downloadUrl = (file: Widget['appFile']) => (file?.url ? file.url : null);

function CalculatorWidget() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="btn btn--secondary"
        aria-pressed={open}
        onClick={() => setOpen((o) => !o)}
      >
        {t('widgets.calculator.open')}
      </button>
      {open ? (
        <Suspense fallback={null}>
          <Calculator onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}

function WidgetView({ widget }: { widget: Widget }) {
  const { t } = useTranslation();
  switch (widget.kind) {
    case 'richtext':
      return <RichText className="rich-text" html={typeof widget.html === 'string' ? widget.html : ''} />;
    case 'countdown':
      return <CountdownWidget seconds={Number(widget.seconds) || 60} />;
    case 'calculator':
      return <CalculatorWidget />;
    case 'video': {
      // A link of the supported form (docs/product.md §5), or a stored video played by the browser.
      const src = downloadUrl(widget.appFile);
      if (src)
        return <VideoButton title="" source={{ kind: 'file', url: src, mimeType: widget.appFile?.type }} />;
      return typeof widget.url === 'string' && widget.url ? (
        <VideoButton title="" source={{ kind: 'external', url: widget.url }} />
      ) : null;
    }
    case 'sound': {
      const src = downloadUrl(widget.appFile);
      return src ? <SoundPlayer main={{ src, name: widget.appFile?.name ?? '' }} /> : null;
    }
    case 'pdf': {
      const src = downloadUrl(widget.appFile);
      return src ? (
        <Suspense fallback={<Spinner label={t('widgets.pdf.loading')} />}>
          <PdfViewer url={src} name={widget.appFile?.name ?? ''} />
        </Suspense>
      ) : null;
    }
    default:
      return null;
  }
}

/** A `widgets` row: calculator, countdown, PDF, sound, video and rich text (docs/product.md §1). */
export function WidgetsRow({ row }: { row: PublicRowView }) {
  const widgets = (Array.isArray(row.widgets) ? row.widgets : []) as Widget[];
  return (
    <div className="widgets">
      {widgets.map((widget, i) => (
        <div key={i} className={`widget widget--${String(widget.kind)}`}>
          <WidgetView widget={widget} />
        </div>
      ))}
    </div>
  );
}
