/**
 * Server-side time rules of the player (docs/api.md "Lesson player", docs/product.md §4 Countdown). Every
 * decision uses the time the request was RECEIVED (stamped before authentication), so an answer
 * that arrived in time is kept even if its transaction commits after the limit.
 */

/**
 * Seconds added to every limit before an answer counts as late: the learner's click travels
 * through the network and the browser's timer fires at 1-second steps. Two seconds covers both
 * without giving a noticeable advantage.
 */
export const GRACE_SECONDS = 2;

/** A keep-alive comes every 10 s; more than 15 s since the last one means the learner was away. */
export const PING_CAP_SECONDS = 15;

const ms = (iso: string) => Date.parse(iso);

/** When the limit ends (without grace), or null when there is no limit or the clock has not started. */
export function deadlineOf(startIso: string | null, limitSeconds: number | null): number | null {
  if (limitSeconds == null || limitSeconds <= 0 || !startIso) return null;
  const start = ms(startIso);
  return Number.isFinite(start) ? start + limitSeconds * 1000 : null;
}

/** True when a request received at `receivedAt` comes after the limit and its grace. */
export function isLate(receivedAt: Date, deadline: number | null): boolean {
  return deadline !== null && receivedAt.getTime() > deadline + GRACE_SECONDS * 1000;
}

export function remainingSeconds(now: Date, deadline: number | null): number | null {
  if (deadline === null) return null;
  return Math.max(0, Math.ceil((deadline - now.getTime()) / 1000));
}

/**
 * The first instant after `now` at which `remainingSeconds(·, deadline)` gives another number:
 * it is the whole seconds left rounded up, so it steps down at `deadline − k s` and rests at 0
 * from the deadline on. Infinity when no clock runs or it has run out.
 */
export function remainingChangesAt(now: Date, deadline: number | null): number {
  const t = now.getTime();
  if (deadline === null || t >= deadline) return Infinity;
  return deadline - (Math.ceil((deadline - t) / 1000) - 1) * 1000;
}

/**
 * The first instant after `now` at which a page document built at `now` could read differently
 * by the clock alone (decision 0068): the page's and the lesson's countdowns stepping down a
 * second, and the lesson becoming late (`isLate`: no retry is open any more, so the key shows,
 * and a write is refused). Infinity when no clock of theirs runs.
 */
export function pageClockLimit(
  now: Date,
  pageDeadline: number | null,
  lessonDeadline: number | null,
): number {
  const late = lessonDeadline === null ? Infinity : lessonDeadline + GRACE_SECONDS * 1000 + 1;
  return Math.min(
    remainingChangesAt(now, pageDeadline),
    remainingChangesAt(now, lessonDeadline),
    late > now.getTime() ? late : Infinity,
  );
}

/** Whole seconds since the last sign of life, capped: what a keep-alive adds to time spent. */
export function elapsedSince(lastIso: string | null, now: Date): number {
  if (!lastIso) return 0;
  const last = ms(lastIso);
  if (!Number.isFinite(last)) return 0;
  return Math.max(0, Math.min(PING_CAP_SECONDS, Math.floor((now.getTime() - last) / 1000)));
}
