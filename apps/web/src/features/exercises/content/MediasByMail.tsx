import { useTranslation } from '../../../lib/i18n';
import type { RowProps } from '../row-props';
import { fileUrl } from '../shared/file-url';

/**
 * medias-by-mail: the documents offered by e-mail. The sending call is not part of the contract
 * yet, so each document is offered as a download the learner can keep.
 */
export function MediasByMail({ row }: RowProps) {
  const { t } = useTranslation();
  const files = (Array.isArray(row.appFiles) ? row.appFiles : []) as { id: string; name?: string; url?: string }[];
  if (files.length === 0) return null;
  return (
    <ul className="file-list" aria-label={t('exercises.mediasByMail.files')}>
      {files.map((file) => (
        <li key={file.id}>
          <a href={fileUrl(file) ?? '#'} target="_blank" rel="noopener noreferrer" download={file.name}>
            <span aria-hidden="true">📄 </span>
            {file.name ?? t('exercises.media.download')}
            <span className="sr-only"> {t('common.newTab')}</span>
          </a>
        </li>
      ))}
    </ul>
  );
}
