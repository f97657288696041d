/**
 * What the player says: the one dialog in front (feedback, no answer, hint cost, error,
 * offline stop) and the polite live region that reads moves out to screen readers.
 */
import type { ErrorCode } from '@parcours/domain/errors';
import { useState } from 'react';
import type { LessonPage } from './api/lesson-page';
import type { OfflineStop } from './offline/OfflineDialog';
import type { Feedback } from './player-model';

export type PlayerDialog =
  /** `then`: the recorded page, moved past once the last feedback is closed. */
  | { kind: 'feedback'; feedbacks: Feedback[]; index: number; then: LessonPage }
  | { kind: 'noAnswer' }
  | { kind: 'hint'; cost: number }
  | { kind: 'error'; code: ErrorCode }
  | { kind: 'offline'; reason: OfflineStop }
  | null;

export function usePlayerDialog() {
  const [dialog, open] = useState<PlayerDialog>(null);
  return { dialog, open, close: () => open(null) };
}

export type DialogControl = ReturnType<typeof usePlayerDialog>;

export function useAnnouncer() {
  const [live, announce] = useState('');
  return { live, announce };
}
