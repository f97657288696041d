import { describe, expect, it } from 'vitest';
import { moveOnFraction, moveOnMet } from '../../../src/modules/packages/move-on';
import type { AuRecord } from '../../../src/modules/packages/move-on';
import {
  formatScormTime,
  initialCmi,
  isFinal,
  parseScormTime,
  scormFraction,
  scormState,
} from '../../../src/modules/packages/scorm';
import type { ScormKind } from '../../../src/modules/packages/scorm';
import { scormStatements } from '../../../src/modules/packages/statements';
import { statementSchema } from '../../../src/modules/lrs/statement-schema';

/** Issue 31: the SCORM and cmi5 rules the server applies, pure and table-driven. */

describe('SCORM times', () => {
  it.each([
    ['0000:00:30.00', 30],
    ['01:02:03', 3723],
    ['0001:00:00.5', 3600.5],
    ['PT45S', 45],
    ['PT1H2M3.5S', 3723.5],
    ['P1DT1S', 86401],
    ['PT0S', 0],
    ['', null],
    ['PT', null],
    ['1:2:3', null],
    ['P1H', null],
    ['soon', null],
  ])('%j is %j seconds', (text, seconds) => {
    expect(parseScormTime(text)).toBe(seconds);
  });
  it.each([
    ['scorm12', 3723.5, '0001:02:03.50'],
    ['scorm12', 0, '0000:00:00.00'],
    ['scorm2004', 3723.5, 'PT1H2M3.5S'],
    ['scorm2004', 59.999, 'PT0H1M0S'],
  ] as [ScormKind, number, string][])('%s writes %j as %j', (kind, seconds, text) => {
    expect(formatScormTime(kind, seconds)).toBe(text);
  });
});

describe('SCORM results', () => {
  const s12 = (core: Record<string, unknown>) => scormState('scorm12', { core });
  const s04 = (cmi: Record<string, unknown>) => scormState('scorm2004', cmi);
  it.each([
    [
      '1.2 passed with raw 85 of 100',
      s12({ lesson_status: 'passed', score: { raw: '85', max: '100', min: '0' } }),
      0.85,
    ],
    [
      '1.2 passed, raw 40 with no max: out of 100',
      s12({ lesson_status: 'passed', score: { raw: '40' } }),
      0.4,
    ],
    [
      '1.2 raw 15 between min 10 and max 20',
      s12({ lesson_status: 'failed', score: { raw: '15', min: '10', max: '20' } }),
      0.5,
    ],
    ['1.2 completed without a score', s12({ lesson_status: 'completed', score: { raw: '' } }), 1],
    ['1.2 failed without a score', s12({ lesson_status: 'failed' }), 0],
    ['1.2 incomplete: not final', s12({ lesson_status: 'incomplete', score: { raw: '90' } }), null],
    ['1.2 browsed: not final', s12({ lesson_status: 'browsed' }), null],
    [
      '2004 scaled 0.6, failed',
      s04({ success_status: 'failed', completion_status: 'completed', score: { scaled: '0.6' } }),
      0.6,
    ],
    ['2004 negative scaled counts as 0', s04({ success_status: 'failed', score: { scaled: '-0.5' } }), 0],
    [
      '2004 raw/max without scaled',
      s04({ completion_status: 'completed', score: { raw: '3', max: '4' } }),
      0.75,
    ],
    ['2004 raw without max: the status decides', s04({ success_status: 'passed', score: { raw: '3' } }), 1],
    [
      '2004 completed, success unknown',
      s04({ completion_status: 'completed', success_status: 'unknown' }),
      1,
    ],
    [
      '2004 incomplete and unknown: not final',
      s04({ completion_status: 'incomplete', score: { scaled: '0.9' } }),
      null,
    ],
  ])('%s → %j', (name, state, fraction) => {
    const kind: ScormKind = name.startsWith('1.2') ? 'scorm12' : 'scorm2004';
    expect(scormFraction(kind, state)).toBe(fraction);
    expect(isFinal(state)).toBe(fraction !== null);
  });
  it('reads the 1.2 location, suspend data, exit and session time', () => {
    expect(
      scormState('scorm12', {
        suspend_data: 'p=3',
        core: { lesson_location: 'page-3', exit: 'suspend', session_time: '00:01:00' },
      }),
    ).toMatchObject({
      location: 'page-3',
      suspendData: 'p=3',
      exit: 'suspend',
      sessionSeconds: 60,
      completion: 'unknown',
    });
  });
});

describe('the cmi a launch starts with', () => {
  const facts = {
    learnerId: 'u1',
    learnerName: 'Lee, Ann',
    totalSeconds: 90,
    masteryScore: 70,
    scaledPassingScore: 0.7,
    completionThreshold: null,
    launchData: 'level=2',
    maxTimeAllowed: null,
    timeLimitAction: null,
  };
  it('1.2, first launch: ab-initio, the learner and what the LMS sets', () => {
    expect(initialCmi('scorm12', null, facts)).toEqual({
      core: {
        student_id: 'u1',
        student_name: 'Lee, Ann',
        credit: 'credit',
        lesson_mode: 'normal',
        entry: 'ab-initio',
        total_time: '0000:01:30.00',
      },
      launch_data: 'level=2',
      student_data: { mastery_score: '70' },
    });
  });
  it("1.2, again: resume with the SCO's own data, never its session or what the LMS owns", () => {
    const stored = {
      suspend_data: 'p=3',
      launch_data: 'forged',
      interactions: { '0': { id: 'q1' } },
      core: {
        _children: 'student_id,...',
        student_id: 'forged',
        lesson_location: 'page-3',
        lesson_status: 'incomplete',
        exit: 'suspend',
        session_time: '00:00:10',
        total_time: '9999:00:00',
        score: { raw: '', min: '', max: '' },
      },
    };
    expect(initialCmi('scorm12', stored, facts)).toEqual({
      suspend_data: 'p=3',
      launch_data: 'level=2',
      student_data: { mastery_score: '70' },
      core: {
        lesson_location: 'page-3',
        lesson_status: 'incomplete',
        student_id: 'u1',
        student_name: 'Lee, Ann',
        credit: 'credit',
        lesson_mode: 'normal',
        entry: 'resume',
        total_time: '0000:01:30.00',
      },
    });
  });
  it('2004, again: location, suspend data and statuses back; passing score from the manifest', () => {
    expect(
      initialCmi(
        'scorm2004',
        {
          location: 'p2',
          suspend_data: 'x',
          completion_status: 'incomplete',
          learner_id: 'forged',
          mode: 'browse',
        },
        facts,
      ),
    ).toEqual({
      location: 'p2',
      suspend_data: 'x',
      completion_status: 'incomplete',
      learner_id: 'u1',
      learner_name: 'Lee, Ann',
      credit: 'credit',
      mode: 'normal',
      entry: 'resume',
      total_time: 'PT0H1M30S',
      launch_data: 'level=2',
      scaled_passing_score: '0.7',
    });
  });
});

describe('SCORM profile statements', () => {
  const base = {
    actor: { objectType: 'Agent' as const, account: { homePage: 'http://pk.test', name: 'u1' } },
    blockId: 'b1',
    lessonId: 'l1',
    pageId: 'p1',
    item: 'sco 1',
    title: 'Quiz',
    registration: '00000000-0000-0000-0000-000000000000',
    at: new Date('2026-05-01T10:00:00Z'),
  };
  const st = (kind: ScormKind, cmi: Record<string, unknown>) => scormState(kind, cmi);
  it.each([
    [
      'a first commit, nothing decided',
      { first: true, resumed: false, terminate: false, before: null, after: st('scorm2004', {}) },
      ['initialized'],
    ],
    [
      'a resumed launch',
      {
        first: true,
        resumed: true,
        terminate: false,
        before: st('scorm2004', {}),
        after: st('scorm2004', {}),
      },
      ['resumed'],
    ],
    [
      'passed and completed, then LMSFinish',
      {
        first: false,
        resumed: false,
        terminate: true,
        before: st('scorm12', { core: { lesson_status: 'incomplete' } }),
        after: st('scorm12', {
          core: { lesson_status: 'passed', score: { raw: '80' }, session_time: '00:00:30' },
        }),
      },
      ['completed', 'passed', 'terminated'],
    ],
    [
      'suspended',
      {
        first: false,
        resumed: false,
        terminate: true,
        before: st('scorm2004', {}),
        after: st('scorm2004', { exit: 'suspend', completion_status: 'incomplete' }),
      },
      ['suspended'],
    ],
    [
      'failed again: no second failed',
      {
        first: false,
        resumed: false,
        terminate: false,
        before: st('scorm2004', { success_status: 'failed' }),
        after: st('scorm2004', { success_status: 'failed' }),
      },
      [],
    ],
  ])('%s', (_name, facts, verbs) => {
    const list = scormStatements({ ...base, ...facts });
    expect(list.map((s) => s.verb)).toEqual(verbs);
    for (const { statement } of list) {
      const parsed = statementSchema.safeParse(statement);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
      expect(statement.context?.contextActivities?.category).toEqual([
        {
          id: 'https://w3id.org/xapi/scorm',
          definition: { type: 'http://adlnet.gov/expapi/activities/profile' },
        },
      ]);
      expect((statement.object as { id: string }).id).toBe('urn:parcours:block:b1/sco/sco%201');
    }
  });
  it("sends each interaction's new response as responded, with its type, pattern and correctness", () => {
    const before = st('scorm12', {
      interactions: { '0': { id: 'q1', type: 'choice', student_response: 'b', result: 'correct' } },
    });
    const after = st('scorm12', {
      interactions: {
        '0': { id: 'q1', type: 'choice', student_response: 'b', result: 'correct' },
        '1': {
          id: 'q 2',
          type: 'bogus',
          student_response: 'x',
          result: 'wrong',
          correct_responses: { '0': { pattern: 'y' } },
        },
        '2': { id: 'q3', type: 'numeric', student_response: '', result: '' },
      },
    });
    const list = scormStatements({ ...base, first: false, resumed: false, terminate: false, before, after });
    expect(list.map((s) => s.key)).toEqual(['responded:1']);
    const [only] = list;
    expect(statementSchema.safeParse(only?.statement).success).toBe(true);
    expect(only?.statement).toMatchObject({
      verb: { id: 'http://adlnet.gov/expapi/verbs/responded' },
      object: {
        id: 'urn:parcours:block:b1/sco/sco%201/interactions/q%202',
        definition: { interactionType: 'other', correctResponsesPattern: ['y'] },
      },
      result: { response: 'x', success: false },
      context: { contextActivities: { parent: [{ id: 'urn:parcours:block:b1/sco/sco%201' }] } },
    });
  });
  it('puts the result on terminated: success, completion, score and duration', () => {
    const list = scormStatements({
      ...base,
      first: false,
      resumed: false,
      terminate: true,
      before: null,
      after: st('scorm2004', {
        success_status: 'failed',
        completion_status: 'incomplete',
        score: { scaled: '0.4', raw: '40', min: '0', max: '100' },
        session_time: 'PT1M5S',
      }),
    });
    expect(list.at(-1)?.statement.result).toEqual({
      success: false,
      completion: false,
      score: { scaled: 0.4, raw: 40, min: 0, max: 100 },
      duration: 'PT65S',
    });
  });
});

describe('cmi5 moveOn', () => {
  const r = (o: Partial<AuRecord>): AuRecord => ({
    completed: false,
    passed: false,
    failed: false,
    score: null,
    ended: false,
    ...o,
  });
  it.each([
    ['Passed', r({ passed: true, score: 0.9 }), 0.9],
    ['Passed', r({ completed: true }), null],
    ['Passed', r({ failed: true, score: 0.4, ended: true }), null],
    ['Completed', r({ completed: true }), 1],
    ['Completed', r({ passed: true, score: 0.8 }), null],
    ['CompletedAndPassed', r({ completed: true }), null],
    ['CompletedAndPassed', r({ completed: true, passed: true, score: 0.75 }), 0.75],
    ['CompletedOrPassed', r({ passed: true }), 1],
    ['CompletedOrPassed', r({ completed: true, failed: true, score: 0.2 }), 1],
    ['NotApplicable', r({}), null],
    ['NotApplicable', r({ ended: true }), 1],
    ['NotApplicable', r({ ended: true, passed: true, score: 0.5 }), 0.5],
  ] as const)('%s with %j → %j', (moveOn, record, fraction) => {
    expect(moveOnFraction(moveOn, record)).toBe(fraction);
    expect(moveOnMet(moveOn, record)).toBe(fraction !== null);
  });
});
