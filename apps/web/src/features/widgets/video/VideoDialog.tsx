import { Button } from '../../../components/ui/Button';
import { Dialog } from '../../../components/ui/Dialog';
import { useTranslation } from '../../../lib/i18n';
import { VideoEmbed } from './VideoEmbed';

export type VideoSource =
  { kind: 'external'; url: string } | { kind: 'file'; url: string; mimeType?: string };

interface VideoDialogProps {
  isOpen: boolean;
  title: string;
  source: VideoSource;
  onClose: () => void;
}

/**
 * docs/product.md §2 video player dialog: an external video (only the watch or short form is embedded,
 * docs/product.md §5) or a stored video of a supported type, played by the browser.
 */
export function VideoDialog({ isOpen, title, source, onClose }: VideoDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog
      isOpen={isOpen}
      title={title || t('widgets.video.title')}
      onDismiss={onClose}
      className="video-dialog"
      actions={
        <Button data-autofocus onClick={onClose}>
          {t('widgets.video.close')}
        </Button>
      }
    >
      {source.kind === 'external' ? (
        <VideoEmbed url={source.url} title={title} />
      ) : (
        // eslint-disable-next-line jsx-a11y/media-has-caption -- captions are not part of the content format yet
        <video
          className="video-dialog__video"
          controls
          preload="metadata"
          aria-label={title || t('widgets.video.title')}
        >
          <source src={source.url} type={source.mimeType} />
        </video>
      )}
    </Dialog>
  );
}
