import type {
  ClassAttributes,
  ClassProgramAttributes,
  ClassUserAttributes,
  ProgramAttributes,
} from '@parcours/domain/entities';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchCollection } from '../../../lib/api-collection';
import { indexDocument, relatedMany, relatedOne } from '../../../lib/json-api';
import { getActiveLesson } from '../../../lib/storage';
import { progressionKeys } from './query-keys';

export interface ProgramClass {
  /** The class the review is given in (SPEC §3 Review.classId); null: the learner does not follow it. */
  classId: string | null;
  programName: string | null;
}

/**
 * The evaluate route names only the program; the review also needs the class. The class of the
 * lesson just finished (SPEC §7 session key) wins, else the first class that holds the program.
 */
export async function getProgramClass(programId: string, signal?: AbortSignal): Promise<ProgramClass> {
  const doc = await fetchCollection<ClassUserAttributes>(
    'class-users',
    { 'filter[role]': 'STUDENT', sort: '-createdAt', include: 'class.classPrograms.program' },
    signal,
  );
  const index = indexDocument(doc);
  const candidates: { classId: string; programName: string }[] = [];
  for (const classUser of doc.data) {
    const cls = relatedOne<ClassAttributes>(classUser, 'class', index);
    if (!cls) continue;
    for (const classProgram of relatedMany<ClassProgramAttributes>(cls, 'classPrograms', index)) {
      if (classProgram.attributes.programId !== programId) continue;
      const program = relatedOne<ProgramAttributes>(classProgram, 'program', index);
      candidates.push({ classId: cls.id, programName: program?.attributes.name ?? '' });
    }
  }
  const activeClassId = getActiveLesson()?.classId;
  const chosen = candidates.find((c) => c.classId === activeClassId) ?? candidates[0];
  return chosen
    ? { classId: chosen.classId, programName: chosen.programName || null }
    : { classId: null, programName: null };
}

export const programClassQueryOptions = (programId: string) =>
  queryOptions({
    queryKey: progressionKeys.programClass(programId),
    queryFn: ({ signal }) => getProgramClass(programId, signal),
  });

export function useProgramClass(programId: string) {
  return useQuery(programClassQueryOptions(programId));
}
