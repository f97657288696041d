import { brotliDecompressSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '../../src/db/db';
import { answerCacheCounts } from '../../src/lib/answer-cache';
import { resourceDocumentSchema } from '../../src/plugins/jsonapi';
import { pageResourcesAnswer } from '../../src/modules/pages/routes';
import { settled } from '../helpers/app';
import type { PageDoc, PlayWorld } from '../helpers/player';
import { PLAY_HOST, freshPractice, playLogin, player, startPlayWorld, toTimedPage } from '../helpers/player';

/**
 * Decision 0068: the player's reads `GET …/pages/current` and `GET /pages/{id}/resources` are
 * served from the answer cache (lib/answer-cache.ts) while the learner's stamps and the page's
 * clock say nothing they show changed. The cache sends what a build sends, byte for byte; a read
 * that wrote is never served again; `noCache` makes no entry of its own; every write of a page's
 * row and of a content file moves a stamp (migration 0033), a learner's upload none.
 */
let w: PlayWorld;
let ann: string;
let peer: FastifyInstance;

beforeAll(async () => {
  w = await startPlayWorld();
  ann = await playLogin(w.app, 'ann');
  peer = await w.buildPeer();
});
afterAll(async () => w?.close());

const counts = () => answerCacheCounts(w.tdb.db);
const read = (url: string, headers: Record<string, string> = {}, app = w.app) =>
  app.inject({
    method: 'GET',
    url,
    headers: { host: PLAY_HOST, authorization: `Bearer ${ann}`, ...headers },
  });
const currentUrl = (L: string, query = '') => `/api/lessons/${L}/pages/current${query}`;

/** The version of a stamp (0: never moved). */
async function version(db: Db, key: string): Promise<number> {
  const row = await db.selectFrom('homeVersions').select('version').where('key', '=', key).executeTakeFirst();
  return Number(row?.version ?? 0);
}

/** A fresh practice lesson of Ann's at its multiple-choice page (hints, no clock). */
async function atHintedPage(): Promise<{ L: string; pageId: string }> {
  const L = await freshPractice(w, 'ann');
  const p = player(w.app, ann);
  const intro = ((await p.current(L)).json() as PageDoc).data;
  await p.answer(L, intro.id);
  const mc = ((await p.next(L, intro.id)).json() as PageDoc).data;
  return { L, pageId: mc.id };
}

describe('the player page from the answer cache', () => {
  it('keeps the first opening, which wrote the page, under the stamps before it: never served', async () => {
    const L = await freshPractice(w, 'ann');
    const { hits, builds } = counts();
    const opened = await read(currentUrl(L, '?noCache=1'));
    expect(opened.statusCode).toBe(200);
    expect(counts()).toMatchObject({ hits, builds: builds + 1 });
    // The opening created the page and moved Ann's stamp: built again, then kept.
    const again = await read(currentUrl(L, '?noCache=2'));
    expect(counts()).toMatchObject({ hits, builds: builds + 2 });
    const kept = await read(currentUrl(L, '?noCache=3'));
    expect(counts()).toMatchObject({ hits: hits + 1, builds: builds + 2 });
    expect(kept.body).toBe(again.body);
    expect((kept.json() as PageDoc).data.id).toBe((opened.json() as PageDoc).data.id);
  });

  it('sends the bytes a fresh build sends, and those the route serialised before', async () => {
    const { L, pageId } = await atHintedPage();
    await read(currentUrl(L, '?noCache=1'));
    const { hits } = counts();
    const kept = await read(currentUrl(L, '?noCache=2'));
    expect(counts().hits).toBe(hits + 1);
    // Another process has nothing kept: its answer is a build.
    await settled(w.tdb.db);
    const built = await read(currentUrl(L, '?noCache=3'), {}, peer);
    expect(kept.body).toBe(built.body);
    expect(kept.body).toBe(JSON.stringify(resourceDocumentSchema.parse(JSON.parse(kept.body))));
    // Compressed once, the same bytes.
    const br = await read(currentUrl(L, '?noCache=4'), { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(kept.body);
    // The resources read likewise.
    const resources = `/api/pages/${pageId}/resources?lessonId=${L}`;
    await read(resources);
    const keptResources = await read(resources);
    expect(keptResources.body).toBe((await read(resources, {}, peer)).body);
    expect(keptResources.body).toBe(
      JSON.stringify(pageResourcesAnswer.parse(JSON.parse(keptResources.body))),
    );
  });

  it('shows every write of the page, by anyone, at the next read: a hint, a clock started, the time spent', async () => {
    const { L, pageId } = await atHintedPage();
    const writes: [string, Record<string, unknown>, (a: Record<string, unknown>) => unknown][] = [
      ['hints_used', { hintsUsed: 1 }, (a) => (a.hints as { messages: string[] }).messages.length],
      ['started_at', { startedAt: w.clock.now().toISOString() }, (a) => a.startedAt],
      ['time_spent', { timeSpent: 42 }, (a) => a.timeSpent],
      ['time_alive', { timeAlive: 43 }, (a) => a.timeAlive],
    ];
    const attributes = async () =>
      ((await read(currentUrl(L))).json() as { data: { attributes: Record<string, unknown> } }).data
        .attributes;
    for (const [column, set, shown] of writes) {
      const before = shown(await attributes());
      shown(await attributes());
      const stamp = await version(w.tdb.db, `u:${w.users.ann}`);
      // Not waited for: the page read takes its stamps from the database, on PostgreSQL too.
      await w.tdb.db.updateTable('lessonPages').set(set).where('id', '=', pageId).execute();
      expect(await version(w.tdb.db, `u:${w.users.ann}`), column).toBeGreaterThan(stamp);
      expect(shown(await attributes()), column).not.toEqual(before);
    }
  });

  it('keeps a running timed page until its time left steps down a second', async () => {
    const L = await freshPractice(w, 'ann');
    const p = player(w.app, ann);
    const timed = await toTimedPage(p, L);
    expect((await p.start(L, timed.id)).statusCode).toBe(200);
    const left = async () => ((await read(currentUrl(L))).json() as PageDoc).data.attributes.remainingSeconds;
    expect(await left()).toBe(60);
    const { hits, builds } = counts();
    w.clock.advance(0.999);
    expect(await left()).toBe(60);
    expect(counts()).toMatchObject({ hits: hits + 1, builds });
    w.clock.advance(0.001);
    expect(await left()).toBe(59);
    expect(counts()).toMatchObject({ hits: hits + 1, builds: builds + 1 });
  });
});

describe('the resources read from the answer cache: files (migration 0033)', () => {
  const fileRow = (id: string, contextId: string, ownerId: string | null) => {
    const now = w.clock.now().toISOString();
    return {
      id,
      contextId,
      libraryId: null,
      ownerId,
      name: `${id}.pdf`,
      type: 'application/pdf',
      fileType: 'pdf',
      icon: null,
      size: 10,
      storagePath: `x/${id}.pdf`,
      sha256: null,
      createdAt: now,
      updatedAt: now,
    };
  };
  const contextOf = async (L: string) =>
    (await w.tdb.db.selectFrom('lessons').select('contextId').where('id', '=', L).executeTakeFirstOrThrow())
      .contextId;

  it("a content file's row moves the content stamp; a learner's upload moves none", async () => {
    const { L } = await atHintedPage();
    const contextId = await contextOf(L);
    const db = w.tdb.db;
    const steps: [string, () => Promise<unknown>, boolean][] = [
      [
        'an upload',
        () =>
          db
            .insertInto('files')
            .values(fileRow('up-1', contextId, w.users.ann))
            .execute(),
        false,
      ],
      [
        'an upload renamed',
        () => db.updateTable('files').set({ name: 'u.pdf' }).where('id', '=', 'up-1').execute(),
        false,
      ],
      ['an upload removed', () => db.deleteFrom('files').where('id', '=', 'up-1').execute(), false],
      [
        'a content file',
        () =>
          db
            .insertInto('files')
            .values(fileRow('media-1', contextId, null))
            .execute(),
        true,
      ],
      [
        'its bytes stored elsewhere',
        () => db.updateTable('files').set({ storagePath: 'y' }).where('id', '=', 'media-1').execute(),
        false,
      ],
      [
        'its size',
        () => db.updateTable('files').set({ size: 11 }).where('id', '=', 'media-1').execute(),
        true,
      ],
      ['its removal', () => db.deleteFrom('files').where('id', '=', 'media-1').execute(), true],
    ];
    for (const [name, write, moves] of steps) {
      const before = await version(db, 'content');
      await write();
      expect((await version(db, 'content')) > before, name).toBe(moves);
    }
  });

  it('signs the download URLs of a kept answer for its reader, as of a built one', async () => {
    const { L, pageId } = await atHintedPage();
    const contextId = await contextOf(L);
    const { nodeId } = await w.tdb.db
      .selectFrom('lessonPages')
      .select('nodeId')
      .where('id', '=', pageId)
      .executeTakeFirstOrThrow();
    await w.tdb.db
      .insertInto('files')
      .values(fileRow('sheet-1', contextId, null))
      .execute();
    await w.tdb.db
      .updateTable('courseNodes')
      .set({ attachmentIds: JSON.stringify(['sheet-1']) })
      .where('id', '=', nodeId)
      .execute();
    await settled(w.tdb.db);
    const url = `/api/pages/${pageId}/resources?lessonId=${L}`;
    const download = (body: string) =>
      (JSON.parse(body) as { meta: { files: { download: string }[] } }).meta.files[0]!.download;
    const exp = (body: string) => Number(/[?&]exp=(\d+)/.exec(download(body))?.[1]);
    // Signatures follow the real clock in 5-minute steps: it is held in the middle of one.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const step = 300_000;
      vi.setSystemTime(Math.floor(Date.now() / step) * step + step / 2);
      const built = await read(url);
      const { hits } = counts();
      const kept = await read(url);
      expect(counts().hits).toBe(hits + 1);
      expect(download(kept.body)).toMatch(/^\/api\/files\/sheet-1\/download\?u=[^&]+&exp=\d+&sig=/);
      expect(kept.body).toBe(built.body);
      // A step later the same kept answer is signed anew.
      vi.setSystemTime(Date.now() + step);
      const later = await read(url);
      expect(counts().hits).toBe(hits + 2);
      expect(exp(later.body)).toBe(exp(kept.body) + step / 1000);
    } finally {
      vi.useRealTimers();
    }
    await w.tdb.db.updateTable('courseNodes').set({ attachmentIds: '[]' }).where('id', '=', nodeId).execute();
  });
});
