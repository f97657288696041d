import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { VideoDialog, type VideoSource } from './VideoDialog';

/** A button that opens the video player dialog (docs/product.md §2). */
export function VideoButton({ title, source }: { title: string; source: VideoSource }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="btn btn--secondary"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        {title ? t('widgets.video.watchTitled', { title }) : t('widgets.video.watch')}
      </button>
      {open ? <VideoDialog isOpen title={title} source={source} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
