import { Suspense, useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { Icon } from '../../../components/ui/Icon';
import { useTranslation } from '../../../lib/i18n';
import type { RowProps } from '../row-props';
import { fileUrl } from '../shared/file-url';

interface OfferedFile {
  id: string;
  name?: string;
  url?: string;
  type?: string;
}

/**
 * medias-by-mail: the documents a learner can receive by e-mail (docs/product.md §2). Each one is also a
 * download, so nothing depends on the mail arriving; the dialog (from features/contact, given by
 * the app through `DocumentsDialog`) previews them and sends the chosen ones.
 */
export function MediasByMail({ row, DocumentsDialog }: RowProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const files = (Array.isArray(row.appFiles) ? row.appFiles : []) as OfferedFile[];
  if (files.length === 0) return null;
  return (
    <div className="medias-by-mail">
      <ul className="file-list" aria-label={t('exercises.mediasByMail.files')}>
        {files.map((file) => (
          <li key={file.id}>
            <a href={fileUrl(file) ?? '#'} target="_blank" rel="noopener noreferrer" download={file.name}>
              <Icon name="document" /> {file.name ?? t('exercises.media.download')}
              <span className="sr-only"> {t('common.newTab')}</span>
            </a>
          </li>
        ))}
      </ul>
      {DocumentsDialog ? (
        <>
          <Button variant="secondary" onClick={() => setOpen(true)}>
            {t('exercises.mediasByMail.send')}
          </Button>
          {open ? (
            <Suspense fallback={null}>
              <DocumentsDialog
                isOpen={open}
                onOpenChange={setOpen}
                title={row.title ?? undefined}
                files={files.map((f) => ({
                  id: f.id,
                  name: f.name ?? f.id,
                  type: f.type ?? '',
                  ...(f.url ? { url: f.url } : {}),
                }))}
              />
            </Suspense>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
