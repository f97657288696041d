import { describe, expect, it } from 'vitest';
import { datasetsSchema } from './draw';
import { computeValues, drawPageValues, parseFormula, parseParameters } from './formula';

const known = new Set(['prix', 'remise', 'n']);

describe('parseFormula', () => {
  it.each([
    ['prix * (1 - remise / 100)', { prix: 80, remise: 15 }, 68],
    ['prix * remise / 100', { prix: 80, remise: 15 }, 12],
    ['round(prix * 0.333, 2)', { prix: 10 }, 3.33],
    ['remise >= 20 ? 1 : 0', { remise: 20 }, 1],
    ['remise >= 20 ? 1 : 0', { remise: 15 }, 0],
    ['max(prix, remise) - min(prix, remise)', { prix: 3, remise: 10 }, 7],
    ['n ^ 2 + sqrt(16) + abs(-1) + floor(2.7) + ceil(0.2) + mod(7, 3)', { n: 3 }, 18],
    ['0.1 * 3', {}, 0.3],
    ['prix > 5 and remise < 3', { prix: 6, remise: 2 }, 1],
  ])('%s with %j is %s', (text, values, expected) => {
    const f = parseFormula(text, known);
    if (!f.ok) throw new Error(f.message);
    expect(f.formula.evaluate(values)).toBe(expected);
  });

  it.each([
    ['', 'required'],
    ['prix +', 'cannot read'],
    ['total * 2', 'unknown value total'],
    ['evaluate("1+1")', 'unknown function evaluate'],
    ['import({}, {})', 'unknown function import'],
    ['f(x) = x', 'functionassignment'],
    ['a = 1', 'assignment'],
    ['prix.constructor', 'accessor'],
    ['[1, 2]', 'array'],
    ['{a: 1}', 'object'],
    ['createUnit("x")', 'unknown function createunit'],
    ['parse("1")', 'unknown function parse'],
    ['sin(prix)', 'unknown function sin'],
    ['prix; remise', 'block'],
    ['1:3', 'range'],
    ['"text"', 'only numbers'],
    ['x'.repeat(501), 'at most 500'],
  ])('refuses %s', (text, message) => {
    const f = parseFormula(text, known);
    expect(f.ok).toBe(false);
    if (!f.ok) expect(f.message.toLowerCase()).toContain(message.toLowerCase());
  });

  it('fails on a value that is not a finite number (division by zero)', () => {
    const f = parseFormula('prix / remise', known);
    if (!f.ok) throw new Error(f.message);
    expect(() => f.formula.evaluate({ prix: 1, remise: 0 })).toThrow(/Infinity/);
  });

  it('does not read values off the prototype', () => {
    const f = parseFormula('prix', known);
    if (!f.ok) throw new Error(f.message);
    expect(() => f.formula.evaluate(Object.create({ prix: 4 }) as Record<string, number>)).toThrow();
  });
});

describe('parseParameters and computeValues', () => {
  const datasets = datasetsSchema.parse({ prix: { values: [80] }, remise: { values: [15] } });

  it('computes each value from the variables and the values before it', () => {
    const p = parseParameters(datasets, { economie: 'prix * remise / 100', net: 'prix - economie' });
    if (!p.ok) throw new Error(p.message);
    expect(computeValues({ prix: 80, remise: 15 }, p.computed)).toEqual({
      prix: 80,
      remise: 15,
      economie: 12,
      net: 68,
    });
    expect(drawPageValues(datasets, p.computed, 'seed')).toEqual({
      prix: 80,
      remise: 15,
      economie: 12,
      net: 68,
    });
  });

  it.each([
    [{ net: 'prix - economie', economie: 'prix * remise / 100' }, 'net', 'unknown value economie'],
    [{ prix: '1' }, 'prix', 'already'],
    [{ x: 'prix +' }, 'x', 'cannot read'],
  ])('refuses %j at %s', (computed, name, message) => {
    const p = parseParameters(datasets, computed);
    expect(p.ok).toBe(false);
    if (!p.ok) {
      expect(p.name).toBe(name);
      expect(p.message).toContain(message);
    }
  });
});
