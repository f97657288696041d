/**
 * The lessons kept on the device for offline use (issue 12, decision 0013): for each lesson, the
 * page the learner is on (`cursor`, as the server sent it before any answer) and the public views
 * of the pages after it (GET offline/lessons/{id}/pages). Nothing that grades is ever stored: a
 * document that carries an answer key is refused by `assertPublic` before it reaches the store.
 */
import type { BlockView, NodeView } from '@parcours/domain/entities';
import type { KeyValue } from '../../../lib/device-store';
import type { LessonPage } from '../api/lesson-page';

/** Why an upcoming page cannot be played offline (the server's answer, see the API). */
export type NeedsNetwork = 'timed' | 'tincan' | 'multiblock' | 'conditions' | null;

export interface OfflinePage {
  lessonId: string;
  nodeId: string;
  index: number;
  count: number;
  sectionId: string;
  node: NodeView;
  block: BlockView | null;
  needsNetwork: NeedsNetwork;
}

export interface StoredLesson {
  lessonId: string;
  savedAt: string;
  /** The page shown when the lesson was saved or last moved: where a reload offline resumes. */
  cursor: LessonPage | null;
  /** The node of the page shown offline, when the learner moved on without the network. */
  cursorNodeId: string | null;
  /** Where the page at `cursorNodeId` was reached from (the queue places it from there). */
  cursorFrom?: { pageId: string | null; nodeId: string } | null;
  upcoming: OfflinePage[];
  /**
   * A lesson kept ahead, never opened here (decision 0020): what the pages of `upcoming` take from
   * the lesson, since there is no `cursor` page to take it from.
   */
  settings?: LessonSettings | null;
}

/** What every page of a lesson shares (the scoring shown, the course type's switches). */
export type LessonSettings = Pick<LessonPage, 'lessonScoring' | 'courseTypeSettings'>;

/** A key-value store (IndexedDB through idb-keyval in the app, a map in tests). */
export type { KeyValue };

/**
 * Keys that carry what grades or tells an answer apart: expected answers, validators, answer-tied
 * feedback, the correction. `feedbacks` is allowed only as the course type's on/off switch.
 */
export const ANSWER_KEYS: ReadonlySet<string> = new Set([
  'solution',
  'validators',
  'expected',
  'accept',
  'tolerance',
  'correct',
  'incorrect',
  'isCorrect',
  'feedback',
  'match',
  'correction',
  'answerRatios',
  'outcome',
]);

/** The path of the first answer key found in `value`, or null. */
export function findAnswerKey(value: unknown, path = ''): string | null {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findAnswerKey(value[i], `${path}/${i}`);
      if (found) return found;
    }
    return null;
  }
  if (!value || typeof value !== 'object') return null;
  for (const [k, v] of Object.entries(value)) {
    if (ANSWER_KEYS.has(k)) return `${path}/${k}`;
    if (k === 'feedbacks' && typeof v !== 'boolean') return `${path}/${k}`;
    const found = findAnswerKey(v, `${path}/${k}`);
    if (found) return found;
  }
  return null;
}

export class AnswerKeyError extends Error {
  constructor(readonly path: string) {
    super(`Refused to keep an answer key on the device (${path})`);
    this.name = 'AnswerKeyError';
  }
}

export function assertPublic<T>(value: T): T {
  const path = findAnswerKey(value);
  if (path) throw new AnswerKeyError(path);
  return value;
}

/** A page as the server sent it, kept only while unanswered (results and inputs are the learner's). */
export function storablePage(page: LessonPage): LessonPage | null {
  if (page.results !== null || page.inputs !== null || page.answeredAt !== null) return null;
  return findAnswerKey(page) ? null : page;
}

const PREFIX = 'lesson:';

export class LessonStore {
  constructor(private readonly kv: KeyValue) {}

  get(lessonId: string): Promise<StoredLesson | undefined> {
    return this.kv.get<StoredLesson>(PREFIX + lessonId);
  }

  async save(lesson: StoredLesson): Promise<void> {
    await this.kv.set(PREFIX + lesson.lessonId, assertPublic(lesson));
  }

  /** The page after `index` as stored, or undefined when the device does not hold it. */
  async pageAfter(lessonId: string, index: number): Promise<OfflinePage | undefined> {
    return (await this.get(lessonId))?.upcoming.find((p) => p.index === index + 1);
  }

  async moveCursor(
    lessonId: string,
    cursor: LessonPage | null,
    cursorNodeId: string | null,
    cursorFrom: StoredLesson['cursorFrom'] = null,
  ): Promise<void> {
    const stored = await this.get(lessonId);
    if (!stored) return;
    // An answered page carries its correction: the older unanswered one stays the reference.
    const kept = cursor ? storablePage(cursor) : null;
    await this.save({ ...stored, cursor: kept ?? stored.cursor, cursorNodeId, cursorFrom });
  }

  /**
   * Where a lesson the device holds resumes offline: the stored page, the page reached offline
   * after it, or — for a lesson kept ahead and never opened — its first page. Null: not playable.
   */
  async resumePoint(
    lessonId: string,
  ): Promise<{ page: LessonPage; from: StoredLesson['cursorFrom'] } | null> {
    const stored = await this.get(lessonId);
    if (!stored) return null;
    const settings = stored.cursor ?? stored.settings ?? null;
    const at = stored.cursorNodeId
      ? stored.upcoming.find((p) => p.nodeId === stored.cursorNodeId)
      : undefined;
    if (at && settings) return { page: toOfflineLessonPage(at, settings), from: stored.cursorFrom ?? null };
    if (stored.cursor) return { page: stored.cursor, from: null };
    const first = stored.upcoming[0];
    if (settings && first && first.index === 0 && first.needsNetwork === null)
      return { page: toOfflineLessonPage(first, settings), from: null };
    return null;
  }

  async lessonIds(): Promise<string[]> {
    return (await this.kv.keys()).filter((k) => k.startsWith(PREFIX)).map((k) => k.slice(PREFIX.length));
  }

  async clear(): Promise<void> {
    for (const id of await this.lessonIds()) await this.kv.del(PREFIX + id);
  }
}

/**
 * An offline page as the player shows it: a page document with no server id yet (`offline:`),
 * no answers, no results. The settings and scoring come from the last page the server sent.
 */
export const OFFLINE_ID_PREFIX = 'offline:';

export function isOfflinePage(page: { id: string }): boolean {
  return page.id.startsWith(OFFLINE_ID_PREFIX);
}

export function toOfflineLessonPage(p: OfflinePage, from: LessonSettings): LessonPage {
  return {
    id: OFFLINE_ID_PREFIX + p.nodeId,
    lessonId: p.lessonId,
    nodeId: p.nodeId,
    index: p.index,
    count: p.count,
    state: 'ACTIVE',
    progress: null,
    node: p.node,
    block: p.block,
    children: [],
    // Hints are unlocked by the server (their cost counts): none offline.
    hints: { messages: [], remaining: 0, nextMalus: null },
    inputs: null,
    results: null,
    timeLimit: null,
    remainingSeconds: null,
    startedAt: null,
    timeSpent: 0,
    answeredAt: null,
    lessonScoring: from.lessonScoring,
    courseTypeSettings: from.courseTypeSettings,
    sectionId: p.sectionId,
    attempt: 1,
    current: true,
    lessonTimeLimit: null,
    lessonRemainingSeconds: null,
    tincanLaunch: null,
  };
}
