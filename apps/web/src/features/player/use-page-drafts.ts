/**
 * The learner's answers not sent yet, per page (a page's first draft is what it shows: its
 * recorded answers, or empty rows). A read-only page takes no change.
 */
import { useState } from 'react';
import type { LessonPage } from './api/lesson-page';
import { initialAnswers } from './player-model';

export function usePageDrafts(page: LessonPage | null, readOnly: boolean) {
  const [drafts, setDrafts] = useState<Record<string, unknown[]>>({});
  const answers = page ? (drafts[page.id] ?? initialAnswers(page)) : [];

  const setAnswer = (rowIndex: number, value: unknown) => {
    if (!page || readOnly) return;
    setDrafts((all) => {
      const base = all[page.id] ?? initialAnswers(page);
      const copy = [...base];
      copy[rowIndex] = value;
      return { ...all, [page.id]: copy };
    });
  };

  return { answers, setAnswer };
}
