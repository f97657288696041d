import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HTML_SESSION_COOKIE } from '../../src/plugins/html-session';
import { keptPagesOf } from '../../src/plugins/signed-in-pages';
import { settled } from '../helpers/app';
import type { Drawn, DrawnWorld } from '../helpers/drawn-pages';
import { startDrawnWorld } from '../helpers/drawn-pages';
import type { PageDoc, PlayWorld } from '../helpers/player';
import { PLAY_HOST, freshPractice, playLogin, player, toTimedPage } from '../helpers/player';

/**
 * Decision 0068: the drawn player page `/session/{id}` is kept like the home. Its two reads, the
 * page and its resources, come from the answer cache, so a kept page re-reads nothing; every
 * write of what they show moves a stamp (migration 0033), and the page's clock sets how long it
 * is kept. Each case below is kept first (not drawn), then drawn again after the change, which
 * its data shows: with the stamps or the clock left out, the old page would be sent.
 */
let d: DrawnWorld;
let w: PlayWorld;
let ann: string;

beforeAll(async () => {
  d = await startDrawnWorld();
  w = d.w;
  ann = await playLogin(w.app, 'ann');
});
afterAll(async () => d?.close());
beforeEach(() => {
  w.clock.advance(1);
});

const open = (url: string, token = ann) => d.open(url, token);
const counts = () => keptPagesOf(w.app)!.counts;

type Attributes = PageDoc['data']['attributes'] & { hints: { messages: string[] } };
const pageIn = (drawn: Drawn) => (drawn.state?.page as PageDoc).data;
const attributesIn = (drawn: Drawn) => pageIn(drawn).attributes as Attributes;
const filesIn = (drawn: Drawn) =>
  (drawn.state?.resources as { meta: { files: { id: string; name: string }[] } }).meta.files;

/** Opens `url` twice: drawn, then sent as kept with nothing read again. */
async function keptPage(url: string): Promise<Drawn> {
  const first = await open(url);
  expect(first.state).not.toBeNull();
  const { kept, drawn } = counts();
  const again = await open(url);
  expect(again.drew).toBe(false);
  expect(again.html).toBe(first.html);
  expect(counts()).toMatchObject({ kept: kept + 1, drawn });
  return first;
}

/** A fresh practice lesson of Ann's, opened through the API, at its multiple-choice page (with hints). */
async function atHintedPage(): Promise<{ L: string; pageId: string }> {
  const L = await freshPractice(w, 'ann');
  const p = player(w.app, ann);
  const intro = ((await p.current(L)).json() as PageDoc).data;
  await p.answer(L, intro.id);
  const mc = ((await p.next(L, intro.id)).json() as PageDoc).data;
  return { L, pageId: mc.id };
}

describe('the drawn player page kept under the stamps (decision 0068)', () => {
  it('is sent again without drawing and without a read made again, byte for byte', async () => {
    const { L } = await atHintedPage();
    await keptPage(`/session/${L}`);
    // Both of its reads were the answer cache's: nothing is read again on a use.
    expect(keptPagesOf(w.app)!.uncoveredReads().at(-1)).toEqual([]);
  });

  it('is drawn again after a hint is taken', async () => {
    const { L, pageId } = await atHintedPage();
    const before = await keptPage(`/session/${L}`);
    expect((await player(w.app, ann).hint(L, pageId)).statusCode).toBe(200);
    const after = await open(`/session/${L}`);
    expect(after.drew).toBe(true);
    expect(attributesIn(after).hints.messages.length).toBe(attributesIn(before).hints.messages.length + 1);
  });

  it('is drawn again after an answer', async () => {
    const { L, pageId } = await atHintedPage();
    const before = await keptPage(`/session/${L}`);
    expect(attributesIn(before).answeredAt).toBeNull();
    expect((await player(w.app, ann).answer(L, pageId, [[0, 2]])).statusCode).toBe(200);
    const after = await open(`/session/${L}`);
    expect(after.drew).toBe(true);
    expect(attributesIn(after).answeredAt).not.toBeNull();
    expect(attributesIn(after).results).not.toBeNull();
  });

  it('is drawn again after a timed page is started, then at each second of its clock only', async () => {
    const L = await freshPractice(w, 'ann');
    const p = player(w.app, ann);
    const timed = await toTimedPage(p, L);
    const url = `/session/${L}`;
    const before = await keptPage(url);
    expect(attributesIn(before).startedAt).toBeNull();
    expect((await p.start(L, timed.id)).statusCode).toBe(200);
    const started = await open(url);
    expect(started.drew).toBe(true);
    const left = attributesIn(started).remainingSeconds!;
    expect(left).toBe(60);
    // Within the second the time left is the same: the kept page is the page.
    w.clock.advance(0.5);
    expect((await open(url)).drew).toBe(false);
    // At the next whole second left, drawn again, one second less.
    w.clock.advance(0.5);
    const later = await open(url);
    expect(later.drew).toBe(true);
    expect(attributesIn(later).remainingSeconds).toBe(left - 1);
  });

  it('is drawn again after a file of the page changes (the content stamp, migration 0033)', async () => {
    const { L, pageId } = await atHintedPage();
    const { nodeId } = await w.tdb.db
      .selectFrom('lessonPages')
      .select('nodeId')
      .where('id', '=', pageId)
      .executeTakeFirstOrThrow();
    const { contextId } = await w.tdb.db
      .selectFrom('lessons')
      .select('contextId')
      .where('id', '=', L)
      .executeTakeFirstOrThrow();
    const now = w.clock.now().toISOString();
    const fileId = `guide-${L}`;
    await w.tdb.db
      .insertInto('files')
      .values({
        id: fileId,
        contextId,
        libraryId: null,
        ownerId: null,
        name: 'guide.pdf',
        type: 'application/pdf',
        fileType: 'pdf',
        icon: null,
        size: 1000,
        storagePath: 'x/guide.pdf',
        sha256: null,
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    await w.tdb.db
      .updateTable('courseNodes')
      .set({ attachmentIds: JSON.stringify([fileId]) })
      .where('id', '=', nodeId)
      .execute();
    await settled(w.tdb.db);
    const before = await keptPage(`/session/${L}`);
    expect(filesIn(before).map((f) => f.name)).toEqual(['guide.pdf']);
    // The file's row alone changes: no node, block or page is written.
    await w.tdb.db.updateTable('files').set({ name: 'guide-v2.pdf' }).where('id', '=', fileId).execute();
    await settled(w.tdb.db);
    const after = await open(`/session/${L}`);
    expect(after.drew).toBe(true);
    expect(filesIn(after).map((f) => f.name)).toEqual(['guide-v2.pdf']);
    await w.tdb.db.updateTable('courseNodes').set({ attachmentIds: '[]' }).where('id', '=', nodeId).execute();
  });

  it('a session signed out gets no page, kept or not, and its cookie is ended', async () => {
    const { L } = await atHintedPage();
    const token = await playLogin(w.app, 'ann');
    const first = await d.open(`/session/${L}`, token);
    expect(first.state).not.toBeNull();
    expect((await d.open(`/session/${L}`, token)).drew).toBe(false);
    const out = await w.app.inject({
      method: 'POST',
      url: '/api/users/me/sign-out',
      headers: { host: PLAY_HOST, authorization: `Bearer ${token}` },
    });
    expect(out.statusCode).toBe(204);
    const after = await d.open(`/session/${L}`, token);
    expect(after.state).toBeNull();
    expect(String(after.res.headers['set-cookie'])).toContain(`${HTML_SESSION_COOKIE}=;`);
  });
});
