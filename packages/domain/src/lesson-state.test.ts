import { describe, expect, it } from 'vitest';
import { lessonWindow, windowPhase } from './class-timing';
import type { TimeWindow } from './class-timing';
import { LESSON_STATES } from './entities';
import type { LessonState } from './entities';
import {
  LESSON_EVENTS,
  endOfLessonActions,
  hasLessonEnded,
  isLessonClosed,
  lessonDeadline,
  lessonStateAt,
  nextLessonState,
  reconcileProgram,
  unlockModeOf,
  unlockTargets,
} from './lesson-state';
import type { LessonEvent, ProgramLesson, ProgramStep } from './lesson-state';

const NOW = new Date('2026-03-10T12:00:00.000Z');
const at = (offsetMs: number): string => new Date(NOW.getTime() + offsetMs).toISOString();
const MIN = 60_000;
const DAY = 86_400_000;
const w = (startAt: string | null, expireAt: string | null): TimeWindow => ({ startAt, expireAt });
const OPEN = w(at(-DAY), at(DAY));

describe('nextLessonState: every state × event', () => {
  // Written out in full on purpose: the table of docs/api.md "Progression", checked cell by cell.
  const columns: LessonEvent[] = [
    'COMPLETED',
    'TIME_UP',
    'WINDOW_PENDING',
    'WINDOW_OPENED',
    'WINDOW_CLOSED',
    'UNLOCKED_BY_PREVIOUS',
    'CHOSEN_BY_ACTION',
    'RESET',
  ];
  const expected: Record<LessonState, LessonState[]> = {
    LOCKED: ['LOCKED', 'LOCKED', 'HIDDEN', 'LOCKED', 'EXPIRED', 'AVAILABLE', 'AVAILABLE', 'LOCKED'],
    AVAILABLE: ['DONE', 'SKIPPED', 'HIDDEN', 'AVAILABLE', 'EXPIRED', 'AVAILABLE', 'AVAILABLE', 'LOCKED'],
    HIDDEN: ['HIDDEN', 'HIDDEN', 'HIDDEN', 'LOCKED', 'EXPIRED', 'HIDDEN', 'HIDDEN', 'HIDDEN'],
    DONE: ['DONE', 'DONE', 'DONE', 'DONE', 'DONE', 'DONE', 'DONE', 'LOCKED'],
    SKIPPED: ['SKIPPED', 'SKIPPED', 'SKIPPED', 'SKIPPED', 'SKIPPED', 'SKIPPED', 'SKIPPED', 'LOCKED'],
    EXPIRED: ['EXPIRED', 'EXPIRED', 'HIDDEN', 'LOCKED', 'EXPIRED', 'EXPIRED', 'EXPIRED', 'EXPIRED'],
  };

  it('covers every event and every state', () => {
    expect([...columns].sort()).toEqual([...LESSON_EVENTS].sort());
    expect(Object.keys(expected).sort()).toEqual([...LESSON_STATES].sort());
  });

  const cells = LESSON_STATES.flatMap((state) =>
    columns.map((event, i) => [state, event, expected[state][i]] as const),
  );
  it.each(cells)('%s + %s → %s', (state, event, to) => {
    expect(nextLessonState(state, event)).toBe(to);
  });

  it.each(cells)('%s + %s is idempotent (applying it twice = once)', (state, event) => {
    const once = nextLessonState(state, event);
    expect(nextLessonState(once, event)).toBe(once);
  });
});

describe('closed and ended states', () => {
  it.each<[LessonState, boolean]>([
    ['LOCKED', true],
    ['HIDDEN', true],
    ['EXPIRED', true],
    ['AVAILABLE', false],
    ['DONE', false],
    ['SKIPPED', false],
  ])('%s closed: %s', (state, closed) => expect(isLessonClosed(state)).toBe(closed));

  it.each<[LessonState, 'COMPLETED' | 'ONGOING' | null, boolean]>([
    ['AVAILABLE', null, false],
    ['AVAILABLE', 'ONGOING', false],
    ['AVAILABLE', 'COMPLETED', true],
    ['DONE', 'COMPLETED', true],
    ['SKIPPED', 'ONGOING', true],
    ['EXPIRED', 'ONGOING', false],
  ])('%s / %s ended: %s', (state, progress, ended) =>
    expect(hasLessonEnded({ state, progress })).toBe(ended),
  );
});

describe('windowPhase and lessonWindow (class-timing additions)', () => {
  it.each<[string, TimeWindow, 'pending' | 'open' | 'closed']>([
    ['no dates', w(null, null), 'open'],
    ['starts in 1 ms', w(at(1), null), 'pending'],
    ['starts exactly now (start included)', w(at(0), null), 'open'],
    ['started 1 ms ago', w(at(-1), at(DAY)), 'open'],
    ['expires in 1 ms', w(at(-DAY), at(1)), 'open'],
    ['expires exactly now (expiry excluded)', w(at(-DAY), at(0)), 'closed'],
    ['future start but expired (bad data)', w(at(DAY), at(-1)), 'closed'],
    ['start written in +02:00, 1 s ahead', w('2026-03-10T14:00:01+02:00', null), 'pending'],
    ['start written in -05:00, exactly now', w('2026-03-10T07:00:00-05:00', null), 'open'],
    ['expiry written in +01:00, exactly now', w(null, '2026-03-10T13:00:00+01:00'), 'closed'],
  ])('%s → %s', (_label, window, phase) => expect(windowPhase(window, NOW)).toBe(phase));

  const cls = w('2026-01-01T00:00:00Z', '2026-12-31T00:00:00Z');
  it.each<[string, Parameters<typeof lessonWindow>[1], TimeWindow]>([
    ['no class program', null, cls],
    [
      'class-program window narrower than its class',
      { startAt: '2026-03-01T00:00:00Z', expireAt: '2026-04-01T00:00:00Z' },
      w('2026-03-01T00:00:00Z', '2026-04-01T00:00:00Z'),
    ],
    [
      'class-program window wider: the class wins',
      { startAt: '2025-01-01T00:00:00Z', expireAt: '2027-01-01T00:00:00Z' },
      cls,
    ],
    [
      'opening boundaries narrow further',
      {
        startAt: '2026-03-01T00:00:00Z',
        openingBoundaries: { from: '2026-03-05T00:00:00Z', to: '2026-03-20T00:00:00Z' },
      },
      w('2026-03-05T00:00:00Z', '2026-03-20T00:00:00Z'),
    ],
    [
      'opening boundaries wider: ignored',
      { openingBoundaries: { from: '2025-01-01T00:00:00Z', to: null } },
      cls,
    ],
    ['empty opening boundaries', { openingBoundaries: {} }, cls],
  ])('%s', (_label, cp, expected) => expect(lessonWindow(cls, cp)).toEqual(expected));

  it('a narrower class-program window closes its lessons while the class is still open', () => {
    const narrow = lessonWindow(cls, { expireAt: at(0) });
    expect(windowPhase(cls, NOW)).toBe('open');
    expect(windowPhase(narrow, NOW)).toBe('closed');
    expect(lessonStateAt({ state: 'AVAILABLE', startedAt: null, timeLimit: null }, narrow, NOW)).toBe(
      'EXPIRED',
    );
  });
});

describe('lessonStateAt', () => {
  const lesson = (state: LessonState, startedAt: string | null = null, timeLimit: number | null = null) => ({
    state,
    startedAt,
    timeLimit,
  });
  it.each<[string, ReturnType<typeof lesson>, TimeWindow, LessonState, number?]>([
    ['open window keeps AVAILABLE', lesson('AVAILABLE'), OPEN, 'AVAILABLE'],
    ['open window keeps LOCKED', lesson('LOCKED'), OPEN, 'LOCKED'],
    ['before the start: AVAILABLE is hidden', lesson('AVAILABLE'), w(at(1), null), 'HIDDEN'],
    ['before the start: LOCKED is hidden', lesson('LOCKED'), w(at(MIN), at(DAY)), 'HIDDEN'],
    [
      'exact start: HIDDEN opens (to LOCKED, unlock rules follow)',
      lesson('HIDDEN'),
      w(at(0), null),
      'LOCKED',
    ],
    ['1 ms before the start: still HIDDEN', lesson('HIDDEN'), w(at(1), null), 'HIDDEN'],
    ['exact expiry: AVAILABLE expires', lesson('AVAILABLE'), w(at(-DAY), at(0)), 'EXPIRED'],
    ['1 ms before expiry: still AVAILABLE', lesson('AVAILABLE'), w(at(-DAY), at(1)), 'AVAILABLE'],
    ['expiry keeps DONE', lesson('DONE'), w(null, at(-1)), 'DONE'],
    ['expiry keeps SKIPPED', lesson('SKIPPED'), w(null, at(-1)), 'SKIPPED'],
    ['hidden class that already expired', lesson('HIDDEN'), w(at(-2 * DAY), at(-DAY)), 'EXPIRED'],
    ['an extended window reopens an EXPIRED lesson', lesson('EXPIRED'), OPEN, 'LOCKED'],
    [
      'expiry in another time zone, exact',
      lesson('AVAILABLE'),
      w(null, '2026-03-10T08:00:00-04:00'),
      'EXPIRED',
    ],
    ['time limit running', lesson('AVAILABLE', at(-59_000), 60), OPEN, 'AVAILABLE'],
    ['time limit reached exactly: still in time', lesson('AVAILABLE', at(-60_000), 60), OPEN, 'AVAILABLE'],
    ['time limit passed by 1 ms', lesson('AVAILABLE', at(-60_001), 60), OPEN, 'SKIPPED'],
    ['grace seconds delay the skip', lesson('AVAILABLE', at(-61_000), 60), OPEN, 'AVAILABLE', 2],
    ['time limit but never started', lesson('AVAILABLE', null, 60), OPEN, 'AVAILABLE'],
    [
      'time up before the class closed: SKIPPED',
      lesson('AVAILABLE', at(-10 * MIN), 60),
      w(null, at(-MIN)),
      'SKIPPED',
    ],
    [
      'class closed before the time was up: EXPIRED',
      lesson('AVAILABLE', at(-10 * MIN), 9 * 60 + 30),
      w(null, at(-MIN)),
      'EXPIRED',
    ],
  ])('%s', (_label, l, window, expected, grace) => {
    expect(lessonStateAt(l, window, NOW, { graceSeconds: grace ?? 0 })).toBe(expected);
  });

  it('deadline', () => {
    expect(lessonDeadline({ startedAt: at(0), timeLimit: 10 })).toBe(NOW.getTime() + 10_000);
    expect(lessonDeadline({ startedAt: at(0), timeLimit: 10 }, 2)).toBe(NOW.getTime() + 12_000);
    expect(lessonDeadline({ startedAt: at(0), timeLimit: 0 })).toBeNull();
    expect(lessonDeadline({ startedAt: null, timeLimit: 10 })).toBeNull();
  });
});

// A program a → b → c (sequential), with b asking a question and a unlocking two courses in `branchy`.
const step = (courseId: string, extra: Partial<ProgramStep> = {}): ProgramStep => ({
  courseId,
  unlocks: null,
  question: null,
  endOfProgram: false,
  ...extra,
});
const L = (courseId: string, state: LessonState, extra: Partial<ProgramLesson> = {}): ProgramLesson => ({
  id: `l-${courseId}`,
  courseId,
  state,
  progress: null,
  startedAt: null,
  timeLimit: null,
  answers: [],
  ...extra,
});
const rules = (steps: ProgramStep[], extra: Partial<Parameters<typeof reconcileProgram>[1]> = {}) => ({
  steps,
  mode: 'sequential' as const,
  window: OPEN,
  now: NOW,
  ...extra,
});
const states = (out: ReturnType<typeof reconcileProgram>) =>
  Object.fromEntries([...out].map(([id, o]) => [id, o.state]));

describe('unlock rules', () => {
  const seq = [step('a'), step('b'), step('c')];
  const question = {
    label: 'Next?',
    choices: [
      { response: 'More b', target: 'b' },
      { response: 'Go to c', target: 'c' },
    ],
  };

  it('unlockModeOf', () => {
    expect(unlockModeOf({ unlock: 'all' })).toBe('all');
    expect(unlockModeOf({ unlock: 'weird' })).toBe('sequential');
    expect(unlockModeOf(null)).toBe('sequential');
  });

  it.each<[string, ProgramStep[], number, { actionIdx: number; choiceIdx: number }[], string[]]>([
    ['sequential: the next course', seq, 0, [], ['b']],
    ['the last course opens nothing', seq, 2, [], []],
    [
      'explicit unlocks replace the next one',
      [step('a', { unlocks: ['b', 'c'] }), step('b'), step('c')],
      0,
      [],
      ['b', 'c'],
    ],
    ['a question opens nothing by itself', [step('a', { question }), step('b'), step('c')], 0, [], []],
    [
      'an answered question opens its target',
      [step('a', { question }), step('b'), step('c')],
      0,
      [{ actionIdx: 0, choiceIdx: 1 }],
      ['c'],
    ],
    [
      'out-of-range answers are ignored',
      [step('a', { question }), step('b'), step('c')],
      0,
      [{ actionIdx: 0, choiceIdx: 9 }],
      [],
    ],
    [
      'own course never listed, duplicates once',
      [step('a', { unlocks: ['a', 'b', 'b'] }), step('b')],
      0,
      [],
      ['b'],
    ],
  ])('%s', (_label, steps, index, answers, expected) => {
    expect(unlockTargets(steps, index, answers)).toEqual(expected);
  });

  it('first course AVAILABLE, others LOCKED, at the start', () => {
    const out = reconcileProgram([L('a', 'LOCKED'), L('b', 'LOCKED'), L('c', 'LOCKED')], rules(seq));
    expect(states(out)).toEqual({ 'l-a': 'AVAILABLE', 'l-b': 'LOCKED', 'l-c': 'LOCKED' });
  });

  it('completing a lesson unlocks the next one, and only that one', () => {
    const out = reconcileProgram(
      [L('a', 'DONE', { progress: 'COMPLETED' }), L('b', 'LOCKED'), L('c', 'LOCKED')],
      rules(seq),
    );
    expect(states(out)).toEqual({ 'l-a': 'DONE', 'l-b': 'AVAILABLE', 'l-c': 'LOCKED' });
    expect(out.get('l-a')).toMatchObject({ ended: true, isEndOfProgram: false });
  });

  it('a SKIPPED lesson (time up) unlocks the next one too', () => {
    const out = reconcileProgram(
      [L('a', 'AVAILABLE', { startedAt: at(-2 * MIN), timeLimit: 60 }), L('b', 'LOCKED'), L('c', 'LOCKED')],
      rules(seq),
    );
    expect(states(out)).toEqual({ 'l-a': 'SKIPPED', 'l-b': 'AVAILABLE', 'l-c': 'LOCKED' });
  });

  it('mode all opens every course', () => {
    const out = reconcileProgram(
      [L('a', 'LOCKED'), L('b', 'LOCKED'), L('c', 'LOCKED')],
      rules(seq, { mode: 'all' }),
    );
    expect(states(out)).toEqual({ 'l-a': 'AVAILABLE', 'l-b': 'AVAILABLE', 'l-c': 'AVAILABLE' });
  });

  it('a hidden program stays hidden, whatever was earned; at its start the first course opens', () => {
    const lessons = [L('a', 'AVAILABLE'), L('b', 'LOCKED')];
    const before = reconcileProgram(lessons, rules(seq, { window: w(at(1), null) }));
    expect(states(before)).toEqual({ 'l-a': 'HIDDEN', 'l-b': 'HIDDEN' });
    const hidden = lessons.map((l) => ({ ...l, state: before.get(l.id)!.state }));
    const atStart = reconcileProgram(hidden, rules(seq, { window: w(at(0), null) }));
    expect(states(atStart)).toEqual({ 'l-a': 'AVAILABLE', 'l-b': 'LOCKED' });
  });

  it('expiry closes what is not ended and keeps results', () => {
    const out = reconcileProgram(
      [
        L('a', 'DONE', { progress: 'COMPLETED' }),
        L('b', 'AVAILABLE', { progress: 'ONGOING' }),
        L('c', 'LOCKED'),
      ],
      rules(seq, { window: w(null, at(0)) }),
    );
    expect(states(out)).toEqual({ 'l-a': 'DONE', 'l-b': 'EXPIRED', 'l-c': 'EXPIRED' });
  });

  it('the last course, or one marked endOfProgram, ends the program once ended', () => {
    const steps = [step('a'), step('b', { endOfProgram: true }), step('c')];
    const out = reconcileProgram(
      [
        L('a', 'DONE', { progress: 'COMPLETED' }),
        L('b', 'DONE', { progress: 'COMPLETED' }),
        L('c', 'SKIPPED'),
      ],
      rules(steps),
    );
    expect([...out.values()].map((o) => o.isEndOfProgram)).toEqual([false, true, true]);
    expect(reconcileProgram([L('c', 'AVAILABLE')], rules(steps)).get('l-c')?.isEndOfProgram).toBe(false);
  });

  it('is idempotent: reconciling its own result changes nothing', () => {
    const lessons = [L('a', 'DONE', { progress: 'COMPLETED' }), L('b', 'LOCKED'), L('c', 'HIDDEN')];
    const once = reconcileProgram(lessons, rules(seq));
    const again = reconcileProgram(
      lessons.map((l) => ({ ...l, state: once.get(l.id)!.state })),
      rules(seq),
    );
    expect(states(again)).toEqual(states(once));
  });
});

describe('endOfLessonActions', () => {
  const question = {
    label: 'What next?',
    choices: [
      { response: 'Practise', target: 'b' },
      { response: 'Move on', target: 'c' },
    ],
  };
  const sib = (courseId: string, state: LessonState, progress: 'COMPLETED' | null = null) => ({
    id: `l-${courseId}`,
    courseId,
    state,
    progress,
    title: `Course ${courseId}`,
  });

  it('nothing before the lesson ends', () => {
    const steps = [step('a', { question }), step('b'), step('c')];
    expect(
      endOfLessonActions({ courseId: 'a', state: 'AVAILABLE', progress: 'ONGOING', answers: [] }, steps, [
        sib('b', 'LOCKED'),
        sib('c', 'LOCKED'),
      ]),
    ).toEqual({ interactive: [], unlockedLessons: [] });
  });

  it('two unlocked lessons to choose from', () => {
    const steps = [step('a', { unlocks: ['b', 'c'] }), step('b'), step('c')];
    expect(
      endOfLessonActions({ courseId: 'a', state: 'DONE', progress: 'COMPLETED', answers: [] }, steps, [
        sib('a', 'DONE', 'COMPLETED'),
        sib('b', 'AVAILABLE'),
        sib('c', 'AVAILABLE'),
      ]),
    ).toEqual({
      interactive: [],
      unlockedLessons: [
        { id: 'l-b', title: 'Course b' },
        { id: 'l-c', title: 'Course c' },
      ],
    });
  });

  it('ended or closed targets are not offered', () => {
    const steps = [step('a', { unlocks: ['b', 'c'] }), step('b'), step('c')];
    const out = endOfLessonActions(
      { courseId: 'a', state: 'DONE', progress: 'COMPLETED', answers: [] },
      steps,
      [sib('b', 'DONE', 'COMPLETED'), sib('c', 'EXPIRED')],
    );
    expect(out.unlockedLessons).toEqual([]);
  });

  it('a question with targets as lesson ids, until answered; then the chosen lesson', () => {
    const steps = [step('a', { question }), step('b'), step('c')];
    const siblings = [sib('b', 'LOCKED'), sib('c', 'AVAILABLE')];
    expect(
      endOfLessonActions({ courseId: 'a', state: 'SKIPPED', progress: null, answers: [] }, steps, siblings),
    ).toEqual({
      interactive: [
        {
          label: 'What next?',
          choices: [
            { response: 'Practise', action: { target: 'l-b' } },
            { response: 'Move on', action: { target: 'l-c' } },
          ],
        },
      ],
      unlockedLessons: [],
    });
    expect(
      endOfLessonActions(
        { courseId: 'a', state: 'DONE', progress: 'COMPLETED', answers: [{ actionIdx: 0, choiceIdx: 1 }] },
        steps,
        siblings,
      ),
    ).toEqual({
      interactive: [],
      unlockedLessons: [{ id: 'l-c', title: 'Course c' }],
    });
  });

  it('a question whose target has no lesson is left out (indexes must stay aligned)', () => {
    const steps = [step('a', { question }), step('b'), step('c')];
    expect(
      endOfLessonActions({ courseId: 'a', state: 'DONE', progress: 'COMPLETED', answers: [] }, steps, [
        sib('b', 'LOCKED'),
      ]).interactive,
    ).toEqual([]);
  });
});
