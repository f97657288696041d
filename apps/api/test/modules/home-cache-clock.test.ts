import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settled } from '../helpers/app';
import type { ProgWorld } from '../helpers/progression';
import { DAY, MIDNIGHT, learner, progLogin, startProgWorld } from '../helpers/progression';

/**
 * Decision 0015: a cached home answer is served only before the first instant at which the
 * progression's time rules could show something else (`nextChangeAt`): a window opening or
 * closing, a lesson's time running out. Each test reads the list twice before the instant (so
 * the second read is the cached one) and once at it, with the app's injectable clock.
 */
let w: ProgWorld;
let ann: ReturnType<typeof learner>;

beforeAll(async () => {
  w = await startProgWorld();
  ann = learner(w.app, await progLogin(w.app, 'ann'));
});
afterAll(async () => w?.close());

/** The learner's states in one class, through the home's cached list read. */
async function listStates(cls: 'k-narrow' | 'k-later'): Promise<Map<string, string>> {
  const res = await ann.send(
    'GET',
    `/api/lessons?filter[userId]=${w.users.ann}&filter[classId]=${w.classId(cls)}`,
  );
  expect(res.statusCode).toBe(200);
  const { data } = res.json() as { data: { id: string; attributes: { state: string } }[] };
  return new Map(data.map((l) => [l.id, l.attributes.state]));
}

async function twiceThenAt(
  cls: 'k-narrow' | 'k-later',
  at: number,
): Promise<[Map<string, string>, Map<string, string>]> {
  w.clock.set(at - 1);
  await listStates(cls);
  const before = await listStates(cls);
  w.clock.set(at);
  return [before, await listStates(cls)];
}

describe('the cached lesson list follows the clock of the progression rules', () => {
  const narrow = (c: string) => w.lesson('ann', 'k-narrow', 'seq', c);
  const later = (c: string) => w.lesson('ann', 'k-later', 'seq', c);

  it('a window opening: HIDDEN 1 ms before, AVAILABLE at its exact start', async () => {
    const [before, after] = await twiceThenAt('k-narrow', MIDNIGHT + DAY);
    expect(before.get(narrow('c1'))).toBe('HIDDEN');
    expect(after.get(narrow('c1'))).toBe('AVAILABLE');
  });

  it('a window closing: open 1 ms before, EXPIRED at its exact expiry', async () => {
    const [before, after] = await twiceThenAt('k-narrow', MIDNIGHT + 2 * DAY);
    expect(before.get(narrow('c1'))).toBe('AVAILABLE');
    expect(after.get(narrow('c1'))).toBe('EXPIRED');
  });

  it("a lesson's own time running out: SKIPPED 1 ms after its deadline and grace", async () => {
    w.clock.set(MIDNIGHT + 3 * DAY);
    expect((await listStates('k-later')).get(later('c1'))).toBe('AVAILABLE');
    const startedAt = MIDNIGHT + 3 * DAY + 1000;
    await w.tdb.db
      .updateTable('lessons')
      .set({ timeLimit: 60, startedAt: new Date(startedAt).toISOString() })
      .where('id', '=', later('c1'))
      .execute();
    // Heard by the app's copy within the notification's delay (decision 0059).
    await settled(w.tdb.db);
    // 60 s of limit and 2 s of grace: still in time at the deadline itself, SKIPPED just after.
    const [before, after] = await twiceThenAt('k-later', startedAt + 62_000 + 1);
    expect(before.get(later('c1'))).toBe('AVAILABLE');
    expect(after.get(later('c1'))).toBe('SKIPPED');
    expect(after.get(later('c2'))).toBe('AVAILABLE');
  });
});
