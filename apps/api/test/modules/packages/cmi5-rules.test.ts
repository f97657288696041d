import { describe, expect, it } from 'vitest';
import {
  CMI5_CATEGORY,
  MOVEON_CATEGORY,
  NEW_SESSION,
  cmi5Refusal,
  learnerPreferencesRefusal,
} from '../../../src/modules/packages/cmi5-rules';
import type { RuleContext, SessionState } from '../../../src/modules/packages/cmi5-rules';
import type { Statement } from '../../../src/modules/lrs/statement-schema';

/** Issue 39 item 1: what the LMS refuses of an AU before storing (cmi5 §9, §10.2.2, §11). */
const ADL = 'http://adlnet.gov/expapi/verbs/';
const EXT = 'https://w3id.org/xapi/cmi5/context/extensions/';
const ctx: RuleContext = {
  activityId: 'urn:parcours:block:b/au/x',
  registration: '7c4ad4a1-0c3e-4f5e-9d7b-1f1d3c0b6a11',
  sessionId: 's-1',
  launchMode: 'Normal',
  masteryScore: 0.9,
  registrationCompleted: false,
  registrationPassed: false,
};
const initialized: SessionState = { ...NEW_SESSION, prefsRead: true, initialized: true };

function st(verb: string, over: Record<string, unknown> = {}, moveOn = false): Statement {
  return {
    id: '0f5b7c2e-8a57-4c1e-9b0e-2f3a4d5e6f70',
    actor: { objectType: 'Agent', account: { homePage: 'http://x.test', name: 'u' } },
    verb: { id: `${ADL}${verb}` },
    object: { objectType: 'Activity', id: ctx.activityId },
    timestamp: '2026-11-28T10:00:00.000Z',
    context: {
      registration: ctx.registration,
      contextActivities: { category: [{ id: CMI5_CATEGORY }, ...(moveOn ? [{ id: MOVEON_CATEGORY }] : [])] },
      extensions: { [`${EXT}sessionid`]: 's-1', [`${EXT}masteryscore`]: 0.9 },
    },
    ...over,
  } as Statement;
}
const passed = (score = 0.95, over: Record<string, unknown> = {}) =>
  st('passed', { result: { success: true, duration: 'PT1M', score: { scaled: score } }, ...over }, true);
const failed = (score = 0.5) =>
  st('failed', { result: { success: false, duration: 'PT1M', score: { scaled: score } } }, true);
const completed = (result: Record<string, unknown> = { completion: true, duration: 'PT1M' }) =>
  st('completed', { result }, true);
const refused = (r: ReturnType<typeof cmi5Refusal>) => ('refusal' in r ? r.refusal : null);

describe('cmi5 statement rules', () => {
  it('initialized first, once, after the learner preferences were read', () => {
    expect(refused(cmi5Refusal(st('initialized'), true, ctx, NEW_SESSION))).toMatch(/preferences/);
    const ok = cmi5Refusal(st('initialized'), true, ctx, { ...NEW_SESSION, prefsRead: true });
    expect(ok).toEqual({ next: initialized });
    expect(refused(cmi5Refusal(st('initialized'), true, ctx, initialized))).toMatch(/already/);
    expect(refused(cmi5Refusal(st('experienced', {}, false), true, ctx, NEW_SESSION))).toMatch(/first/);
  });

  it.each([
    ['no id', st('experienced'), false, /id/],
    ['no timestamp', st('experienced', { timestamp: undefined }), true, /timestamp/],
    ['a timestamp not in UTC', st('experienced', { timestamp: '2026-11-28T10:00:00-06:00' }), true, /UTC/],
    [
      'a Group',
      st('passed', { actor: { objectType: 'Group', account: { homePage: 'h', name: 'n' } } }),
      true,
      /Agent/,
    ],
    ['a voiding statement', st('voided', { object: { objectType: 'StatementRef', id: 'x' } }), true, /void/],
    ['an LMS verb', st('launched'), true, /LMS only/],
    ['no context', st('experienced', { context: undefined }), true, /context/],
    [
      'another registration',
      st('experienced', { context: { registration: 'ccaf384c-f8d4-4e7a-8304-49af58f0b176' } }),
      true,
      /registration/,
    ],
    [
      'another object',
      passed(0.95, { object: { id: 'http://example.com/not/the/lms/id' } }),
      true,
      /activity/,
    ],
    ['passed without duration', st('passed', { result: { success: true } }, true), true, /duration/],
    [
      'passed with success false',
      st('passed', { result: { success: false, duration: 'PT1M' } }, true),
      true,
      /success true/,
    ],
    [
      'passed with completion',
      st('passed', { result: { success: true, completion: true, duration: 'PT1M' } }, true),
      true,
      /completion/,
    ],
    ['passed below the masteryScore', passed(0.89), true, /below/],
    ['failed at the masteryScore', failed(0.9), true, /at or above/],
    [
      'a raw score without min',
      st('passed', { result: { success: true, duration: 'PT1M', score: { raw: 90, max: 100 } } }, true),
      true,
      /min and max/,
    ],
    [
      'completed with success',
      completed({ completion: true, success: true, duration: 'PT1M' }),
      true,
      /success/,
    ],
    ['completed without completion', completed({ duration: 'PT1M' }), true, /completion true/],
    [
      'completed with a score',
      completed({ completion: true, duration: 'PT1M', score: { scaled: 0.5 } }),
      true,
      /score/,
    ],
    [
      'completed without the moveOn category',
      st('completed', { result: { completion: true, duration: 'PT1M' } }),
      true,
      /moveOn category/,
    ],
    ['terminated without duration', st('terminated'), true, /duration/],
  ])('refuses %s', (_what, s, hadId, reason) => {
    expect(refused(cmi5Refusal(s, hadId, ctx, initialized))).toMatch(reason);
  });

  it('the masteryScore extension: the launch data one, required with a score', () => {
    const without = (s: Statement) => {
      delete (s.context as { extensions: Record<string, unknown> }).extensions[`${EXT}masteryscore`];
      return s;
    };
    expect(refused(cmi5Refusal(without(passed()), true, ctx, initialized))).toMatch(/masteryScore/);
    const noScore = without(st('passed', { result: { success: true, duration: 'PT1S' } }, true));
    expect(refused(cmi5Refusal(noScore, true, ctx, initialized))).toBeNull();
    const other = passed();
    (other.context as { extensions: Record<string, unknown> }).extensions[`${EXT}masteryscore`] = 0.8;
    expect(refused(cmi5Refusal(other, true, ctx, initialized))).toMatch(/masteryScore/);
  });

  it('the moveOn category only on completed, passed and failed', () => {
    const allowed = st('experienced');
    (allowed.context as { contextActivities: { category: unknown[] } }).contextActivities.category = [
      { id: MOVEON_CATEGORY },
    ];
    expect(refused(cmi5Refusal(allowed, true, ctx, initialized))).toMatch(/moveOn category/);
    expect(
      refused(cmi5Refusal(st('terminated', { result: { duration: 'PT1M' } }, true), true, ctx, initialized)),
    ).toMatch(/moveOn category/);
  });

  it('completed once a registration; one of passed or failed a session; nothing after passed', () => {
    const after = (s: Statement, state: SessionState, c = ctx) => cmi5Refusal(s, true, c, state);
    const done = after(completed(), initialized);
    expect('next' in done && done.next.completed).toBe(true);
    expect(refused(after(completed(), { ...initialized, completed: true }))).toMatch(/once/);
    expect(refused(after(completed(), initialized, { ...ctx, registrationCompleted: true }))).toMatch(/once/);
    expect(refused(after(failed(), { ...initialized, failed: true }))).toMatch(/per session/);
    expect(refused(after(passed(), { ...initialized, failed: true }))).toMatch(/per session/);
    expect(refused(after(failed(), initialized, { ...ctx, registrationPassed: true }))).toMatch(
      /After passed/,
    );
    expect(refused(after(passed(), { ...initialized, passed: true }))).toMatch(/After passed/);
    // A failed session, then a new one: failed or passed again.
    expect(refused(after(passed(), initialized))).toBeNull();
  });

  it('Browse and Review record no completed, passed or failed; terminated ends the session', () => {
    for (const launchMode of ['Browse', 'Review'])
      for (const s of [completed(), passed(), failed()])
        expect(refused(cmi5Refusal(s, true, { ...ctx, launchMode }, initialized))).toMatch(launchMode);
    const end = cmi5Refusal(st('terminated', { result: { duration: 'PT1M' } }), true, ctx, initialized);
    expect(end).toEqual({ next: { ...initialized, terminated: true } });
    expect(refused(cmi5Refusal(st('experienced'), true, ctx, { ...initialized, terminated: true }))).toMatch(
      /terminated/,
    );
  });
});

describe('cmi5 learner preferences (§11)', () => {
  const json = (v: unknown) => Buffer.from(JSON.stringify(v));
  it.each([
    ['no content type', undefined, json({ languagePreference: 'en-US', audioPreference: 'on' })],
    ['text', 'text/plain', Buffer.from('just some text')],
    ['no language', 'application/json', json({ audioPreference: 'on' })],
    ['no audio', 'application/json', json({ languagePreference: 'en-US' })],
    [
      'a language list with spaces',
      'application/json',
      json({ languagePreference: 'not comma separated', audioPreference: 'on' }),
    ],
    ['an empty language list', 'application/json', json({ languagePreference: '', audioPreference: 'off' })],
  ])('refuses %s', (_what, type, body) => {
    expect(learnerPreferencesRefusal(type, body)).not.toBeNull();
  });
  it('takes language tags and on or off', () => {
    expect(
      learnerPreferencesRefusal(
        'application/json',
        json({ languagePreference: 'en-US,fr-FR,fr-BE', audioPreference: 'off' }),
      ),
    ).toBeNull();
  });
});
