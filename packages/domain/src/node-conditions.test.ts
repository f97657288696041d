import { describe, expect, it } from 'vitest';
import { conditionVerdict, conditionsVerdict, nodeConditionSchema, parseConditions } from './node-conditions';
import type { NodeCondition, PageOutcome, Verdict } from './node-conditions';

const done = (ratio: number): PageOutcome => ({ kind: 'done', ratio });
const passed: PageOutcome = { kind: 'passed' };
const pending: PageOutcome = { kind: 'pending' };

describe('conditionVerdict', () => {
  const cases: [string, NodeCondition, PageOutcome, Verdict][] = [
    ['seen, any score', { node: 'a' }, done(0), 'met'],
    ['seen, not reached yet', { node: 'a' }, pending, 'pending'],
    ['seen, passed over', { node: 'a' }, passed, 'unmet'],
    ['at least 0.5 with 0.5', { node: 'a', minScore: 0.5 }, done(0.5), 'met'],
    ['at least 0.5 with 0.49', { node: 'a', minScore: 0.5 }, done(0.49), 'unmet'],
    ['below 0.5 with 0.49', { node: 'a', belowScore: 0.5 }, done(0.49), 'met'],
    ['below 0.5 with 0.5', { node: 'a', belowScore: 0.5 }, done(0.5), 'unmet'],
    ['band 0.5–0.8 with 0.7', { node: 'a', minScore: 0.5, belowScore: 0.8 }, done(0.7), 'met'],
    ['band 0.5–0.8 with 0.8', { node: 'a', minScore: 0.5, belowScore: 0.8 }, done(0.8), 'unmet'],
    ['band on a page passed over', { node: 'a', belowScore: 0.5 }, passed, 'unmet'],
    ['band on a page not reached', { node: 'a', minScore: 0.5 }, pending, 'pending'],
  ];
  it.each(cases)('%s', (_name, c, outcome, verdict) => {
    expect(conditionVerdict(c, outcome)).toBe(verdict);
  });
});

describe('conditionsVerdict', () => {
  const outcomes: Record<string, PageOutcome> = { a: done(0.9), b: done(0.2), c: pending, d: passed };
  const of = (id: string) => outcomes[id] ?? pending;
  const cases: [string, NodeCondition[], Verdict][] = [
    ['no condition', [], 'met'],
    [
      'all met',
      [
        { node: 'a', minScore: 0.5 },
        { node: 'b', belowScore: 0.5 },
      ],
      'met',
    ],
    ['one unmet wins over pending', [{ node: 'c' }, { node: 'b', minScore: 0.5 }], 'unmet'],
    ['met and pending', [{ node: 'a' }, { node: 'c' }], 'pending'],
    ['on a page passed over', [{ node: 'd' }], 'unmet'],
  ];
  it.each(cases)('%s', (_name, conditions, verdict) => {
    expect(conditionsVerdict(conditions, of)).toBe(verdict);
  });
});

describe('nodeConditionSchema and parseConditions', () => {
  const cases: [string, unknown, boolean][] = [
    ['a node alone', { node: 'a' }, true],
    ['a band', { node: 'a', minScore: 0.2, belowScore: 0.6 }, true],
    ['an empty band', { node: 'a', minScore: 0.6, belowScore: 0.6 }, false],
    ['a ratio above 1', { node: 'a', minScore: 1.5 }, false],
    ['an unknown key', { node: 'a', score: 1 }, false],
    ['no node', { minScore: 0.5 }, false],
  ];
  it.each(cases)('%s', (_name, value, valid) => {
    expect(nodeConditionSchema.safeParse(value).success).toBe(valid);
  });

  it('reads stored JSON and leaves out what it cannot read', () => {
    expect(parseConditions('[{"node":"a","minScore":0.5},{"bad":1}]')).toEqual([
      { node: 'a', minScore: 0.5 },
    ]);
    expect(parseConditions('not json')).toEqual([]);
    expect(parseConditions(null)).toEqual([]);
  });
});
