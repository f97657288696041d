import { describe, expect, it } from 'vitest';
import type { Sample } from './steady';
import { steadySamples } from './steady';

const at = (...times: number[]): Sample[] => times.map((t) => ({ at: t, ms: t }));

describe('steadySamples', () => {
  it.each([
    { name: 'nothing measured', samples: [], connections: 2, share: 0.25, kept: [] },
    { name: 'only the drain', samples: at(1, 2), connections: 2, share: 0.25, kept: [] },
    {
      name: 'warm-up share and drain cut',
      samples: at(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10),
      connections: 2,
      share: 0.25,
      // Cut at 2.5 ms (a quarter of 0..10); the last two responses are the drain.
      kept: [3, 4, 5, 6, 7, 8],
    },
    {
      name: 'arrival order, not the order given',
      samples: at(10, 0, 9, 1, 8, 2, 7, 3, 6, 4, 5),
      connections: 2,
      share: 0.25,
      kept: [3, 4, 5, 6, 7, 8],
    },
    {
      name: 'no warm-up share: only the drain goes',
      samples: at(0, 1, 2, 3),
      connections: 1,
      share: 0,
      kept: [0, 1, 2],
    },
    { name: 'one connection, one response', samples: at(5), connections: 1, share: 0.25, kept: [] },
  ])('$name', ({ samples, connections, share, kept }) => {
    expect(steadySamples(samples, connections, share).map((s) => s.at)).toEqual(kept);
  });
});
