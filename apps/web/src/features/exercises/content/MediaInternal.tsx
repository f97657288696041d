import { useTranslation } from '../../../lib/i18n';
import type { RowProps } from '../row-props';

interface AppFile {
  id: string;
  name?: string;
  type?: string;
  fileType?: string;
  url?: string;
}

/** What kind of player a stored file needs, from its file type or mime type. */
export function mediaKind(file: AppFile): 'image' | 'audio' | 'video' | 'pdf' | 'other' {
  const mime = file.type ?? '';
  if (file.fileType === 'image' || mime.startsWith('image/')) return 'image';
  if (file.fileType === 'audio' || mime.startsWith('audio/')) return 'audio';
  if (file.fileType === 'video' || mime.startsWith('video/')) return 'video';
  if (file.fileType === 'pdf' || mime === 'application/pdf') return 'pdf';
  return 'other';
}

/**
 * media-internal: an image, sound or video stored with the course, with the browser's own
 * controls. Where the player is composed (app/screens) the widgets' MediaRow takes its place:
 * PDFs in the viewer, sounds in the docs/product.md §4 player.
 */
export function MediaInternal({ row }: RowProps) {
  const { t } = useTranslation();
  const file = row.appFile as AppFile | null | undefined;
  // Only the URL the API gave: it is signed for the learner (docs/api.md "Files").
  const src = typeof file?.url === 'string' && file.url ? file.url : null;
  if (!file || !src) return null;
  const alt = typeof row.alt === 'string' ? row.alt : '';
  switch (mediaKind(file)) {
    case 'image':
      return <img className="media media--image" src={src} alt={alt} loading="lazy" />;
    case 'audio':
      return (
        // eslint-disable-next-line jsx-a11y/media-has-caption -- course sounds come without captions; the row's text carries the content
        <audio
          className="media media--audio"
          src={src}
          controls
          preload="metadata"
          aria-label={alt || file.name}
          autoPlay={row.settings?.autoplay === true}
        />
      );
    case 'video':
      return (
        // eslint-disable-next-line jsx-a11y/media-has-caption -- captions are not part of the content format yet
        <video
          className="media media--video"
          src={src}
          controls
          preload="metadata"
          aria-label={alt || file.name}
        />
      );
    default:
      return (
        <p>
          <a href={src} target="_blank" rel="noopener noreferrer">
            {file.name ?? t('exercises.media.download')} <span className="sr-only">{t('common.newTab')}</span>
          </a>
        </p>
      );
  }
}
