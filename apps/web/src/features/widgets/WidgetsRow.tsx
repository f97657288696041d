import type { PublicRowView } from '@parcours/domain/entities';
import { lazy, Suspense, useState } from 'react';
import { Icon } from '../../components/ui/Icon';
import { RichText } from '../../components/ui/RichText';
import { useTranslation } from '../../lib/i18n';
import { CountdownWidget } from './countdown/CountdownWidget';
import { SoundPlayer } from './sound/SoundPlayer';
import { VideoEmbed } from './video/VideoEmbed';
import './widgets.css';

const Calculator = lazy(() => import('./calculator/Calculator').then((m) => ({ default: m.Calculator })));

interface Widget {
  kind?: unknown;
  html?: unknown;
  seconds?: unknown;
  url?: unknown;
  appFile?: { id: string; name?: string; url?: string } | null;
}

const downloadUrl = (file: Widget['appFile']) =>
  file ? (file.url ?? `/api/files/${encodeURIComponent(file.id)}/download`) : null;

function CalculatorWidget() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="btn btn--secondary" aria-pressed={open} onClick={() => setOpen((o) => !o)}>
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
    case 'video':
      return <VideoEmbed url={typeof widget.url === 'string' ? widget.url : ''} title="" />;
    case 'sound': {
      const src = downloadUrl(widget.appFile);
      return src ? <SoundPlayer src={src} name={widget.appFile?.name ?? ''} /> : null;
    }
    case 'pdf': {
      // The PDF viewer (pdfjs) is not installed: the document opens in the browser's own viewer.
      const src = downloadUrl(widget.appFile);
      return src ? (
        <p>
          <a className="btn btn--secondary" href={src} target="_blank" rel="noopener noreferrer">
            <Icon name="document" /> {t('widgets.pdf.open', { name: widget.appFile?.name ?? '' })}
            <span className="sr-only"> {t('common.newTab')}</span>
          </a>
        </p>
      ) : null;
    }
    default:
      return null;
  }
}

/** A `widgets` row: calculator, countdown, PDF, sound, video and rich text (SPEC §1). */
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
