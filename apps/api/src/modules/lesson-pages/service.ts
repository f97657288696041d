/**
 * The lesson-page life cycle (docs/api.md "Lesson player"), by concern:
 * - context.ts: the request's context, loading and judging the lesson (windows, time limits);
 * - document.ts: the page document (the correction's key, a module's launch);
 * - navigation.ts: reaching pages, choosing in a multiblock, next and previous;
 * - answer.ts: grading and recording an answer once;
 * - tincan-score.ts: a learning module's score;
 * - retry-hints.ts: retries and hints;
 * - timing.ts: the page clock (start) and the keep-alive (ping).
 * Honest-score guarantees: decision 0009.
 */
export type { PlayerContext } from './context';
export { InFlight, answerPage } from './answer';
export { choosePage, nextPage, openPage, previousPage } from './navigation';
export type { OpenOptions } from './navigation';
export { retryPage, unlockHint } from './retry-hints';
export { recordTincanScore, tincanFraction } from './tincan-score';
export type { TincanScore } from './tincan-score';
export { ping, startPage } from './timing';
