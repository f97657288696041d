import { CLASS_CURRENT_LEAD_MS, CLASS_START_REFRESH_OFFSET_MS } from './constants';
import type { LessonState } from './entities';

/**
 * An opening window as ISO 8601 strings; null means open-ended on that side. All comparisons
 * are on UTC instants, so offsets in the strings (`+02:00`, `Z`) are honoured.
 */
export interface TimeWindow {
  startAt: string | null;
  expireAt: string | null;
}

export type ClassPeriod = 'past' | 'current' | 'next';

/** Largest delay setTimeout honours; longer ones fire at once, which would loop refreshes. */
export const MAX_TIMER_DELAY_MS = 2_147_483_647;

/** Instant in ms, or null when absent. An unparsable date is treated as absent (open-ended). */
export function toInstant(iso: string | null | undefined): number | null {
  if (iso == null || iso.trim() === '') return null;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : ms;
}

/** Expired once expireAt is reached: a class expiring exactly now is over. */
export function isExpired(window: Pick<TimeWindow, 'expireAt'>, now: Date): boolean {
  const end = toInstant(window.expireAt);
  return end !== null && end <= now.getTime();
}

/** docs/product.md §4: expired → past; starting in a day or more → next; otherwise (started or starting within a day) current. */
export function classPeriod(window: TimeWindow, now: Date): ClassPeriod {
  if (isExpired(window, now)) return 'past';
  const start = toInstant(window.startAt);
  if (start !== null && start - now.getTime() >= CLASS_CURRENT_LEAD_MS) return 'next';
  return 'current';
}

/**
 * Delay before the dashboard should refresh a class that has not started yet: its start plus
 * a small offset so the server already sees it open. Null when nothing is to wait for.
 * Capped to what setTimeout can hold; callers re-evaluate when it fires.
 */
export function nextRefreshDelay(window: TimeWindow, now: Date): number | null {
  const start = toInstant(window.startAt);
  if (start === null || start <= now.getTime() || isExpired(window, now)) return null;
  return Math.min(start - now.getTime() + CLASS_START_REFRESH_OFFSET_MS, MAX_TIMER_DELAY_MS);
}

/**
 * A class-program may narrow its class's window (docs/product.md §3): the later start and the earlier
 * end win. The original strings are kept so callers can display them as the server sent them.
 */
export function effectiveWindow(cls: TimeWindow, classProgram?: Partial<TimeWindow> | null): TimeWindow {
  const programStart = classProgram?.startAt ?? null;
  const programEnd = classProgram?.expireAt ?? null;
  return {
    startAt: pick(cls.startAt, programStart, (a, b) => b > a),
    expireAt: pick(cls.expireAt, programEnd, (a, b) => b < a),
  };
}

function pick(
  own: string | null,
  narrower: string | null,
  replaces: (own: number, other: number) => boolean,
): string | null {
  const ownMs = toInstant(own);
  const otherMs = toInstant(narrower);
  if (otherMs === null) return ownMs === null ? null : own;
  if (ownMs === null || replaces(ownMs, otherMs)) return narrower;
  return own;
}

/** docs/product.md §3: a class is unlocked when any of its lessons is not HIDDEN. */
export function isClassUnlocked(lessons: readonly { state: LessonState }[]): boolean {
  return lessons.some((lesson) => lesson.state !== 'HIDDEN');
}

/** Opening boundaries of a class program (docs/product.md §3): a further narrowing, `from` and `to`. */
export interface ClassProgramWindow extends Partial<TimeWindow> {
  openingBoundaries?: { from?: string | null; to?: string | null } | null;
}

/**
 * The window in which the lessons of a class program are open: the class's window narrowed by
 * the class program's `startAt`/`expireAt`, then by its `openingBoundaries` (`from`/`to`).
 * Each layer can only narrow, never widen.
 */
export function lessonWindow(cls: TimeWindow, classProgram?: ClassProgramWindow | null): TimeWindow {
  const narrowed = effectiveWindow(cls, classProgram);
  const bounds = classProgram?.openingBoundaries;
  if (!bounds) return narrowed;
  return effectiveWindow(narrowed, { startAt: bounds.from ?? null, expireAt: bounds.to ?? null });
}

export type WindowPhase = 'pending' | 'open' | 'closed';

/**
 * Where `now` falls in a window: before its start (pending), from its start included up to its
 * expiry excluded (open), from its expiry on (closed). Expiry wins over a start in the future.
 */
export function windowPhase(window: TimeWindow, now: Date): WindowPhase {
  if (isExpired(window, now)) return 'closed';
  const start = toInstant(window.startAt);
  return start !== null && now.getTime() < start ? 'pending' : 'open';
}
