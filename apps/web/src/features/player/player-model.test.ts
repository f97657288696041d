import { block, pageAttributes, results } from './test-pages';
import {
  afterLessonPath,
  canRetry,
  countdownPhase,
  enterTriggersNext,
  needsNoAnswerDialog,
  needsTimedStart,
  nextLabelKey,
  orderFeedbacks,
  showsDashboardButton,
} from './player-model';

const page = (overrides: Parameters<typeof pageAttributes>[0] = {}) => ({
  id: 'p1',
  ...pageAttributes(overrides),
});

function keyEvent(target: Element, init: Partial<KeyboardEvent> = {}) {
  return {
    key: 'Enter',
    defaultPrevented: false,
    repeat: false,
    isComposing: false,
    altKey: false,
    ctrlKey: false,
    metaKey: false,
    shiftKey: false,
    target,
    ...init,
  } as KeyboardEvent;
}

describe('player rules', () => {
  it("labels Next 'end module' on tincan blocks only (SPEC §2)", () => {
    expect(nextLabelKey(block({ type: 'tincan' }))).toBe('player.footer.endModule');
    expect(nextLabelKey(block({ type: 'slide' }))).toBe('player.footer.next');
    expect(nextLabelKey(block())).toBe('player.footer.next');
  });

  it('shows the dashboard button when the block asks, never on tincan', () => {
    const template = { backToDashBoard: true };
    expect(showsDashboardButton(block({ settings: { hintCount: 0, template } }))).toBe(true);
    expect(showsDashboardButton(block({ type: 'tincan', settings: { hintCount: 0, template } }))).toBe(false);
    expect(showsDashboardButton(block())).toBe(false);
  });

  it('Enter triggers Next, except in tincan blocks, dialogs and where Enter has its own meaning', () => {
    const context = { isTincan: false, dialogOpen: false, enabled: true };
    const input = document.createElement('input');
    const checkbox = Object.assign(document.createElement('input'), { type: 'checkbox' });
    const button = document.createElement('button');
    const textarea = document.createElement('textarea');
    expect(enterTriggersNext(keyEvent(document.body), context)).toBe(true);
    expect(enterTriggersNext(keyEvent(input), context)).toBe(true);
    expect(enterTriggersNext(keyEvent(checkbox), context)).toBe(true);
    expect(enterTriggersNext(keyEvent(document.body), { ...context, isTincan: true })).toBe(false);
    expect(enterTriggersNext(keyEvent(document.body), { ...context, dialogOpen: true })).toBe(false);
    expect(enterTriggersNext(keyEvent(button), context)).toBe(false);
    expect(enterTriggersNext(keyEvent(textarea), context)).toBe(false);
    expect(enterTriggersNext(keyEvent(document.body, { key: 'a' }), context)).toBe(false);
    expect(enterTriggersNext(keyEvent(document.body, { shiftKey: true }), context)).toBe(false);
  });

  it('puts general feedbacks before answer ones, and none when the course type turns them off', () => {
    const feedbacks = [
      { source: 'answer' as const, preset: 'warning', message: 'a1', rowIndex: 0 },
      { source: 'general' as const, preset: 'success', message: 'g1', rowIndex: null },
      { source: 'answer' as const, preset: 'success', message: 'a2', rowIndex: 0 },
      { source: 'general' as const, preset: 'info', message: 'g2', rowIndex: null },
    ];
    const graded = page({ results: results({ feedbacks }) });
    expect(orderFeedbacks(graded).map((f) => f.message)).toEqual(['g1', 'g2', 'a1', 'a2']);
    expect(
      orderFeedbacks({ ...graded, courseTypeSettings: { hints: true, feedbacks: false, retry: false } }),
    ).toEqual([]);
  });

  it('asks about an empty answer on exercise pages only', () => {
    expect(needsNoAnswerDialog(page(), [null])).toBe(true);
    expect(needsNoAnswerDialog(page(), [[]])).toBe(true);
    expect(needsNoAnswerDialog(page(), [[0]])).toBe(false);
    expect(needsNoAnswerDialog(page({ block: block({ type: 'slide' }) }), [null])).toBe(false);
    expect(needsNoAnswerDialog(page({ results: results() }), [null])).toBe(false);
  });

  it('offers a retry only on an answered exercise the server allows, when the course type does', () => {
    const retry = { hints: true, feedbacks: true, retry: true };
    const wrong = results({ outcome: 'incorrect', retryAllowed: true });
    expect(canRetry(page({ courseTypeSettings: retry, results: wrong }))).toBe(true);
    expect(canRetry(page({ courseTypeSettings: retry, results: results({ retryAllowed: false }) }))).toBe(
      false,
    );
    expect(canRetry(page({ courseTypeSettings: retry }))).toBe(false);
    expect(canRetry(page({ results: wrong }))).toBe(false);
    expect(
      canRetry(page({ courseTypeSettings: retry, results: wrong, block: block({ type: 'slide' }) })),
    ).toBe(false);
    expect(
      canRetry(page({ courseTypeSettings: retry, results: wrong, block: block({ type: 'tincan' }) })),
    ).toBe(false);
  });

  it('waits for the start of a timed page', () => {
    expect(needsTimedStart(page({ timeLimit: 90 }))).toBe(true);
    expect(needsTimedStart(page({ timeLimit: 90, startedAt: '2026-01-01T00:00:00Z' }))).toBe(false);
    expect(needsTimedStart(page())).toBe(false);
  });

  it.each([
    [30, 'running'],
    [21, 'running'],
    [20, 'warning'],
    [6, 'warning'],
    [5, 'ending'],
    [1, 'ending'],
    [0, 'ended'],
    [-2, 'ended'],
  ])('countdown at %i s is %s (SPEC §4)', (seconds, phase) => {
    expect(countdownPhase(seconds)).toBe(phase);
  });

  it('routes after the lesson: questions, then actions, then evaluation, else nothing', () => {
    const interactive = [{ label: 'Q', choices: [] }];
    const unlockedLessons = [{ id: 'l2', title: 'Next' }];
    expect(afterLessonPath('l1', { interactive, unlockedLessons }, 'p1')).toBe('/session/l1/questions');
    expect(afterLessonPath('l1', { interactive: [], unlockedLessons }, 'p1')).toBe('/session/l1/actions');
    expect(afterLessonPath('l1', { interactive: [], unlockedLessons: [] }, 'p1')).toBe(
      '/evaluate/program/p1',
    );
    expect(afterLessonPath('l1', { interactive: [], unlockedLessons: [] }, null)).toBeNull();
  });
});
