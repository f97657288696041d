import type { PublicRowView } from '@parcours/domain/entities';
import { lazy, Suspense } from 'react';
import { Spinner } from '../../../components/ui/Spinner';
import { useTranslation } from '../../../lib/i18n';
import { SoundPlayer } from '../sound/SoundPlayer';
import { mediaKindOf, truncateFileName } from './media-rules';
import '../widgets.css';

const PdfViewer = lazy(() => import('../pdf/PdfViewer').then((m) => ({ default: m.PdfViewer })));

interface AppFile {
  id: string;
  name?: string;
  type?: string;
  fileType?: string;
  url?: string;
}

/**
 * media-internal row as the player shows it: an image, a sound in the docs/product.md §4 player, a video of
 * a supported type, a PDF in the viewer (its library loaded only then), else a download link.
 * It takes the place of exercises' plain MediaInternal where the player is composed (app/screens).
 */
export function MediaRow({ row }: { row: PublicRowView }) {
  const { t } = useTranslation();
  const file = row.appFile as AppFile | null | undefined;
  // Only the URL the API gave: it is signed for the learner (docs/api.md "Files").
  const src = typeof file?.url === 'string' && file.url ? file.url : null;
  if (!file || !src) return null;
  const name = file.name ?? '';
  const alt = typeof row.alt === 'string' ? row.alt : '';
  const lone = 'media media--lone';
  switch (mediaKindOf(file)) {
    case 'image':
      return <img className={lone} src={src} alt={alt} loading="lazy" />;
    case 'audio':
      return <SoundPlayer main={{ src, name: alt || name }} autoPlay={row.settings?.autoplay === true} />;
    case 'video':
      return (
        // eslint-disable-next-line jsx-a11y/media-has-caption -- captions are not part of the content format yet
        <video
          className={`${lone} media--video`}
          controls
          preload="metadata"
          aria-label={alt || name}
          autoPlay={row.settings?.autoplay === true}
          muted={row.settings?.autoplay === true}
        >
          <source src={src} type={file.type} />
        </video>
      );
    case 'pdf':
      return (
        <Suspense fallback={<Spinner label={t('widgets.pdf.loading')} />}>
          <PdfViewer url={src} name={name} />
        </Suspense>
      );
    default:
      return (
        <p>
          <a href={src} download={name}>
            {name ? truncateFileName(name) : t('widgets.media.download')}
          </a>
        </p>
      );
  }
}
