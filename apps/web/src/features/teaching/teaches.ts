import type { Document, Resource } from '@parcours/domain/entities';
import { useEffect, useState } from 'react';
import { apiFetch } from '../../lib/api-client';

/**
 * Whether the signed-in user teaches a class: the user menu offers "My classes" (decision 0019)
 * only then. Asked once per user and page load (one TEACHER membership is enough); a failure
 * counts as no, the menu is not worth an error.
 */
const asked = new Map<string, Promise<boolean>>();

export function teaches(userId: string): Promise<boolean> {
  let answer = asked.get(userId);
  if (!answer) {
    answer = apiFetch<Document<Resource[]>>('class-users', {
      query: { 'filter[role]': 'TEACHER', 'page[size]': 1 },
    }).then(
      (doc) => doc.data.length > 0,
      () => false,
    );
    asked.set(userId, answer);
  }
  return answer;
}

export function useTeaches(userId: string): boolean {
  const [known, setKnown] = useState<{ userId: string; value: boolean } | null>(null);
  useEffect(() => {
    let live = true;
    // Only a yes re-renders the menu: a learner's menu never changes under their focus.
    void teaches(userId).then((value) => {
      if (live && value) setKnown({ userId, value });
    });
    return () => {
      live = false;
    };
  }, [userId]);
  return known?.userId === userId && known.value;
}
