import { compareText } from './collate';

// Names of programs and courses as a French or English reader orders them; the order must be
// Intl.Collator's for Latin text (decision 0030).
const names = [
  'école des cadres',
  'Ecole',
  'école',
  'École',
  'Eau potable',
  'Fer',
  'cote',
  'coté',
  'côte',
  'côté',
  'Œuvre',
  'Oeuvre',
  'ovni',
  'Zèbre',
  'zebre',
  'Accueil',
  'accueil',
  'Ça va',
  'Cadre',
  '2e module',
  '10 gestes',
  'Sécurité au poste de travail',
  'Sécurité atelier — session 3',
  'Securite',
  'Straße',
  'Strasse',
  'Module A',
  'Module-B',
];

describe('compareText', () => {
  it.each(['fr', 'en'])('orders the names as Intl.Collator(%s)', (locale) => {
    const collator = new Intl.Collator(locale);
    expect([...names].sort(compareText)).toEqual([...names].sort(collator.compare));
  });

  it.each([
    ['école', 'Fer', -1],
    ['Eau', 'école', -1],
    ['cote', 'coté', -1],
    ['coté', 'côte', -1],
    ['a', 'A', -1],
    ['same', 'same', 0],
  ] as const)('%s against %s is %i', (a, b, sign) => {
    expect(Math.sign(compareText(a, b))).toBe(sign);
    expect(Math.sign(compareText(b, a))).toBe(-sign || 0);
  });
});
