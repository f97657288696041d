import { describe, expect, it } from 'vitest';
import { DrawnPageCache, drawnPageKey, pageTimeLimit } from '../../src/plugins/drawn-page-cache';

/** Decision 0061: the pure parts of the drawn pages kept in a process. */
const entry = (bytes: number, validUntil = Infinity) => ({ page: bytes, reads: [], validUntil, bytes });

describe('DrawnPageCache', () => {
  it('holds at most its bytes, the least recently used dropped first', () => {
    const cache = new DrawnPageCache<number>(100);
    cache.set('a', entry(40));
    cache.set('b', entry(40));
    expect(cache.get('a', 0)?.page).toBe(40); // a is now the newest
    cache.set('c', entry(40));
    expect(cache.get('b', 0)).toBeUndefined();
    expect(cache.get('a', 0)).toBeDefined();
    expect(cache.get('c', 0)).toBeDefined();
    expect(cache.bytes).toBe(80);
    expect(cache.counts.evicted).toBe(1);
  });

  it('keeps no entry bigger than itself, and replaces an entry of the same key', () => {
    const cache = new DrawnPageCache<number>(100);
    cache.set('a', entry(30));
    cache.set('big', entry(101));
    expect(cache.get('big', 0)).toBeUndefined();
    cache.set('a', entry(50));
    expect(cache.bytes).toBe(50);
    expect(cache.size).toBe(1);
  });

  it('drops an entry whose time has come', () => {
    const cache = new DrawnPageCache<number>(100);
    cache.set('a', entry(10, 1_000));
    expect(cache.get('a', 999)).toBeDefined();
    expect(cache.get('a', 1_000)).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });
});

describe('pageTimeLimit', () => {
  const now = Date.parse('2026-05-01T10:00:00.000Z');
  const day = 24 * 3600 * 1000;
  it.each([
    ['no instant', '{"a":1}', Infinity],
    ['only past instants', '{"createdAt":"2026-04-01T00:00:00.000Z"}', Infinity],
    ['an end ahead', '{"expireAt":"2026-05-01T12:00:00.000Z"}', Date.parse('2026-05-01T12:00:00.000Z')],
    ['a start in three days: a day before it', '{"startAt":"2026-05-04T10:00:00.000Z"}', now + 2 * day],
    ['an offset', '{"startAt":"2026-05-01T13:00:00+02:00"}', Date.parse('2026-05-01T11:00:00.000Z')],
    ['the nearest of several', '{"a":"2026-06-01T00:00:00Z","b":"2026-05-01T10:30:00Z"}', now + 30 * 60_000],
  ])('%s', (_name, data, expected) => {
    expect(pageTimeLimit(data, now)).toBe(expected);
  });
});

describe('drawnPageKey', () => {
  it('tells every part apart, whatever text a part holds', () => {
    const base = {
      build: 'b',
      tenant: 't',
      host: 'h',
      proto: '',
      userId: 'u',
      isAdmin: false,
      url: '/',
      acceptLanguage: 'fr',
      stamps: { user: '1', content: '2' },
    };
    const keys = new Set([
      drawnPageKey(base),
      drawnPageKey({ ...base, url: '/?x' }),
      drawnPageKey({ ...base, acceptLanguage: 'en' }),
      drawnPageKey({ ...base, isAdmin: true }),
      drawnPageKey({ ...base, stamps: { user: '2', content: '2' } }),
      drawnPageKey({ ...base, stamps: { user: '1', content: '3' } }),
      drawnPageKey({ ...base, userId: 'u","h' }),
      drawnPageKey({ ...base, build: 'c' }),
      drawnPageKey({ ...base, tenant: 's' }),
    ]);
    expect(keys.size).toBe(9);
  });
});
