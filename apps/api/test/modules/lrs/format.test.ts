import { describe, expect, it } from 'vitest';
import { formatStatement, languagePreferences, oneLanguage } from '../../../src/modules/lrs/format';

/** GET statements `format` (xAPI-Communication.md §2.1.3): ids and canonical, pure. */
const agent = { objectType: 'Agent', name: 'Ada', mbox: 'mailto:ada@example.com' };
const activity = {
  objectType: 'Activity',
  id: 'http://example.com/a',
  definition: {
    name: { 'en-US': 'Fire', 'en-GB': 'Fire!', fr: 'Feu' },
    extensions: { 'http://x/e': { 'en-US': 1 } },
  },
};
const statement = {
  id: 'x',
  actor: agent,
  verb: { id: 'http://example.com/v', display: { 'en-US': 'did', fr: 'a fait' } },
  object: activity,
  context: {
    instructor: { objectType: 'Group', member: [agent] },
    contextActivities: { parent: [activity] },
  },
  authority: agent,
};

describe('format=ids', () => {
  it('keeps what identifies agents, anonymous groups, activities and verbs only', () => {
    expect(formatStatement(statement, 'ids')).toEqual({
      id: 'x',
      actor: { objectType: 'Agent', mbox: 'mailto:ada@example.com' },
      verb: { id: 'http://example.com/v' },
      object: { id: 'http://example.com/a' },
      context: {
        instructor: {
          objectType: 'Group',
          member: [{ objectType: 'Agent', mbox: 'mailto:ada@example.com' }],
        },
        contextActivities: { parent: [{ id: 'http://example.com/a' }] },
      },
      authority: { objectType: 'Agent', mbox: 'mailto:ada@example.com' },
    });
  });
});

describe('format=canonical', () => {
  it.each([
    ['en-GB', { 'en-GB': 'Fire!' }],
    ['fr-CA, en;q=0.5', { fr: 'Feu' }],
    ['de', { 'en-US': 'Fire' }],
    [undefined, { 'en-US': 'Fire' }],
  ])('Accept-Language %s picks %j', (header, expected) => {
    const out = formatStatement(statement, 'canonical', header) as typeof statement;
    expect(out.object.definition.name).toEqual(expected);
    expect(Object.keys(out.verb.display)).toHaveLength(1);
    // Extensions are data, not language maps.
    expect(out.object.definition.extensions).toEqual(activity.definition.extensions);
  });

  it('orders preferences by q, then by position', () => {
    expect(languagePreferences('fr;q=0.4, en-GB, *, de;q=0')).toEqual(['en-gb', 'fr']);
    expect(oneLanguage({ a: '1' }, ['fr'])).toEqual({ a: '1' });
  });
});
