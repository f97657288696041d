import { lazy, Suspense, useEffect, useState } from 'react';
import { Spinner } from '../../../components/ui/Spinner';
import { useTranslation } from '../../../lib/i18n';
import { hasMainPlayer, playOverMain } from '../sound/page-sound';
import { SoundPlayer } from '../sound/SoundPlayer';
import { VideoDialog } from '../video/VideoDialog';
import { mediaKindOf, truncateFileName } from './media-rules';
import '../widgets.css';

const PdfViewer = lazy(() => import('../pdf/PdfViewer').then((m) => ({ default: m.PdfViewer })));

/** A file of the resources list; `url` is the one the API gave (signed for the learner). */
export interface ViewedFile {
  id: string;
  name: string;
  url: string;
  mimeType?: string;
  fileType?: string;
}

/**
 * Opens a resource file in its widget: a PDF in the viewer, a sound as the player's temporary
 * track (closing it ends the viewing), a video in the video dialog, an image as it is.
 */
export function FileViewer({ file, onClose }: { file: ViewedFile; onClose: () => void }) {
  const { t } = useTranslation();
  switch (mediaKindOf(file)) {
    case 'pdf':
      return (
        <Suspense fallback={<Spinner label={t('widgets.pdf.loading')} />}>
          <PdfViewer url={file.url} name={file.name} />
        </Suspense>
      );
    case 'audio':
      return <ResourceSound file={file} onClose={onClose} />;
    case 'video':
      return (
        <VideoDialog
          isOpen
          title={file.name}
          source={{ kind: 'file', url: file.url, mimeType: file.mimeType }}
          onClose={onClose}
        />
      );
    case 'image':
      return <img className="media media--lone" src={file.url} alt={truncateFileName(file.name)} />;
    default:
      return (
        <p>
          <a href={file.url} download={file.name}>
            {truncateFileName(file.name)}
          </a>
        </p>
      );
  }
}

/**
 * docs/product.md §4: a resource's sound plays as the temporary track over the page's main sound,
 * in the page's own player (closing it there gives the main track back); a page without a sound
 * of its own plays it here.
 */
function ResourceSound({ file, onClose }: { file: ViewedFile; onClose: () => void }) {
  const { t } = useTranslation();
  // The page's players registered when they mounted, before the resources were opened.
  const [overMain] = useState(hasMainPlayer);
  useEffect(() => {
    if (overMain) playOverMain({ src: file.url, name: file.name });
  }, [overMain, file.url, file.name]);
  if (overMain)
    return (
      <p className="sound-player__elsewhere">
        {t('widgets.sound.overMain', { name: truncateFileName(file.name) })}
      </p>
    );
  return (
    <SoundPlayer main={null} temporary={{ src: file.url, name: file.name }} onCloseTemporary={onClose} />
  );
}
