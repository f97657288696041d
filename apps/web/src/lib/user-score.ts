import { USER_SCORE_DEBOUNCE_MS } from '@parcours/domain/constants';
import type { MeResponse } from '@parcours/domain/entities';
import { apiFetch } from './api-client';
import { getSession, setSessionUser } from './session';

/**
 * docs/product.md §9 "score update debounce 200 ms": a graded answer changes the learner's score
 * (XP, pages done); the signed-in user is read again once the answers stop coming for 200 ms, so
 * a run of quick answers costs one `users/me`, not one per answer. A failure keeps the old score.
 */
let timer: ReturnType<typeof setTimeout> | null = null;

export function scheduleUserScoreRefresh(): void {
  if (timer !== null) clearTimeout(timer);
  timer = setTimeout(() => {
    timer = null;
    void refresh();
  }, USER_SCORE_DEBOUNCE_MS);
}

async function refresh(): Promise<void> {
  const before = getSession().user?._id;
  if (!before) return;
  try {
    const me = await apiFetch<MeResponse>('users/me');
    // Signed out or switched meanwhile: not this session's user any more.
    if (getSession().user?._id === before && me._id === before) setSessionUser(me);
  } catch {
    // The score shown stays as it was until the next answer or screen.
  }
}
