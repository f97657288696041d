import { useTranslation } from '../../../lib/i18n';
import { useFile } from '../api/get-file';
import { SoundPlayer } from './SoundPlayer';

/** A row's own sound (row setting `audioFileId`), played by the SPEC §4 player; `autoplay` honoured. */
export function RowAudio({ fileId, autoPlay }: { fileId: string; autoPlay: boolean }) {
  const { t } = useTranslation();
  const file = useFile(fileId);
  if (file.isError) {
    console.warn('row audio not found', fileId);
    return null;
  }
  if (!file.data) return null;
  return (
    <div className="row-audio">
      <SoundPlayer
        main={{ src: file.data.download, name: file.data.name || t('widgets.sound.rowAudio') }}
        autoPlay={autoPlay}
      />
    </div>
  );
}
