import { Icon } from '../../../../components/ui/Icon';
import { useTranslation } from '../../../../lib/i18n';
import type { Attachment } from '../api/get-log-book-records';

/**
 * An attachment of a note: a thumbnail for a picture, a document link for a PDF. Both open the
 * file in a new tab; the link text (or the picture's alternative) is the file's name.
 */
export function AttachmentLink({ file }: { file: Attachment }) {
  const { t } = useTranslation();
  const label = `${t('logbook.openAttachment', { name: file.name })} ${t('common.newTab')}`;
  return (
    <a className="logbook-attachment" href={file.download} target="_blank" rel="noopener" aria-label={label}>
      {file.fileType === 'image' ? (
        <img
          className="logbook-attachment__thumb"
          src={file.download}
          alt=""
          loading="lazy"
          width={96}
          height={96}
        />
      ) : (
        <Icon name="document" className="logbook-attachment__icon" />
      )}
      <span className="logbook-attachment__name">{file.name}</span>
    </a>
  );
}
