import { useTranslation } from '../../../lib/i18n';
import '../widgets.css';
import type { PublicRowView } from '@parcours/domain/entities';
import { videoEmbedUrl } from './video-url';
import { logOnly } from '../../../lib/log-only';

/** An embedded video (docs/product.md §9: half the width on large screens, 16/9), or a link when the address is not embeddable. */
export function VideoEmbed({ url, title }: { url: string; title: string }) {
  const { t } = useTranslation();
  const embed = videoEmbedUrl(url);
  if (!embed) {
    logOnly('video link not embeddable', url);
    return url ? (
      <p>
        <a href={url} target="_blank" rel="noopener noreferrer">
          {title || t('widgets.video.watch')} <span className="sr-only">{t('common.newTab')}</span>
        </a>
      </p>
    ) : null;
  }
  return (
    <div className="video-embed">
      <iframe
        src={embed}
        title={title || t('widgets.video.title')}
        loading="lazy"
        allow="fullscreen; picture-in-picture; encrypted-media"
        allowFullScreen
        referrerPolicy="strict-origin-when-cross-origin"
      />
    </div>
  );
}

/** video-external: a YouTube, Vimeo or Dailymotion video. */
export function VideoExternal({ row }: { row: PublicRowView }) {
  return (
    <VideoEmbed
      url={typeof row.url === 'string' ? row.url : ''}
      title={typeof row.title === 'string' ? row.title : ''}
    />
  );
}
