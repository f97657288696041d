import { describe, expect, it } from 'vitest';
import { loadEnv } from '../../src/env';

describe('DATABASE_POOL_SIZE (PostgreSQL connections at most)', () => {
  it.each([
    [undefined, 10],
    ['1', 1],
    ['25', 25],
    ['200', 200],
  ])('%s gives a pool of %i', (value, size) => {
    const env = loadEnv(value === undefined ? {} : { DATABASE_POOL_SIZE: value });
    expect(env.DATABASE_POOL_SIZE).toBe(size);
  });

  it.each(['0', '201', '2.5', 'ten'])('refuses %s, naming the setting', (value) => {
    expect(() => loadEnv({ DATABASE_POOL_SIZE: value })).toThrow(/DATABASE_POOL_SIZE/);
  });
});
