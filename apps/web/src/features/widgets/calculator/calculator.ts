/**
 * The calculator of docs/product.md §4/§5, as a pure state machine: key in, state out. No eval: the history
 * is computed with the usual operator precedence.
 */
export const DISPLAY_MAX = 10;
export const ERROR = 'ERROR';
const DECIMALS = 8;

export type Operator = '+' | '-' | '*' | '/';
export type CalcFunction = 'sqrt' | 'sin' | 'cos' | 'tan' | 'asin' | 'acos' | 'atan';
export type CalcKey =
  | { kind: 'digit'; digit: string }
  | { kind: 'dot' }
  | { kind: 'operator'; operator: Operator }
  | { kind: 'equals' }
  | { kind: 'sign' }
  | { kind: 'clear' }
  | { kind: 'function'; name: CalcFunction };

export interface CalcState {
  /** What is being typed, without sign: '' or digits with at most one dot. */
  entry: string;
  sign: 1 | -1;
  /** Numbers and operators pushed so far. */
  history: (number | Operator)[];
  display: string;
}

export const initialCalc: CalcState = { entry: '', sign: 1, history: [], display: '0' };

function round(n: number): number {
  const f = 10 ** DECIMALS;
  return Math.round(n * f) / f;
}

/** A number as the display shows it: comma decimals, at most 10 characters. */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return ERROR;
  let text = String(round(n));
  if (text.length > DISPLAY_MAX) {
    for (let p = DISPLAY_MAX - 1; p > 0 && text.length > DISPLAY_MAX; p--)
      text = String(Number(n.toPrecision(p)));
    if (text.length > DISPLAY_MAX) text = n.toExponential(2);
  }
  return text.replace('.', ',');
}

function entryDisplay(entry: string, sign: 1 | -1): string {
  return `${sign < 0 ? '-' : ''}${entry || '0'}`.replace('.', ',');
}

function entryValue(state: CalcState): number | null {
  return state.entry === '' ? null : state.sign * Number(state.entry);
}

/** Evaluates numbers and operators with × and ÷ before + and −. */
export function evaluate(items: readonly (number | Operator)[]): number {
  const terms: number[] = [];
  let pendingAdd: '+' | '-' = '+';
  let current: number | null = null;
  let pendingMul: '*' | '/' | null = null;
  for (const item of items) {
    if (typeof item === 'number') {
      current = current === null ? item : pendingMul === '*' ? current * item : current / item;
      pendingMul = null;
    } else if (item === '*' || item === '/') {
      pendingMul = item;
    } else {
      if (current !== null) terms.push(pendingAdd === '+' ? current : -current);
      current = null;
      pendingAdd = item;
    }
  }
  if (current !== null) terms.push(pendingAdd === '+' ? current : -current);
  return terms.reduce((a, b) => a + b, 0);
}

const DEG = Math.PI / 180;
function apply(name: CalcFunction, x: number): number {
  switch (name) {
    case 'sqrt':
      return x < 0 ? NaN : Math.sqrt(x);
    case 'sin':
      return Math.sin(x * DEG);
    case 'cos':
      return Math.cos(x * DEG);
    case 'tan':
      return Math.tan(x * DEG);
    case 'asin':
      return Math.asin(x) / DEG;
    case 'acos':
      return Math.acos(x) / DEG;
    case 'atan':
      return Math.atan(x) / DEG;
  }
}

/** The entry that holds a computed number, so the learner can go on from a result. */
function fromResult(value: number, history: CalcState['history']): CalcState {
  const display = formatNumber(value);
  if (display === ERROR) return { ...initialCalc, display: ERROR };
  return { entry: String(Math.abs(round(value))), sign: value < 0 ? -1 : 1, history, display };
}

export function press(previous: CalcState, key: CalcKey): CalcState {
  // docs/product.md §4: a display showing ERROR is cleared before new input.
  const state = previous.display === ERROR ? initialCalc : previous;
  switch (key.kind) {
    case 'digit': {
      const entry = state.entry === '0' ? key.digit : state.entry + key.digit;
      if (entryDisplay(entry, state.sign).length > DISPLAY_MAX) return state;
      return { ...state, entry, display: entryDisplay(entry, state.sign) };
    }
    case 'dot': {
      if (state.entry.includes('.')) return state;
      const entry = state.entry === '' ? '0.' : `${state.entry}.`;
      if (entryDisplay(entry, state.sign).length > DISPLAY_MAX) return state;
      return { ...state, entry, display: entryDisplay(entry, state.sign) };
    }
    case 'sign': {
      const sign = state.sign === 1 ? -1 : 1;
      return { ...state, sign, display: entryDisplay(state.entry, sign) };
    }
    case 'operator': {
      const value = entryValue(state);
      const last = state.history[state.history.length - 1];
      if (value === null) {
        // Changing one's mind about the operator replaces it.
        if (typeof last === 'string')
          return { ...state, history: [...state.history.slice(0, -1), key.operator] };
        if (state.history.length === 0) return { ...state, history: [0, key.operator] };
        return state;
      }
      return { entry: '', sign: 1, history: [...state.history, value, key.operator], display: state.display };
    }
    case 'equals': {
      const value = entryValue(state);
      const items = value === null ? state.history.slice(0, -1) : [...state.history, value];
      if (items.length === 0) return state;
      return { ...fromResult(evaluate(items), []) };
    }
    case 'function': {
      const value = entryValue(state) ?? 0;
      return fromResult(apply(key.name, value), state.history);
    }
    case 'clear':
      return initialCalc;
  }
}

/** Keyboard keys the calculator accepts (docs/product.md §5): digits, dot, comma, the four operators, Backspace. */
export function keyFromKeyboard(key: string): CalcKey | null {
  if (/^\d$/.test(key)) return { kind: 'digit', digit: key };
  if (key === '.' || key === ',') return { kind: 'dot' };
  if (key === '+' || key === '-' || key === '*' || key === '/') return { kind: 'operator', operator: key };
  if (key === '=' || key === 'Enter') return { kind: 'equals' };
  if (key === 'Backspace') return { kind: 'clear' };
  return null;
}
