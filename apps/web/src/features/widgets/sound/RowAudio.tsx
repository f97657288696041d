import { useTranslation } from '../../../lib/i18n';
import { useFile } from '../api/get-file';
import { htmlPlayerKind, truncateFileName } from '../media/media-rules';
import { SoundPlayer } from './SoundPlayer';
import { logOnly } from '../../../lib/log-only';

/**
 * A row's own sound (row setting `audioFileId`), played by the docs/product.md §4 player; `autoplay`
 * honoured. The infos call's `htmlPlayer` decides whether it is played: a file without an audio
 * player (not a sound) is offered for download instead.
 */
export function RowAudio({ fileId, autoPlay }: { fileId: string; autoPlay: boolean }) {
  const { t } = useTranslation();
  const file = useFile(fileId);
  if (file.isError) {
    logOnly('file missing: row sound', fileId);
    return null;
  }
  if (!file.data) return null;
  const name = file.data.name || t('widgets.sound.rowAudio');
  if (htmlPlayerKind(file.data.htmlPlayer) !== 'audio')
    return (
      <p className="row-audio">
        <a href={file.data.download} download={file.data.name}>
          {t('widgets.media.downloadNamed', { name: truncateFileName(name) })}
        </a>
      </p>
    );
  return (
    <div className="row-audio">
      <SoundPlayer main={{ src: file.data.download, name }} autoPlay={autoPlay} />
    </div>
  );
}
