/** POST log-book-records (a new note about oneself) and PATCH log-book-records/{id} (one's own). */
import type { LogBookNote, LogBookRecordAttributes } from '@parcours/domain/logbook';
import type { Document, Resource } from '@parcours/domain/entities';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../../lib/api-client';
import { outgoingRecord } from '../../../../lib/outgoing-record';
import { logbookKeys } from './query-keys';

type RecordDocument = Document<Resource<'log-book-records', LogBookRecordAttributes>>;

/** The fields a note sends (docs/product.md §5 outgoing records: nothing else goes). */
const NOTE_FIELDS = ['title', 'message', 'attachmentIds'] as const;

export function createLogBookRecord(note: LogBookNote): Promise<RecordDocument> {
  return apiFetch<RecordDocument>('log-book-records', {
    method: 'POST',
    body: outgoingRecord(note, { tracked: NOTE_FIELDS, replace: true }),
  });
}

/** Only what changed since `before` (the note as saved); null when nothing did: no call is made. */
export async function updateLogBookRecord(
  id: string,
  note: LogBookNote,
  before?: Partial<LogBookNote>,
): Promise<RecordDocument | null> {
  const body = outgoingRecord(note, { tracked: NOTE_FIELDS, before });
  if (Object.keys(body).length === 0) return null;
  return apiFetch<RecordDocument>(`log-book-records/${encodeURIComponent(id)}`, { method: 'PATCH', body });
}

/** Creates when `id` is null, else edits; either way the notes are read again. */
export function useSaveLogBookRecord() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      id,
      note,
      before,
    }: {
      id: string | null;
      note: LogBookNote;
      before?: Partial<LogBookNote>;
    }) => (id ? updateLogBookRecord(id, note, before) : createLogBookRecord(note)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: logbookKeys.all }),
  });
}
