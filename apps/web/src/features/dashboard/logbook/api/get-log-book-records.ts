import type { LogBookRecordAttributes, UploadedFileAttributes } from '@parcours/domain/logbook';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchCollection } from '../../../../lib/api-collection';
import { indexDocument, relatedMany, relatedOne } from '../../../../lib/json-api';
import { logbookKeys } from './query-keys';

export interface Attachment extends UploadedFileAttributes {
  id: string;
}

/** A note as the tab shows it: its attributes, its author's display name and its attachments. */
export interface LogbookNote extends LogBookRecordAttributes {
  id: string;
  authorName: string;
  attachments: Attachment[];
}

/**
 * GET log-book-records about the learner (SPEC §7: filter studentId, populate user), newest
 * first, every page: Print must print all the notes, so the tab holds them all.
 */
export async function getLogBookRecords(studentId: string, signal?: AbortSignal): Promise<LogbookNote[]> {
  const doc = await fetchCollection<LogBookRecordAttributes>(
    'log-book-records',
    { 'filter[studentId]': studentId, sort: '-createdAt', include: 'user,attachments' },
    signal,
  );
  const index = indexDocument(doc);
  return doc.data.map((record) => ({
    ...record.attributes,
    id: record.id,
    authorName: relatedOne<{ displayName: string }>(record, 'user', index)?.attributes.displayName ?? '',
    attachments: relatedMany<UploadedFileAttributes>(record, 'attachments', index).map((file) => ({
      ...file.attributes,
      id: file.id,
    })),
  }));
}

export const logBookRecordsQueryOptions = (studentId: string) =>
  queryOptions({
    queryKey: logbookKeys.notes(studentId),
    queryFn: ({ signal }) => getLogBookRecords(studentId, signal),
  });

export function useLogBookRecords(studentId: string) {
  return useQuery(logBookRecordsQueryOptions(studentId));
}
