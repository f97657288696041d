import { describe, expect, it } from 'vitest';
import { withLiterals } from '../../src/db/prepared';

/**
 * Decision 0016: constant strings of a prepared query are written into its SQLite text as
 * literals (a bound value that could change the plan makes SQLite re-prepare the statement on
 * every run); arguments and numbers stay bound, quoted text is left alone.
 */
describe('withLiterals', () => {
  it.each([
    {
      what: 'a constant string becomes a literal, an argument stays bound',
      sql: 'select * from "t" where "state" != ? and "id" = ?',
      args: [-1, 0],
      constants: ['ARCHIVED', undefined],
      out: `select * from "t" where "state" != 'ARCHIVED' and "id" = ?`,
      params: [1],
    },
    {
      what: 'quotes in a constant are doubled',
      sql: 'select ? as x',
      args: [-1],
      constants: ["it's"],
      out: `select 'it''s' as x`,
      params: [],
    },
    {
      what: 'numbers stay bound, null is inlined',
      sql: 'update "t" set "a" = ?, "b" = ? where "c" = ?',
      args: [-1, -1, 0],
      constants: [2, null, undefined],
      out: 'update "t" set "a" = ?, "b" = null where "c" = ?',
      params: [0, 2],
    },
    {
      what: 'a question mark inside quoted text is not a parameter',
      sql: `select '?' as "q?", ? as y`,
      args: [0],
      constants: [undefined],
      out: `select '?' as "q?", ? as y`,
      params: [0],
    },
  ])('$what', ({ sql, args, constants, out, params }) => {
    expect(withLiterals({ sql, args, constants })).toEqual({ sql: out, params });
  });
});
