import { describe, expect, it } from 'vitest';
import { fillDeep, fillPlaceholders, placeholderNames, placeholderNamesDeep } from './placeholders';

const fmt = (n: number) => n.toLocaleString('fr-FR');

describe('placeholders', () => {
  it.each([
    ['Un article à {{prix}} € soldé {{ remise }} %', ['prix', 'remise'], 'Un article à 80 € soldé 15 %'],
    ['{{prix}} puis {{prix}}', ['prix'], '80 puis 80'],
    ['{{inconnu}} reste', ['inconnu'], '{{inconnu}} reste'],
    ['{prix} et {{ 1x }}', [], '{prix} et {{ 1x }}'],
    ['{{net}}', ['net'], '67,5'],
  ])('%s', (text, names, filled) => {
    expect(placeholderNames(text)).toEqual(names);
    expect(fillPlaceholders(text, { prix: 80, remise: 15, net: 67.5 }, fmt)).toBe(filled);
  });

  it('fills every string of a nested value and finds every name', () => {
    const content = {
      statement: { html: '<p>{{a}}</p>' },
      sections: [{ rows: [{ choices: [{ value: '{{b}} €' }], order: 1 }] }],
    };
    expect(fillDeep(content, { a: 1, b: 2.5 }, String)).toEqual({
      statement: { html: '<p>1</p>' },
      sections: [{ rows: [{ choices: [{ value: '2.5 €' }], order: 1 }] }],
    });
    expect([...placeholderNamesDeep(content)]).toEqual(['a', 'b']);
  });
});
