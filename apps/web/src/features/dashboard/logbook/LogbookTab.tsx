import { useState } from 'react';
import { Alert } from '../../../components/ui/Alert';
import { Button } from '../../../components/ui/Button';
import { Spinner } from '../../../components/ui/Spinner';
import { errorCodeOf } from '../../../lib/api-errors';
import { dateLocaleOf, formatDate } from '../../../lib/format';
import { errorKeys, useTranslation } from '../../../lib/i18n';
import { useSession } from '../../../lib/session';
import type { LogbookNote } from './api/get-log-book-records';
import { useLogBookRecords } from './api/get-log-book-records';
import { NoteCard } from './components/NoteCard';
import { NoteDialog } from './components/NoteDialog';
import './logbook.css';

/** Which dialog is open: none, a new note, or the note being edited. */
type Editing = { note: LogbookNote | null } | null;

/**
 * The dashboard's logbook tab (docs/product.md §2 Logbook): the learner's notes, newest first, with Print,
 * "Add a note" and, on the learner's own notes, edit. Rendered by the dashboard shell inside its
 * tab panel, under the shell's <h2>. Print uses the browser's dialog; logbook.css hides
 * everything but the notes on paper.
 */
export function LogbookTab() {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const me = session.user?._id ?? null;
  const notes = useLogBookRecords('me');
  const [editing, setEditing] = useState<Editing>(null);

  return (
    <div className="logbook">
      <div className="logbook__toolbar logbook-no-print">
        <Button onClick={() => setEditing({ note: null })}>{t('logbook.add')}</Button>
        <Button variant="secondary" onClick={() => window.print()}>
          {t('logbook.print')}
        </Button>
      </div>
      {/* On paper, whose logbook and when: a printout leaves the screen that said it. */}
      <p className="logbook__print-only">
        {t('logbook.printHeader', {
          name: session.user?.profile.displayName ?? '',
          date: formatDate(new Date().toISOString(), dateLocaleOf(i18n.language)),
        })}
      </p>
      {notes.isPending ? (
        <Spinner label={t('common.loading')} />
      ) : notes.isError ? (
        <Alert tone="error" title={t(errorKeys(errorCodeOf(notes.error)).title)}>
          <Button variant="secondary" onClick={() => void notes.refetch()}>
            {t('common.retry')}
          </Button>
        </Alert>
      ) : notes.data.length === 0 ? (
        <p className="logbook__empty">{t('logbook.empty')}</p>
      ) : (
        <ol className="logbook__list" aria-label={t('logbook.listLabel')}>
          {notes.data.map((note) => (
            <li key={note.id}>
              <NoteCard
                note={note}
                {...(note.userId === me ? { onEdit: (n: LogbookNote) => setEditing({ note: n }) } : {})}
              />
            </li>
          ))}
        </ol>
      )}
      {editing ? <NoteDialog note={editing.note} onClose={() => setEditing(null)} /> : null}
    </div>
  );
}
