/**
 * Keyboard and focus on a playing page (docs/product.md §4): after a move the view goes to the top
 * and focus to the new page's title, so a screen reader starts reading it there; Enter is Next
 * where Enter means nothing else.
 */
import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';
import { firstScreenShown } from '../../lib/after-first-screen';
import type { LessonPage } from './api/lesson-page';
import { enterTriggersNext } from './player-model';

export function usePageFocus(page: LessonPage | null, heading: RefObject<HTMLHeadingElement | null>): void {
  const shownPage = useRef<string | null>(null);
  useEffect(() => {
    if (!page) return;
    // Issue 11: what waits for the first screen (keeping the lesson for offline use, the service
    // worker) starts once this page is painted.
    firstScreenShown();
    if (shownPage.current !== null && shownPage.current !== page.id) {
      window.scrollTo(0, 0);
      heading.current?.focus({ preventScroll: true });
    }
    shownPage.current = page.id;
  }, [page, heading]);
}

export function useEnterForNext(
  next: () => void,
  { playing, isTincan, dialogOpen }: { playing: boolean; isTincan: boolean; dialogOpen: boolean },
): void {
  const nextRef = useRef(next);
  // A layout effect: the latest value is in place before the next event or timer, whatever
  // React's scheduling of plain effects (Enter right after ticking an answer must send it).
  useLayoutEffect(() => {
    nextRef.current = next;
  });
  // Listening from the commit on (a layout effect): an Enter pressed as soon as the new node or
  // page showed must not be lost before a plain effect would run.
  useLayoutEffect(() => {
    if (!playing) return undefined;
    const onKeyDown = (event: KeyboardEvent) => {
      if (!enterTriggersNext(event, { isTincan, dialogOpen, enabled: true })) return;
      event.preventDefault();
      nextRef.current();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [playing, isTincan, dialogOpen]);
}
