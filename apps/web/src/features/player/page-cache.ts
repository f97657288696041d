/**
 * The page shown lives in ONE place: the query cache entry of the player's route (the lesson's
 * current page, or the page the address names), so the page drawn by the server, the page the
 * app read and the page a move led to are one entry. Every write (answers, hints, moves) is a
 * TanStack Query mutation that writes that entry with `setQueryData`; all of a lesson's writes
 * share one mutation key (what "busy" counts) and one scope (they run one after another, in the
 * order they were started: an answer's move to the next page runs after the answer's own write).
 */
import { useIsMutating, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { LessonPage } from './api/lesson-page';
import { playerKeys } from './api/query-keys';

export interface PageCache {
  /** The page shown, if it still is the page `pageId` (read when a write runs, not at render). */
  current(pageId: string): LessonPage | null;
  /** Shows `page`, while the player shows this entry (a call ending after it closed writes nothing). */
  show(page: LessonPage): void;
  /** Changes the page shown, only while it still is the page `pageId` (the learner may have moved on). */
  update(pageId: string, change: (shown: LessonPage) => LessonPage): void;
  /** Stops a read of the entry in flight: its answer would overwrite the write that follows. */
  cancelRead(): Promise<void>;
  /** Whether one of the lesson's writes is running or waiting its turn. */
  writing(): boolean;
}

export function pageCache(client: QueryClient, lessonId: string, pageId: string | null): PageCache {
  const queryKey = playerKeys.page(lessonId, pageId);
  // Written only while observed: the entry lives while the player shows it (gcTime 0), and a
  // write to an entry nobody shows would make a later visit start from that stale page.
  const observed = () =>
    (client.getQueryCache().find({ queryKey, exact: true })?.getObserversCount() ?? 0) > 0;
  return {
    current(pageId) {
      const shown = client.getQueryData<LessonPage>(queryKey);
      return shown?.id === pageId ? shown : null;
    },
    show(page) {
      if (observed()) client.setQueryData<LessonPage>(queryKey, page);
    },
    update(pageId, change) {
      if (!observed()) return;
      client.setQueryData<LessonPage>(queryKey, (shown) => (shown?.id === pageId ? change(shown) : shown));
    },
    cancelRead: () => client.cancelQueries({ queryKey, exact: true }),
    writing: () => client.isMutating({ mutationKey: playerKeys.writes(lessonId) }) > 0,
  };
}

export function usePageCache(lessonId: string, pageId: string | null): PageCache {
  const client = useQueryClient();
  return useMemo(() => pageCache(client, lessonId, pageId), [client, lessonId, pageId]);
}

/** While a write runs or waits, the buttons that would start another say so (disabled). */
export function useWriting(lessonId: string): boolean {
  return useIsMutating({ mutationKey: playerKeys.writes(lessonId) }) > 0;
}

/**
 * The options every write of the player shares. `networkMode: 'always'`: offline the call must
 * fail at once (not wait paused for the network) so the answer goes to the device's queue
 * (decision 0013), as the page's read does.
 */
export const writeOptions = (lessonId: string) =>
  ({
    mutationKey: playerKeys.writes(lessonId),
    scope: { id: playerKeys.writes(lessonId).join('/') },
    networkMode: 'always',
  }) as const;
