import type { Locale } from '@parcours/domain/entities';
import { Button } from '../../../../components/ui/Button';
import { useTranslation } from '../../../../lib/i18n';
import type { LogbookNote } from '../api/get-log-book-records';
import { AttachmentLink } from './AttachmentLink';

const formats = new Map<string, Intl.DateTimeFormat>();

/** Date and time of a note in the learner's language ("12 janv. 2026, 08:00"). */
export function formatNoteDate(iso: string, locale: Locale): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  let format = formats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
    formats.set(locale, format);
  }
  return format.format(date);
}

interface NoteCardProps {
  note: LogbookNote;
  /** Only the author of a note may edit it; absent for the others'. */
  onEdit?: (note: LogbookNote) => void;
}

/** One note: title, author, dates, message as typed (plain text) and its attachments. */
export function NoteCard({ note, onEdit }: NoteCardProps) {
  const { t, i18n } = useTranslation();
  const created = formatNoteDate(note.createdAt, i18n.language);
  const edited = note.lastInputAt !== note.createdAt ? formatNoteDate(note.lastInputAt, i18n.language) : null;
  return (
    <article className="logbook-note" aria-labelledby={`note-${note.id}`}>
      <header className="logbook-note__header">
        <h3 id={`note-${note.id}`} className="logbook-note__title">
          {note.title}
        </h3>
        {onEdit ? (
          <Button
            variant="secondary"
            className="logbook-note__edit logbook-no-print"
            // The visible word starts the name, which says which note (label in name, WCAG 2.5.3).
            aria-label={t('logbook.editNote', { title: note.title })}
            onClick={() => onEdit(note)}
          >
            {t('logbook.edit')}
          </Button>
        ) : null}
      </header>
      <p className="logbook-note__meta">
        {note.authorName ? <span>{t('logbook.by', { name: note.authorName })}</span> : null}{' '}
        <time dateTime={note.createdAt}>{t('logbook.createdAt', { date: created })}</time>
        {edited ? (
          <>
            {' '}
            <time dateTime={note.lastInputAt}>{t('logbook.editedAt', { date: edited })}</time>
          </>
        ) : null}
      </p>
      {note.message ? <p className="logbook-note__message">{note.message}</p> : null}
      {note.attachments.length > 0 ? (
        <ul className="logbook-note__attachments" aria-label={t('logbook.attachments')}>
          {note.attachments.map((file) => (
            <li key={file.id}>
              <AttachmentLink file={file} />
            </li>
          ))}
        </ul>
      ) : null}
    </article>
  );
}
