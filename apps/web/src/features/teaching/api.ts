import type { ClassAttributes, ClassUserAttributes } from '@parcours/domain/entities';
import type { TimeAccommodationInput } from '@parcours/domain/time-accommodation';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api-client';
import { fetchCollection } from '../../lib/api-collection';
import { indexDocument, relatedOne } from '../../lib/json-api';

/** The calls of the teacher's class screen (docs/api.md "Teaching", decision 0019). */

export interface TaughtClass {
  id: string;
  name: string;
}

export interface TimeAccommodationView {
  timeFactor: number | null;
  noTimeLimit: boolean;
}

export interface ClassLearner {
  userId: string;
  displayName: string;
  timeAccommodation: TimeAccommodationView;
}

const keys = {
  classes: ['teaching', 'classes'] as const,
  learners: (classId: string) => ['teaching', 'learners', classId] as const,
};

/** The classes the signed-in user teaches (their TEACHER memberships), by name. */
async function getTaughtClasses(signal?: AbortSignal): Promise<TaughtClass[]> {
  const doc = await fetchCollection<ClassUserAttributes>(
    'class-users',
    { 'filter[role]': 'TEACHER', include: 'class' },
    signal,
  );
  const index = indexDocument(doc);
  return doc.data
    .map((m) => relatedOne<ClassAttributes>(m, 'class', index))
    .filter((c) => c !== null)
    .map((c) => ({ id: c.id, name: c.attributes.name }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export function useTaughtClasses() {
  return useQuery({ queryKey: keys.classes, queryFn: ({ signal }) => getTaughtClasses(signal) });
}

interface LearnerData {
  userId: string;
  displayName: string;
  timeAccommodation: TimeAccommodationView;
}

/** SPEC §7 classes/{id}/users/data (role TEACHER): the class's learners with their accommodation. */
async function getClassLearners(classId: string, signal?: AbortSignal): Promise<ClassLearner[]> {
  const doc = await apiFetch<{ data: { attributes: LearnerData }[] }>(
    `classes/${encodeURIComponent(classId)}/users/data`,
    { signal },
  );
  return doc.data.map(({ attributes: a }) => ({
    userId: a.userId,
    displayName: a.displayName,
    timeAccommodation: a.timeAccommodation,
  }));
}

export function useClassLearners(classId: string) {
  return useQuery({
    queryKey: keys.learners(classId),
    queryFn: ({ signal }) => getClassLearners(classId, signal),
  });
}

/** PUT classes/{id}/users/{userId}/time-accommodation; the class's list is read again after. */
export function useSetTimeAccommodation(classId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, input }: { userId: string; input: TimeAccommodationInput }) =>
      apiFetch<{ data: { attributes: TimeAccommodationView } }>(
        `classes/${encodeURIComponent(classId)}/users/${encodeURIComponent(userId)}/time-accommodation`,
        { method: 'PUT', body: input },
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.learners(classId) }),
  });
}
