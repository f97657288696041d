import type { Kysely, Selectable } from 'kysely';
import { courseIsCertifying } from '@parcours/domain/certification';
import { lessonWindow, toInstant } from '@parcours/domain/class-timing';
import type { TimeWindow } from '@parcours/domain/class-timing';
import { LESSON_STATES } from '@parcours/domain/entities';
import type { LessonActions, LessonState, PageProgress } from '@parcours/domain/entities';
import {
  endOfLessonActions,
  lessonDeadline,
  reconcileProgram,
  unlockModeOf,
} from '@parcours/domain/lesson-state';
import type {
  ActionAnswer,
  LessonOutcome,
  ProgramLesson,
  ProgramStep,
  StepQuestion,
  UnlockMode,
} from '@parcours/domain/lesson-state';
import { accommodatedLimit, accommodationOf } from '@parcours/domain/time-accommodation';
import { prepared } from '../../db/prepared';
import type { Database, LessonsTable } from '../../db/schema';
import { parseJson } from '../../db/schema';
import { GRACE_SECONDS } from '../lesson-pages/clock';
import { lessonsWithAccommodation } from '../lesson-pages/repository';
import { jsonObject } from '../programs/serializer';
import type { Viewer } from '../scope';
import { RowMap, loadMissing, perContentVersion } from '../../lib/versioned-cache';

/**
 * Applies the lesson-state rules of `domain/lesson-state` to the database (docs/api.md
 * "Progression"): for one learner and one class program at a time, time rules (window, time
 * limit) then unlocking; writes only what differs, each write conditional on the state it
 * was computed from, so concurrent requests and repeated calls are harmless.
 * Works on a Db or inside a transaction (Kysely<Database> both).
 */

type Q = Kysely<Database>;
/** A lesson, with its learner's time accommodation when it was read with it (decision 0019). */
export type LessonRow = Selectable<LessonsTable> & {
  timeFactor?: number | null;
  noTimeLimit?: number | null;
};

export interface ProgramContext {
  classProgramId: string;
  window: TimeWindow;
  mode: UnlockMode;
  steps: ProgramStep[];
  /** Course titles and references, for unlocked-lesson labels and certification references. */
  courses: Map<string, { title: string; reference: string | null; certificate: boolean }>;
}

const STATES = new Set<string>(LESSON_STATES);
const stateOf = (s: string): LessonState => (STATES.has(s) ? (s as LessonState) : 'LOCKED');
const progressOf = (p: string | null): PageProgress | null =>
  p === 'COMPLETED' || p === 'ONGOING' ? p : null;

/** The learner's answers to the end-of-lesson question, kept in the lesson's `actions` column. */
export function answersOf(actionsText: string): ActionAnswer[] {
  const v = parseJson<{ answers?: unknown } | null>(actionsText, null);
  if (!v || !Array.isArray(v.answers)) return [];
  return v.answers.flatMap((a: unknown) => {
    const x = a as { actionIdx?: unknown; choiceIdx?: unknown } | null;
    return x && Number.isInteger(x.actionIdx) && Number.isInteger(x.choiceIdx)
      ? [{ actionIdx: x.actionIdx as number, choiceIdx: x.choiceIdx as number }]
      : [];
  });
}

function stepOf(courseId: string, settingsText: string): ProgramStep {
  const s = jsonObject(settingsText);
  const strings = (v: unknown) =>
    Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : null;
  const q = s.question as { label?: unknown; choices?: unknown } | undefined;
  let question: StepQuestion | null = null;
  if (q && typeof q.label === 'string' && Array.isArray(q.choices)) {
    const choices = q.choices.flatMap((c: unknown) => {
      const x = c as { response?: unknown; target?: unknown } | null;
      return x && typeof x.response === 'string' && typeof x.target === 'string'
        ? [{ response: x.response, target: x.target }]
        : [];
    });
    if (choices.length) question = { label: q.label, choices };
  }
  return { courseId, unlocks: strings(s.unlocks), question, endOfProgram: s.endOfProgram === true };
}

/** Windows, unlock mode and steps of class programs, in two queries. */
export async function loadProgramContexts(
  db: Q,
  classProgramIds: string[],
): Promise<Map<string, ProgramContext>> {
  const out = new Map<string, ProgramContext>();
  if (classProgramIds.length === 0) return out;
  const cps = await db
    .selectFrom('classPrograms as cp')
    .innerJoin('classes as c', 'c.id', 'cp.classId')
    .innerJoin('programs as p', 'p.id', 'cp.programId')
    .select([
      'cp.id',
      'cp.programId',
      'cp.startAt',
      'cp.expireAt',
      'cp.openingBoundaries',
      'c.startAt as classStartAt',
      'c.expireAt as classExpireAt',
      'p.settings as programSettings',
    ])
    .where('cp.id', 'in', classProgramIds)
    .execute();
  const programIds = [...new Set(cps.map((cp) => cp.programId))];
  const pcs = programIds.length
    ? await db
        .selectFrom('programCourses as pc')
        .innerJoin('courses as co', 'co.id', 'pc.courseId')
        .leftJoin('courseTypes as ct', 'ct.id', 'co.typeId')
        .select([
          'pc.programId',
          'pc.courseId',
          'pc.settings',
          'pc.order',
          'pc.id',
          'co.title',
          'co.reference',
          'co.settings as courseSettings',
          'ct.settings as typeSettings',
        ])
        .where('pc.programId', 'in', programIds)
        .orderBy('pc.order')
        .orderBy('pc.id')
        .execute()
    : [];
  for (const cp of cps) {
    const mine = pcs.filter((pc) => pc.programId === cp.programId);
    const bounds = jsonObject(cp.openingBoundaries);
    const str = (v: unknown) => (typeof v === 'string' ? v : null);
    out.set(cp.id, {
      classProgramId: cp.id,
      window: lessonWindow(
        { startAt: cp.classStartAt, expireAt: cp.classExpireAt },
        {
          startAt: cp.startAt,
          expireAt: cp.expireAt,
          openingBoundaries: { from: str(bounds.from), to: str(bounds.to) },
        },
      ),
      mode: unlockModeOf(jsonObject(cp.programSettings)),
      steps: mine.map((pc) => stepOf(pc.courseId, pc.settings)),
      courses: new Map(
        mine.map((pc) => [
          pc.courseId,
          {
            title: pc.title,
            reference: pc.reference,
            certificate: courseIsCertifying(
              jsonObject(pc.courseSettings),
              jsonObject(pc.typeSettings ?? '{}'),
            ),
          },
        ]),
      ),
    });
  }
  return out;
}

export function toProgramLesson(row: LessonRow): ProgramLesson {
  return {
    id: row.id,
    courseId: row.courseId,
    state: stateOf(row.state),
    progress: progressOf(row.progress),
    startedAt: row.startedAt,
    // Decision 0019: the lesson's own limit as this learner has it.
    timeLimit: accommodatedLimit(row.timeLimit, accommodationOf(row)),
    answers: answersOf(row.actions),
  };
}

/**
 * Reference of the certificate of an ended last course, when the course certifies (its own
 * `settings.certification`, else its type's `settings.certificate: true`; domain/certification):
 * stable, so concurrent writers agree.
 */
export function certificationRefOf(row: LessonRow, ctx: ProgramContext): string | null {
  const course = ctx.courses.get(row.courseId);
  if (!course || !course.certificate) return null;
  return `${course.reference ?? 'PARCOURS'}-${row.id.replace(/-/g, '').slice(0, 10).toUpperCase()}`;
}

interface Change {
  row: LessonRow;
  outcome: LessonOutcome;
  set: Partial<Pick<LessonRow, 'state' | 'isEndOfProgram' | 'certificationRef' | 'endedAt'>>;
}

/** What the rules change in one learner's lessons of one class program (nothing written). */
export function planProgram(rows: LessonRow[], ctx: ProgramContext, now: Date): Change[] {
  const outcomes = reconcileProgram(rows.map(toProgramLesson), {
    steps: ctx.steps,
    mode: ctx.mode,
    window: ctx.window,
    now,
    graceSeconds: GRACE_SECONDS,
  });
  const iso = now.toISOString();
  const changes: Change[] = [];
  for (const row of rows) {
    const outcome = outcomes.get(row.id);
    if (!outcome) continue;
    const set: Change['set'] = {};
    if (outcome.state !== row.state) set.state = outcome.state;
    if (outcome.state === 'SKIPPED' && row.state !== 'SKIPPED' && !row.endedAt) set.endedAt = iso;
    if (outcome.isEndOfProgram && row.isEndOfProgram !== 1) set.isEndOfProgram = 1;
    if (outcome.isEndOfProgram && row.certificationRef === null) {
      const ref = certificationRefOf(row, ctx);
      if (ref) set.certificationRef = ref;
    }
    if (Object.keys(set).length) changes.push({ row, outcome, set });
  }
  return changes;
}

/**
 * The first instant after `now` at which `planProgram` may plan something it does not plan at
 * `now` (Infinity: never, without a write). The rules read the clock only through the window
 * (pending before its start, closed from its expiry) and each lesson's deadline (time up
 * strictly after it, so from the next millisecond): between two of these instants their
 * answer cannot change. A cached read (decision 0015) is served only before this instant.
 * Keep it in step with `planProgram`: progression/rules.test.ts checks one against the other.
 */
export function nextChangeAt(rows: LessonRow[], ctx: ProgramContext, now: Date): number {
  const t = now.getTime();
  let next = Infinity;
  const consider = (at: number | null) => {
    if (at !== null && at > t && at < next) next = at;
  };
  consider(toInstant(ctx.window.startAt));
  consider(toInstant(ctx.window.expireAt));
  for (const row of rows) {
    const deadline = lessonDeadline(toProgramLesson(row), GRACE_SECONDS);
    if (deadline !== null) consider(deadline + 1);
  }
  return next;
}

/** Writes planned changes, each only if the lesson is still in the state it was planned from. */
async function writeChanges(trx: Q, changes: Change[], now: Date): Promise<number> {
  let written = 0;
  for (const c of changes) {
    const res = await trx
      .updateTable('lessons')
      .set({ ...c.set, updatedAt: now.toISOString() })
      .where('id', '=', c.row.id)
      .where('state', '=', c.row.state)
      .executeTakeFirst();
    written += Number(res.numUpdatedRows);
  }
  return written;
}

const groupKey = (r: Pick<LessonRow, 'userId' | 'classProgramId'>) =>
  `${r.userId}\u0000${r.classProgramId ?? ''}`;

/** Every lesson of the given learners in the given class programs. */
// The player's reads check one learner's one class program: that common case is prepared.
// With the learner's time accommodation in the lesson's class (decision 0019), as the player reads it.
const lessonsOfOneProgram = prepared((db: Q, userId: string, classProgramId: string) =>
  lessonsWithAccommodation(db).where('l.userId', '=', userId).where('l.classProgramId', '=', classProgramId),
);

export async function lessonsOfPrograms(
  db: Q,
  pairs: { userId: string; classProgramId: string }[],
): Promise<LessonRow[]> {
  if (pairs.length === 0) return [];
  if (pairs.length === 1) return lessonsOfOneProgram.all(db, pairs[0]!.userId, pairs[0]!.classProgramId);
  const userIds = [...new Set(pairs.map((p) => p.userId))];
  const cpIds = [...new Set(pairs.map((p) => p.classProgramId))];
  const wanted = new Set(pairs.map((p) => groupKey(p)));
  const rows = await lessonsWithAccommodation(db)
    .where('l.userId', 'in', userIds)
    .where('l.classProgramId', 'in', cpIds)
    .execute();
  return rows.filter((r) => wanted.has(groupKey(r)));
}

function pairsOf(
  rows: Pick<LessonRow, 'userId' | 'classProgramId'>[],
): { userId: string; classProgramId: string }[] {
  const seen = new Map<string, { userId: string; classProgramId: string }>();
  for (const r of rows)
    if (r.classProgramId) seen.set(groupKey(r), { userId: r.userId, classProgramId: r.classProgramId });
  return [...seen.values()];
}

/** Plans every (learner, class program) group among `siblings`. */
function planAll(siblings: LessonRow[], contexts: Map<string, ProgramContext>, now: Date): Change[] {
  const groups = new Map<string, LessonRow[]>();
  for (const r of siblings)
    if (r.classProgramId) groups.set(groupKey(r), [...(groups.get(groupKey(r)) ?? []), r]);
  return [...groups.values()].flatMap((rows) => {
    const ctx = contexts.get(rows[0]?.classProgramId ?? '');
    return ctx ? planProgram(rows, ctx, now) : [];
  });
}

/**
 * Inside a transaction: applies the rules to the learners' lessons of these class programs,
 * reading them through the transaction (so a lesson just completed in it counts). Returns the
 * number of lessons written.
 */
export async function applyProgression(
  trx: Q,
  pairs: { userId: string; classProgramId: string }[],
  now: Date,
  /** The programs' contexts when the caller already read them in this transaction (a reset). */
  readContexts?: Map<string, ProgramContext>,
): Promise<number> {
  if (pairs.length === 0) return 0;
  const [siblings, contexts] = await Promise.all([
    lessonsOfPrograms(trx, pairs),
    readContexts ?? loadProgramContexts(trx, [...new Set(pairs.map((p) => p.classProgramId))]),
  ]);
  return writeChanges(trx, planAll(siblings, contexts, now), now);
}

export interface ProgressionView {
  /** The read rows as they are after the rules (re-read when something was written). */
  rows: LessonRow[];
  actionsOf(row: LessonRow): LessonActions;
  /** Until when (ms) the rules would write nothing more without a write (`nextChangeAt`). */
  validUntil: number;
}

/** Loads program contexts; the player passes a cached loader (content changes only on import). */
export type ProgramContextLoader = (classProgramIds: string[]) => Promise<Map<string, ProgramContext>>;

const contextCaches = perContentVersion(() => new RowMap<ProgramContext | null>());

/**
 * Program contexts under the content stamp the request read (decision 0015): windows, steps,
 * unlock mode and course titles change only with content, which moves the stamp.
 */
export function cachedProgramContexts(db: Q, v: Viewer): ProgramContextLoader {
  return async (ids) => {
    const found = await loadMissing(
      await contextCaches(db, v),
      ids,
      (missing) => loadProgramContexts(db, missing),
      null,
    );
    const out = new Map<string, ProgramContext>();
    for (const [id, ctx] of found) if (ctx) out.set(id, ctx);
    return out;
  };
}

/**
 * For reads (lessons list/one, the player): checks the rules against the lessons' class programs
 * and, only when something is due (a window opened or closed, a time limit ran out, an unlock was
 * missed), writes it in one transaction and re-reads. The check itself is three small queries,
 * one when `contextsOf` serves the programs from a cache. The write never uses that cache:
 * `applyProgression` re-reads everything in its transaction and writes only what is still due.
 */
export async function syncProgression(
  db: Q,
  rows: LessonRow[],
  now: Date,
  write: (fn: (trx: Q) => Promise<number>) => Promise<number>,
  contextsOf: ProgramContextLoader = (ids) => loadProgramContexts(db, ids),
): Promise<ProgressionView> {
  const pairs = pairsOf(rows);
  const [before, contexts] = await Promise.all([
    lessonsOfPrograms(db, pairs),
    contextsOf([...new Set(pairs.map((p) => p.classProgramId))]),
  ]);
  let siblings = before;
  let current = rows;
  if (planAll(siblings, contexts, now).length > 0) {
    await write((trx) => applyProgression(trx, pairs, now));
    siblings = await lessonsOfPrograms(db, pairs);
    const fresh = new Map(siblings.map((s) => [s.id, s]));
    current = rows.map((r) => fresh.get(r.id) ?? r);
  }
  const byGroup = new Map<string, LessonRow[]>();
  for (const s of siblings) byGroup.set(groupKey(s), [...(byGroup.get(groupKey(s)) ?? []), s]);
  let validUntil = Infinity;
  for (const group of byGroup.values()) {
    const ctx = contexts.get(group[0]?.classProgramId ?? '');
    if (ctx) validUntil = Math.min(validUntil, nextChangeAt(group, ctx, now));
  }
  return {
    rows: current,
    validUntil,
    actionsOf(row) {
      const ctx = contexts.get(row.classProgramId ?? '');
      if (!ctx) return { interactive: [], unlockedLessons: [] };
      const sibs = (byGroup.get(groupKey(row)) ?? []).map((s) => ({
        id: s.id,
        courseId: s.courseId,
        state: stateOf(s.state),
        progress: progressOf(s.progress),
        title: ctx.courses.get(s.courseId)?.title ?? '',
      }));
      return endOfLessonActions(toProgramLesson(row), ctx.steps, sibs);
    },
  };
}
