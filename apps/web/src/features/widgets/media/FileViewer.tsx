import { lazy, Suspense } from 'react';
import { Spinner } from '../../../components/ui/Spinner';
import { useTranslation } from '../../../lib/i18n';
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
      return (
        <SoundPlayer main={null} temporary={{ src: file.url, name: file.name }} onCloseTemporary={onClose} />
      );
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
