import { describe, expect, it } from 'vitest';
import { displayName } from './display-name';
import type { DisplayNameSource } from './display-name';

describe('displayName', () => {
  it.each<[string, DisplayNameSource, string]>([
    [
      'first and last name',
      { firstname: 'Ada', lastname: 'Lovelace', username: 'ada', email: 'a@x.fr' },
      'Ada Lovelace',
    ],
    ['trims each part', { firstname: '  Ada ', lastname: ' Lovelace  ' }, 'Ada Lovelace'],
    ['username beats a lone first name', { firstname: 'Ada', username: 'ada42', email: 'a@x.fr' }, 'ada42'],
    ['username beats a lone last name', { lastname: 'Lovelace', username: 'ada42' }, 'ada42'],
    ['username when no names', { username: ' ada42 ', email: 'a@x.fr' }, 'ada42'],
    ['lone first name', { firstname: 'Ada', lastname: null, username: null, email: 'a@x.fr' }, 'Ada'],
    ['lone last name', { firstname: '', lastname: 'Lovelace', email: 'a@x.fr' }, 'Lovelace'],
    ['whitespace last name counts as missing', { firstname: 'Ada', lastname: '   ', email: 'a@x.fr' }, 'Ada'],
    ['whitespace username counts as missing', { firstname: 'Ada', username: ' \t ' }, 'Ada'],
    ['e-mail as last resort', { firstname: ' ', lastname: null, username: '', email: ' a@x.fr ' }, 'a@x.fr'],
    ['nothing usable', {}, ''],
    ['all blank', { firstname: ' ', lastname: ' ', username: ' ', email: ' ' }, ''],
    [
      'keeps inner spaces of compound names',
      { firstname: 'Jean Pierre', lastname: 'Le Goff' },
      'Jean Pierre Le Goff',
    ],
  ])('%s', (_label, user, expected) => {
    expect(displayName(user)).toBe(expected);
  });
});
