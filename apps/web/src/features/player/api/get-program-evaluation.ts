import type { ClassProgramAttributes, Document, Resource } from '@parcours/domain/entities';
import { apiFetch } from '../../../lib/api-client';
import type { LessonResource } from './get-lesson';

/**
 * The program whose evaluation is due after this lesson, or null (docs/product.md §4): the lesson is
 * complete, ends its program, and the learner has not reviewed that program yet. The reviews
 * call may not exist on the server yet: any failure reads as "not due", never as an error.
 */
export async function getDueProgramEvaluation(
  lesson: LessonResource,
  userId: string | null,
): Promise<string | null> {
  const { progress, isEndOfProgram, classProgramId } = lesson.attributes;
  if (progress !== 'COMPLETED' || !isEndOfProgram || !classProgramId) return null;
  try {
    const classProgram = await apiFetch<Document<Resource<string, ClassProgramAttributes>>>(
      `class-programs/${encodeURIComponent(classProgramId)}`,
    );
    const programId = classProgram.data.attributes.programId;
    const reviews = await apiFetch<Document<unknown[]>>('reviews', {
      query: {
        'filter[resourceType]': 'program',
        'filter[resourceId]': programId,
        'filter[userId]': userId,
        'page[size]': 1,
      },
    });
    return reviews.data.length === 0 ? programId : null;
  } catch {
    return null;
  }
}
