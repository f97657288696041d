import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFolder } from '../../src/content/importer';
import { ContentCache } from '../../src/modules/lesson-pages/content-cache';
import { settled } from '../helpers/app';
import { playLogin, player, startPlayWorld, writePlayContent } from '../helpers/player';
import type { PageDoc, PlayWorld } from '../helpers/player';

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

/**
 * Decision 0025: the player's cache follows the database's content stamp, not a lifetime. A
 * block changed by a re-import (another process) or by plain SQL is shown and graded by its new
 * version at once, by this process and by a peer (another process), caches warm in both.
 * Seen to fail on the 30-second cache: the old welcome text and the old expected answer.
 */
describe('player content under the content stamp', () => {
  const pageOf = (res: { json(): unknown }) => (res.json() as PageDoc).data;
  const text = (res: { body: string }) => res.body;

  it('shows and grades a block changed by a re-import once heard, in every process (decision 0059)', async () => {
    const peer = await w.buildPeer();
    const ann = player(w.app, await playLogin(w.app, 'ann'));
    const annPeer = player(peer, await playLogin(peer, 'ann'));
    const ben = player(w.app, await playLogin(w.app, 'ben'));
    const L = w.lessons.ann.practice;
    const B = w.lessons.ben.practice;
    // Warm: ann's first page (the slide) in both processes; ben up to the multiple choice here.
    expect(text(await ann.current(L))).toContain('<p>Welcome</p>');
    expect(text(await annPeer.current(L))).toContain('<p>Welcome</p>');
    const intro = pageOf(await ben.current(B));
    expect((await ben.answer(B, intro.id)).statusCode).toBe(200);
    const mc = pageOf(await ben.next(B, intro.id));
    expect(mc.attributes.block?.title).toBe('Pick the even numbers');

    const root = writePlayContent();
    const file = path.join(root, 'tenants', 'play', 'courses', 'practice.yaml');
    writeFileSync(
      file,
      readFileSync(file, 'utf8')
        .replace('<p>Welcome</p>', '<p>Welcome again</p>')
        .replace('expected: [0, 2]', 'expected: [1, 3]'),
    );
    const report = await importFolder(w.tdb.db, root, { filesDir: w.filesDir, now: w.clock.now() });
    await settled(w.tdb.db);
    rmSync(root, { recursive: true, force: true });
    expect(report.errors).toEqual([]);

    expect(text(await ann.current(L))).toContain('<p>Welcome again</p>');
    expect(text(await annPeer.current(L))).toContain('<p>Welcome again</p>');
    // Graded by the new expected answer (three and five), not the cached one (two and four).
    const res = await ben.answer(B, mc.id, [[1, 3]]);
    expect(res.statusCode, res.body).toBe(200);
    expect(pageOf(res).attributes.results).toMatchObject({
      score: { actual: 10, max: 10 },
      outcome: 'correct',
    });
  });

  it('shows a block changed by plain SQL once heard (the stamp moves with course_blocks)', async () => {
    const ann = player(w.app, await playLogin(w.app, 'ann'));
    const L = w.lessons.ann.practice;
    const before = text(await ann.current(L));
    expect(before).toContain('<p>Welcome again</p>');
    const block = await w.tdb.db
      .selectFrom('courseBlocks')
      .select(['id', 'content'])
      .where('content', 'like', '%Welcome again%')
      .executeTakeFirstOrThrow();
    await w.tdb.db
      .updateTable('courseBlocks')
      .set({ content: block.content.replace('Welcome again', 'Welcome, fixed by hand') })
      .where('id', '=', block.id)
      .execute();
    await settled(w.tdb.db);
    expect(text(await ann.current(L))).toContain('Welcome, fixed by hand');
  });

  it('keeps for offline use the block as changed by plain SQL once heard, not a cached copy', async () => {
    const ben = player(w.app, await playLogin(w.app, 'ben'));
    const lessonId = w.lessons.ben.practice;
    const offline = async () => {
      const res = await ben.send('GET', `/api/offline/lessons/${lessonId}/pages`);
      expect(res.statusCode, res.body).toBe(200);
      return res.body;
    };
    // Warm the offline route's cache with every page after the one ben reached.
    const before = await offline();
    const block = await w.tdb.db
      .selectFrom('courseBlocks')
      .select(['id', 'title'])
      .where('title', '=', 'Type the answer')
      .executeTakeFirstOrThrow();
    expect(before).toContain(block.title);
    await w.tdb.db
      .updateTable('courseBlocks')
      .set({ title: 'Type the answer, retitled by hand' })
      .where('id', '=', block.id)
      .execute();
    await settled(w.tdb.db);
    expect(await offline()).toContain('Type the answer, retitled by hand');
  });
});
