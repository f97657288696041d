/** POST log-book-records (a new note about oneself) and PATCH log-book-records/{id} (one's own). */
import type { LogBookNote, LogBookRecordAttributes } from '@parcours/domain/logbook';
import type { Document, Resource } from '@parcours/domain/entities';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../../lib/api-client';
import { logbookKeys } from './query-keys';

type RecordDocument = Document<Resource<'log-book-records', LogBookRecordAttributes>>;

export function createLogBookRecord(note: LogBookNote): Promise<RecordDocument> {
  return apiFetch<RecordDocument>('log-book-records', { method: 'POST', body: note });
}

export function updateLogBookRecord(id: string, note: LogBookNote): Promise<RecordDocument> {
  return apiFetch<RecordDocument>(`log-book-records/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: note,
  });
}

/** Creates when `id` is null, else edits; either way the notes are read again. */
export function useSaveLogBookRecord() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, note }: { id: string | null; note: LogBookNote }) =>
      id ? updateLogBookRecord(id, note) : createLogBookRecord(note),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: logbookKeys.all }),
  });
}
