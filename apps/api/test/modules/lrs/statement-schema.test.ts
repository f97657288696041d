import { describe, expect, it } from 'vitest';
import { authoritySchema, statementSchema } from '../../../src/modules/lrs/statement-schema';

/**
 * The defects issue 28 found with ADL's conformance suite in the statement schema
 * (xAPI-Data.md §2.4, §4.5–4.6), each as a row: a statement the LRS must refuse, and its
 * accepted twin where the spec names one. Pure: no database.
 */
const actor = { objectType: 'Agent', mbox: 'mailto:a@example.com' };
const verb = { id: 'http://adlnet.gov/expapi/verbs/experienced' };
const activity = { objectType: 'Activity', id: 'http://example.com/a' };
const base = { actor, verb, object: activity };
const agent = (n: number) => ({ mbox: `mailto:m${n}@example.com` });

const refused: [string, unknown][] = [
  [
    'an interactionType that is not one of the ten',
    { ...base, object: { ...activity, definition: { interactionType: 'essay' } } },
  ],
  [
    'correctResponsesPattern without interactionType',
    { ...base, object: { ...activity, definition: { correctResponsesPattern: ['a'] } } },
  ],
  [
    'choices without interactionType',
    { ...base, object: { ...activity, definition: { choices: [{ id: 'a', description: { en: 'A' } }] } } },
  ],
  ['an Agent object without objectType', { ...base, object: { mbox: 'mailto:b@example.com' } }],
  ['a Group object without objectType', { ...base, object: { member: [agent(1)] } }],
  [
    'an identified Group object without objectType',
    { ...base, object: { mbox: 'mailto:g@example.com', member: [agent(1)] } },
  ],
  [
    'context.revision in a SubStatement about an agent',
    {
      ...base,
      object: {
        objectType: 'SubStatement',
        actor,
        verb,
        object: { objectType: 'Agent', ...agent(2) },
        context: { revision: 'r1' },
      },
    },
  ],
  [
    'context.platform in a SubStatement about an agent',
    {
      ...base,
      object: {
        objectType: 'SubStatement',
        actor,
        verb,
        object: { objectType: 'Agent', ...agent(2) },
        context: { platform: 'p' },
      },
    },
  ],
  ['a context.language that is not a language tag', { ...base, context: { language: 'not a tag' } }],
  [
    'an identified Group as authority',
    {
      ...base,
      authority: { objectType: 'Group', mbox: 'mailto:g@example.com', member: [agent(1), agent(2)] },
    },
  ],
  ['a Group of one as authority', { ...base, authority: { objectType: 'Group', member: [agent(1)] } }],
  [
    'a Group of three as authority',
    { ...base, authority: { objectType: 'Group', member: [agent(1), agent(2), agent(3)] } },
  ],
  ['a timestamp with a -00:00 offset', { ...base, timestamp: '2026-11-27T10:00:00-00:00' }],
  ['a duration that mixes weeks and days', { ...base, result: { duration: 'P4W1D' } }],
];
const accepted: [string, unknown][] = [
  [
    'a choice interaction with its components',
    {
      ...base,
      object: {
        ...activity,
        definition: {
          interactionType: 'choice',
          correctResponsesPattern: ['a'],
          choices: [{ id: 'a', description: { en: 'A' } }],
        },
      },
    },
  ],
  [
    'an Agent object with objectType',
    { ...base, object: { objectType: 'Agent', mbox: 'mailto:b@example.com' } },
  ],
  [
    'context.revision about an activity',
    { ...base, context: { revision: 'r1', platform: 'p', language: 'en-GB' } },
  ],
  [
    'a Group of two as authority (OAuth consumer and user)',
    { ...base, authority: { objectType: 'Group', member: [agent(1), agent(2)] } },
  ],
  ['a timestamp with a +00:00 offset', { ...base, timestamp: '2026-11-27T10:00:00+00:00' }],
  ['a duration in weeks', { ...base, result: { duration: 'P4W' } }],
];

describe('statement schema (issue 28 defects)', () => {
  it.each(refused)('refuses %s', (_name, statement) => {
    expect(statementSchema.safeParse(statement).success).toBe(false);
  });
  it.each(accepted)('accepts %s', (_name, statement) => {
    const r = statementSchema.safeParse(statement);
    expect(r.success, JSON.stringify(r.error?.issues)).toBe(true);
  });
  it('exports the authority rule on its own (an Agent, or an anonymous Group of two)', () => {
    expect(authoritySchema.safeParse(actor).success).toBe(true);
    expect(authoritySchema.safeParse({ objectType: 'Group', member: [agent(1)] }).success).toBe(false);
  });
});
