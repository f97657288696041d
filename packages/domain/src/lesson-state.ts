import { isExpired, toInstant, windowPhase } from './class-timing';
import type { TimeWindow } from './class-timing';
import type { LessonActions, LessonState, PageProgress } from './entities';

/**
 * Lesson states and their transitions (docs/product.md §4, docs/api.md "Progression"). Pure: the server
 * loads lessons, applies these rules and writes what changed, idempotently.
 */

export const LESSON_EVENTS = [
  /** Every page of the lesson is completed. */
  'COMPLETED',
  /** The lesson's own time limit is over. */
  'TIME_UP',
  /** Its class / class-program window has not started yet. */
  'WINDOW_PENDING',
  /** Its window is open (from the start included). */
  'WINDOW_OPENED',
  /** Its window has expired (from the expiry included). */
  'WINDOW_CLOSED',
  /** An ended lesson of the program (or the program's rule) unlocks it. */
  'UNLOCKED_BY_PREVIOUS',
  /** The learner chose it in an end-of-lesson question. */
  'CHOSEN_BY_ACTION',
  /** The learner restarts the program. */
  'RESET',
] as const;
export type LessonEvent = (typeof LESSON_EVENTS)[number];

/**
 * THE table. Reading rules:
 * - DONE and SKIPPED are results: only RESET takes them back (to LOCKED; the unlock rules then
 *   open the program's first lessons again).
 * - HIDDEN means "window not open yet": nothing but the window changes it. Opening gives LOCKED,
 *   and the unlock rules (applied right after) make it AVAILABLE when it is earned.
 * - EXPIRED follows the window: a window that opens again (an extended class) gives LOCKED.
 *   A closed program cannot be reset.
 * - Events that cannot apply (completing a LOCKED lesson…) leave the state unchanged.
 */
export const LESSON_TRANSITIONS: Readonly<Record<LessonState, Readonly<Record<LessonEvent, LessonState>>>> = {
  LOCKED: {
    COMPLETED: 'LOCKED',
    TIME_UP: 'LOCKED',
    WINDOW_PENDING: 'HIDDEN',
    WINDOW_OPENED: 'LOCKED',
    WINDOW_CLOSED: 'EXPIRED',
    UNLOCKED_BY_PREVIOUS: 'AVAILABLE',
    CHOSEN_BY_ACTION: 'AVAILABLE',
    RESET: 'LOCKED',
  },
  AVAILABLE: {
    COMPLETED: 'DONE',
    TIME_UP: 'SKIPPED',
    WINDOW_PENDING: 'HIDDEN',
    WINDOW_OPENED: 'AVAILABLE',
    WINDOW_CLOSED: 'EXPIRED',
    UNLOCKED_BY_PREVIOUS: 'AVAILABLE',
    CHOSEN_BY_ACTION: 'AVAILABLE',
    RESET: 'LOCKED',
  },
  HIDDEN: {
    COMPLETED: 'HIDDEN',
    TIME_UP: 'HIDDEN',
    WINDOW_PENDING: 'HIDDEN',
    WINDOW_OPENED: 'LOCKED',
    WINDOW_CLOSED: 'EXPIRED',
    UNLOCKED_BY_PREVIOUS: 'HIDDEN',
    CHOSEN_BY_ACTION: 'HIDDEN',
    RESET: 'HIDDEN',
  },
  DONE: {
    COMPLETED: 'DONE',
    TIME_UP: 'DONE',
    WINDOW_PENDING: 'DONE',
    WINDOW_OPENED: 'DONE',
    WINDOW_CLOSED: 'DONE',
    UNLOCKED_BY_PREVIOUS: 'DONE',
    CHOSEN_BY_ACTION: 'DONE',
    RESET: 'LOCKED',
  },
  SKIPPED: {
    COMPLETED: 'SKIPPED',
    TIME_UP: 'SKIPPED',
    WINDOW_PENDING: 'SKIPPED',
    WINDOW_OPENED: 'SKIPPED',
    WINDOW_CLOSED: 'SKIPPED',
    UNLOCKED_BY_PREVIOUS: 'SKIPPED',
    CHOSEN_BY_ACTION: 'SKIPPED',
    RESET: 'LOCKED',
  },
  EXPIRED: {
    COMPLETED: 'EXPIRED',
    TIME_UP: 'EXPIRED',
    WINDOW_PENDING: 'HIDDEN',
    WINDOW_OPENED: 'LOCKED',
    WINDOW_CLOSED: 'EXPIRED',
    UNLOCKED_BY_PREVIOUS: 'EXPIRED',
    CHOSEN_BY_ACTION: 'EXPIRED',
    RESET: 'EXPIRED',
  },
};

export function nextLessonState(state: LessonState, event: LessonEvent): LessonState {
  return LESSON_TRANSITIONS[state][event];
}

/** The player refuses these (403); DONE and SKIPPED lessons stay readable (correction, results). */
export function isLessonClosed(state: LessonState): boolean {
  return state === 'LOCKED' || state === 'HIDDEN' || state === 'EXPIRED';
}

/** docs/product.md §4: ended when SKIPPED or progress COMPLETED (DONE implies COMPLETED). */
export function hasLessonEnded(lesson: { state: LessonState; progress: PageProgress | null }): boolean {
  return lesson.state === 'DONE' || lesson.state === 'SKIPPED' || lesson.progress === 'COMPLETED';
}

export interface TimedLesson {
  state: LessonState;
  /** When the learner first opened it; its time limit counts from then. */
  startedAt: string | null;
  /** Seconds; null or ≤ 0: no limit. */
  timeLimit: number | null;
}

/** When the lesson's own time is up (limit + grace after its start), or null. */
export function lessonDeadline(
  lesson: Pick<TimedLesson, 'startedAt' | 'timeLimit'>,
  graceSeconds = 0,
): number | null {
  const start = toInstant(lesson.startedAt);
  if (start === null || lesson.timeLimit == null || lesson.timeLimit <= 0) return null;
  return start + (lesson.timeLimit + graceSeconds) * 1000;
}

/**
 * The state a lesson is in at `now` by time alone: its window (pending, open, closed) and its own
 * time limit. When both the window's expiry and the time limit are past, the one that came first
 * decides (a lesson whose time ran out before the class closed is SKIPPED, not EXPIRED).
 */
export function lessonStateAt(
  lesson: TimedLesson,
  window: TimeWindow,
  now: Date,
  opts: { graceSeconds?: number } = {},
): LessonState {
  const phase = windowPhase(window, now);
  const windowEvent: LessonEvent =
    phase === 'pending' ? 'WINDOW_PENDING' : phase === 'closed' ? 'WINDOW_CLOSED' : 'WINDOW_OPENED';
  const deadline = lessonDeadline(lesson, opts.graceSeconds ?? 0);
  // Past the deadline: strictly later than it (an answer arriving exactly at the limit is in time).
  const timeUp = deadline !== null && now.getTime() > deadline;
  if (!timeUp) return nextLessonState(lesson.state, windowEvent);
  const expiry = toInstant(window.expireAt);
  const timeUpFirst = !isExpired(window, now) || (expiry !== null && deadline < expiry);
  return timeUpFirst
    ? nextLessonState(nextLessonState(lesson.state, 'TIME_UP'), windowEvent)
    : nextLessonState(nextLessonState(lesson.state, windowEvent), 'TIME_UP');
}

// ---------------------------------------------------------------------------------------------
// A program's lessons for one learner: which ones unlock.

/** Program `settings.unlock`: the next course by order (default), or every course at once. */
export const UNLOCK_MODES = ['sequential', 'all'] as const;
export type UnlockMode = (typeof UNLOCK_MODES)[number];

export function unlockModeOf(settings: Record<string, unknown> | null | undefined): UnlockMode {
  return settings?.unlock === 'all' ? 'all' : 'sequential';
}

export interface StepQuestion {
  label: string;
  /** `target`: a course id of the same program. */
  choices: { response: string; target: string }[];
}

/** One program course, in program order, with its progression settings (from content). */
export interface ProgramStep {
  courseId: string;
  /** Courses that open when this one ends, instead of the next one by order; null: default. */
  unlocks: string[] | null;
  /** End-of-lesson question: its choice opens its target; without `unlocks`, nothing else opens. */
  question: StepQuestion | null;
  /** Ending this course ends the program (evaluation due); the last course by order always does. */
  endOfProgram: boolean;
}

export interface ActionAnswer {
  actionIdx: number;
  choiceIdx: number;
}

export interface ProgramLesson extends TimedLesson {
  id: string;
  courseId: string;
  progress: PageProgress | null;
  /** Answers already given to this lesson's end-of-lesson question(s). */
  answers: ActionAnswer[];
}

export function stepIndexOf(steps: readonly ProgramStep[], courseId: string): number {
  return steps.findIndex((s) => s.courseId === courseId);
}

/** Whether ending the course at `index` ends the program. */
export function isEndOfProgramStep(steps: readonly ProgramStep[], index: number): boolean {
  const step = steps[index];
  return step !== undefined && (step.endOfProgram || index === steps.length - 1);
}

/**
 * Courses an ended lesson opens: its explicit `unlocks`, else — unless it asks a question — the
 * next course by order; plus the targets of the choices the learner made. Unique, own course excluded.
 */
export function unlockTargets(
  steps: readonly ProgramStep[],
  index: number,
  answers: readonly ActionAnswer[],
): string[] {
  const step = steps[index];
  if (!step) return [];
  const out: string[] = [];
  const add = (courseId: string | undefined) => {
    if (courseId && courseId !== step.courseId && !out.includes(courseId)) out.push(courseId);
  };
  if (step.unlocks) step.unlocks.forEach(add);
  else if (!step.question) add(steps[index + 1]?.courseId);
  for (const a of answers) if (a.actionIdx === 0) add(step.question?.choices[a.choiceIdx]?.target);
  return out;
}

export interface ProgramRules {
  steps: readonly ProgramStep[];
  mode: UnlockMode;
  window: TimeWindow;
  now: Date;
  graceSeconds?: number;
}

export interface LessonOutcome {
  state: LessonState;
  ended: boolean;
  isEndOfProgram: boolean;
}

/**
 * Where every lesson of one learner in one class program should be now: time rules first
 * (window, time limit), then unlocking — the first course (every course in mode `all`) and the
 * targets of ended lessons receive UNLOCKED_BY_PREVIOUS, chosen targets CHOSEN_BY_ACTION.
 * Idempotent: applying it to its own result changes nothing.
 */
export function reconcileProgram(
  lessons: readonly ProgramLesson[],
  rules: ProgramRules,
): Map<string, LessonOutcome> {
  const timed = new Map<string, LessonState>();
  for (const l of lessons)
    timed.set(l.id, lessonStateAt(l, rules.window, rules.now, { graceSeconds: rules.graceSeconds ?? 0 }));
  const ended = (l: ProgramLesson) =>
    hasLessonEnded({ state: timed.get(l.id) ?? l.state, progress: l.progress });

  const unlocked = new Set<string>();
  const chosen = new Set<string>();
  rules.steps.forEach((s, i) => {
    if (i === 0 || rules.mode === 'all') unlocked.add(s.courseId);
  });
  for (const l of lessons) {
    const index = stepIndexOf(rules.steps, l.courseId);
    if (index < 0 || !ended(l)) continue;
    const step = rules.steps[index];
    const choiceTargets = new Set(l.answers.map((a) => step?.question?.choices[a.choiceIdx]?.target));
    for (const target of unlockTargets(rules.steps, index, l.answers))
      (choiceTargets.has(target) ? chosen : unlocked).add(target);
  }

  const out = new Map<string, LessonOutcome>();
  for (const l of lessons) {
    let state = timed.get(l.id) ?? l.state;
    if (unlocked.has(l.courseId)) state = nextLessonState(state, 'UNLOCKED_BY_PREVIOUS');
    if (chosen.has(l.courseId)) state = nextLessonState(state, 'CHOSEN_BY_ACTION');
    const isEnded = hasLessonEnded({ state, progress: l.progress });
    out.set(l.id, {
      state,
      ended: isEnded,
      isEndOfProgram: isEnded && isEndOfProgramStep(rules.steps, stepIndexOf(rules.steps, l.courseId)),
    });
  }
  return out;
}

/**
 * What the end-of-lesson screens offer (docs/product.md §2, §4) for an ended lesson: its question while
 * unanswered (targets as the learner's lesson ids), and the lessons it opened that are
 * AVAILABLE and not ended, unique by course. Nothing for a lesson that has not ended.
 */
export function endOfLessonActions(
  lesson: Pick<ProgramLesson, 'courseId' | 'state' | 'progress' | 'answers'>,
  steps: readonly ProgramStep[],
  siblings: readonly {
    id: string;
    courseId: string;
    state: LessonState;
    progress: PageProgress | null;
    title: string;
  }[],
): LessonActions {
  const none: LessonActions = { interactive: [], unlockedLessons: [] };
  const index = stepIndexOf(steps, lesson.courseId);
  const step = steps[index];
  if (!step || !hasLessonEnded(lesson)) return none;
  const byCourse = new Map(siblings.map((s) => [s.courseId, s]));
  const interactive: LessonActions['interactive'] = [];
  if (step.question && !lesson.answers.some((a) => a.actionIdx === 0)) {
    // Indexes must match what POST …/actions receives: a question with a missing target is left out whole.
    const targets = step.question.choices.map((c) => byCourse.get(c.target));
    if (targets.length > 0 && targets.every((t) => t !== undefined)) {
      interactive.push({
        label: step.question.label,
        choices: step.question.choices.map((c, i) => ({
          response: c.response,
          action: { target: targets[i]?.id ?? '' },
        })),
      });
    }
  }
  const unlockedLessons = unlockTargets(steps, index, lesson.answers).flatMap((courseId) => {
    const target = byCourse.get(courseId);
    return target && target.state === 'AVAILABLE' && target.progress !== 'COMPLETED'
      ? [{ id: target.id, title: target.title }]
      : [];
  });
  return { interactive, unlockedLessons };
}
