import type { Document, LessonAttributes, Resource } from '@parcours/domain/entities';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { lessonPath } from './get-lesson';

export interface ActionInput {
  actionIdx: number;
  choiceIdx: number;
}

/** Sends the learner's answers to the lesson's interactive questions; answers the lesson they open. */
export async function postAction(
  lessonId: string,
  inputs: readonly ActionInput[],
): Promise<Resource<string, LessonAttributes>> {
  const doc = await apiFetch<Document<Resource<string, LessonAttributes>>>(
    `${lessonPath(lessonId)}/actions`,
    {
      method: 'POST',
      body: { inputs },
    },
  );
  return doc.data;
}

export function usePostAction(lessonId: string) {
  return useMutation({ mutationFn: (inputs: readonly ActionInput[]) => postAction(lessonId, inputs) });
}
