import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentCache } from '../../src/modules/lesson-pages/content-cache';
import { startPlayWorld } from '../helpers/player';
import type { PlayWorld } from '../helpers/player';

/**
 * The player's content cache: class programs and blocks are read once per `ttlMs`, and what is
 * derived from a cached block (its public view, its parsed solution) is computed once per
 * cached version and recomputed when the version is reloaded.
 */
let w: PlayWorld;
beforeAll(async () => {
  w = await startPlayWorld();
});
afterAll(async () => w?.close());

describe('ContentCache', () => {
  it('serves class programs from memory until they expire', async () => {
    const cp = await w.tdb.db.selectFrom('classPrograms').select('id').executeTakeFirstOrThrow();
    const cache = new ContentCache(60_000);
    const first = (await cache.programContexts(w.tdb.db, [cp.id])).get(cp.id);
    expect(first?.classProgramId).toBe(cp.id);
    expect((await cache.programContexts(w.tdb.db, [cp.id])).get(cp.id)).toBe(first);
    const expiring = new ContentCache(0);
    const a = (await expiring.programContexts(w.tdb.db, [cp.id])).get(cp.id);
    const b = (await expiring.programContexts(w.tdb.db, [cp.id])).get(cp.id);
    expect(b).toEqual(a);
    expect(b).not.toBe(a);
  });

  it('derives a block view and grading once per cached version', async () => {
    const block = await w.tdb.db
      .selectFrom('courseBlocks')
      .select(['id', 'contextId'])
      .where('type', '=', 'exercice')
      .executeTakeFirstOrThrow();
    const cache = new ContentCache(60_000);
    const content = await cache.block(w.tdb.db, block.contextId, block.id);
    expect(content).not.toBeNull();
    expect(cache.view(content!)).toBe(cache.view(content!));
    expect(cache.grading(content!)).toBe(cache.grading(content!));
    // The public view never carries the solution.
    expect(JSON.stringify(cache.view(content!))).not.toContain('validators');
    const reloaded = await new ContentCache(0).block(w.tdb.db, block.contextId, block.id);
    expect(cache.grading(reloaded!)).not.toBe(cache.grading(content!));
    expect(cache.grading(reloaded!)).toEqual(cache.grading(content!));
  });
});
