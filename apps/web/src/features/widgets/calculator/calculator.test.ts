import { describe, expect, it } from 'vitest';
import {
  ERROR,
  evaluate,
  initialCalc,
  keyFromKeyboard,
  press,
  type CalcKey,
  type CalcState,
} from './calculator';

function run(keys: string): CalcState {
  return [...keys].reduce((state, ch) => {
    const key: CalcKey | null =
      ch === 'n' ? { kind: 'sign' } : ch === 'r' ? { kind: 'function', name: 'sqrt' } : keyFromKeyboard(ch);
    return key ? press(state, key) : state;
  }, initialCalc);
}

describe('calculator (SPEC §4, §5)', () => {
  it.each([
    ['12', '12'],
    ['.5', '0,5'],
    ['1.2.3', '1,23'],
    ['05', '5'],
    ['1,5', '1,5'],
    ['12345678901', '1234567890'],
    ['2+3*4=', '14'],
    ['10/4=', '2,5'],
    ['7-9=', '-2'],
    ['1/3=', '0,33333333'],
    ['5n', '-5'],
    ['4r', '2'],
    ['4nr', ERROR],
    ['1/0=', ERROR],
  ])('%s shows %s', (keys, display) => {
    expect(run(keys).display).toBe(display);
  });

  it('clears an ERROR before new input', () => {
    expect(run('1/0=5').display).toBe('5');
  });

  it('Backspace clears everything', () => {
    expect(press(run('12+3'), { kind: 'clear' })).toEqual(initialCalc);
  });

  it('goes on from a result', () => {
    expect(run('2+3=*2=').display).toBe('10');
  });

  it('trigonometry is in degrees', () => {
    expect(press(run('30'), { kind: 'function', name: 'sin' }).display).toBe('0,5');
    expect(press(run('1'), { kind: 'function', name: 'atan' }).display).toBe('45');
  });

  it('evaluates with precedence', () => {
    expect(evaluate([1, '+', 2, '*', 3, '-', 4, '/', 2])).toBe(5);
  });
});
