import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareShares, packageOf, selfTimes, summarizeProfile } from './cpuprofile';
import type { CpuProfile, Share } from './cpuprofile';

// A hand-written profile (fixtures/tiny.cpuprofile): samples at 1000, 1100, 1300, 1350, 1500 and
// 1800 µs, the profile ends at 2000. Each sample lasts until the next: main 100, handler 200 + 50
// (node 3) + 200 (node 6, the same function under another parent), the garbage collector 150,
// idle 300. Busy: 700 µs.
const tiny = JSON.parse(
  readFileSync(path.join(import.meta.dirname, 'fixtures/tiny.cpuprofile'), 'utf8'),
) as CpuProfile;
const ROUTE = 'file:///work/main/node_modules/fastify/lib/route.js:99';
const SERVER = 'file:///work/main/apps/api/dist/server.js:9';

describe('selfTimes', () => {
  it('sums each sample until the next into the function on top, one function at many nodes once', () => {
    expect(selfTimes(tiny).map((s) => [s.name, s.location, s.selfUs])).toEqual([
      ['handler', ROUTE, 450],
      ['(idle)', '', 300],
      ['(garbage collector)', '', 150],
      ['main', SERVER, 100],
    ]);
  });

  it.each([
    { name: 'no samples', samples: [], timeDeltas: [], selfUs: [] },
    { name: 'one sample lasts until the end', samples: [2], timeDeltas: [250], selfUs: [750] },
    { name: 'a sample of an unknown node is skipped', samples: [99, 2], timeDeltas: [0, 500], selfUs: [500] },
  ])('$name', ({ samples, timeDeltas, selfUs }) => {
    expect(selfTimes({ ...tiny, samples, timeDeltas }).map((s) => s.selfUs)).toEqual(selfUs);
  });
});

describe('packageOf', () => {
  it.each([
    { location: '', pkg: '(native)' },
    { location: 'node:internal/streams/writable:450', pkg: 'node:internal' },
    { location: 'file:///w/node_modules/fastify/lib/route.js:99', pkg: 'fastify' },
    { location: 'file:///w/node_modules/@fastify/compress/index.js:3', pkg: '@fastify/compress' },
    { location: 'file:///w/node_modules/a/node_modules/b/x.js:1', pkg: 'b' },
    { location: 'file:///work/main/apps/api/dist/modules/x.js:1', pkg: 'apps/api' },
    { location: 'file:///work/main/packages/domain/dist/index.js:1', pkg: 'packages/domain' },
    { location: 'file:///elsewhere/thing.js:7', pkg: 'file:///elsewhere/thing.js' },
  ])('$location → $pkg', ({ location, pkg }) => {
    expect(packageOf(location)).toBe(pkg);
  });
});

describe('summarizeProfile', () => {
  it('shares of the busy time, idle left out, by function and by package', () => {
    const summary = summarizeProfile(tiny);
    expect(summary.totalUs).toBe(1000);
    expect(summary.busyUs).toBe(700);
    expect(summary.functions.map((s) => [s.key, s.selfUs, +s.share.toFixed(4)])).toEqual([
      [`handler ${ROUTE}`, 450, 0.6429],
      ['(garbage collector)', 150, 0.2143],
      [`main ${SERVER}`, 100, 0.1429],
    ]);
    expect(summary.packages.map((s) => [s.key, s.selfUs])).toEqual([
      ['fastify', 450],
      ['(native)', 150],
      ['apps/api', 100],
    ]);
  });
});

describe('compareShares', () => {
  const share = (key: string, s: number): Share => ({ key, selfUs: s * 1000, share: s });
  it.each([
    {
      name: 'keys of either, by the larger share, absent as 0',
      a: [share('json', 0.4), share('sqlite', 0.3), share('gc', 0.1)],
      b: [share('sqlite', 0.5), share('gc', 0.2)],
      top: 3,
      rows: [
        ['sqlite', 0.3, 0.5],
        ['json', 0.4, 0],
        ['gc', 0.1, 0.2],
      ],
    },
    {
      name: 'only the top of each',
      a: [share('json', 0.4), share('sqlite', 0.3), share('gc', 0.1)],
      b: [share('sqlite', 0.5), share('gc', 0.2)],
      top: 1,
      rows: [
        ['sqlite', 0.3, 0.5],
        ['json', 0.4, 0],
      ],
    },
    { name: 'nothing', a: [], b: [], top: 5, rows: [] },
  ])('$name', ({ a, b, top, rows }) => {
    expect(compareShares(a, b, top).map((c) => [c.key, c.a, c.b])).toEqual(rows);
  });
});
