import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HTML_SESSION_COOKIE } from '../../src/plugins/html-session';
import { keptPagesOf } from '../../src/plugins/signed-in-pages';
import { settled } from '../helpers/app';
import type { DrawnWorld } from '../helpers/drawn-pages';
import { startDrawnWorld } from '../helpers/drawn-pages';
import type { PlayWorld } from '../helpers/player';
import { PLAY_HOST, playLogin, player } from '../helpers/player';

/**
 * Decision 0061: a drawn page is kept in the process and served again only while everything it
 * was drawn from is unchanged. Each case below gets the old page if the key misses what it
 * changes: the learner's write, a content change, the language asked for and the learner's own,
 * another learner, a revoked session. The player page's cases: drawn-player-page.test.ts.
 *
 * The renderer (helpers/drawn-pages.ts) stands for the web build's and writes every answer it
 * read into the page's data block, so a page drawn from old reads shows them.
 */
let d: DrawnWorld;
let w: PlayWorld;
let ann: string;
let ben: string;

beforeAll(async () => {
  d = await startDrawnWorld();
  w = d.w;
  ann = await playLogin(w.app, 'ann');
  ben = await playLogin(w.app, 'ben');
});
afterAll(async () => d?.close());

const open = (url: string, token = ann, headers: Record<string, string> = {}) => d.open(url, token, headers);

type Doc = { data: { id: string; attributes: Record<string, unknown> }[] };
const lessonOf = (state: Record<string, unknown> | null, id: string) =>
  (state?.lessons as Doc | undefined)?.data.find((l) => l.id === id)?.attributes;

describe('drawn pages kept in the process (decision 0061)', () => {
  beforeEach(() => {
    w.clock.advance(1);
  });

  it('serves a page again without drawing it, the same bytes, while nothing changed', async () => {
    const first = await open('/');
    expect(first.state).not.toBeNull();
    const again = await open('/');
    expect(again.drew).toBe(false);
    expect(again.html).toBe(first.html);
    // The home's lessons, class-users and users/me came from the answer cache: no read is made again.
    const kept = keptPagesOf(w.app)!.uncoveredReads();
    expect(kept.at(-1)).toEqual([]);
    // Another address is another page.
    expect((await open('/?period=past')).drew).toBe(true);
    expect((await open('/?period=past')).drew).toBe(false);
  });

  it("the learner's own write shows at once: their stamp moved", async () => {
    // Opening a lesson writes the lesson alone (its first page, its progress): only the stamp
    // tells the kept home is old.
    const L = w.lessons.ann.exam;
    const before = await open('/');
    expect(lessonOf(before.state, L)?.progress ?? null).toBeNull();
    expect((await open('/')).drew).toBe(false);
    expect((await player(w.app, ann).current(L)).statusCode).toBe(200);
    const after = await open('/');
    expect(after.drew).toBe(true);
    expect(lessonOf(after.state, L)?.progress).toBe('ONGOING');
  });

  it('a content change shows at once: the content stamp moved', async () => {
    await open('/');
    expect((await open('/')).drew).toBe(false);
    const { courseId } = await w.tdb.db
      .selectFrom('lessons')
      .select('courseId')
      .where('id', '=', w.lessons.ann.practice)
      .executeTakeFirstOrThrow();
    const renamed = await w.tdb.db
      .updateTable('courses')
      .set({ title: 'Practice, renamed' })
      .where('id', '=', courseId)
      .executeTakeFirst();
    expect(Number(renamed.numUpdatedRows)).toBe(1);
    await settled(w.tdb.db);
    const after = await open('/');
    expect(after.drew).toBe(true);
    expect(after.html).toContain('Practice, renamed');
  });

  it('a language asked for, and the learner’s own language, each draw their page', async () => {
    const fr = await open('/');
    expect(fr.html).toContain('data-lang="fr"');
    const en = await open('/', ann, { 'accept-language': 'en-GB,en;q=0.9' });
    expect(en.drew).toBe(true);
    expect(en.html).toContain('data-lang="en"');
    expect((await open('/')).html).toContain('data-lang="fr"');
    // The learner chooses English in the user menu: their French browser now gets English.
    const me = await w.app.inject({
      method: 'PATCH',
      url: `/api/users/${w.users.ann}`,
      headers: { host: PLAY_HOST, authorization: `Bearer ${ann}` },
      payload: { preferredLocale: 'en' },
    });
    expect(me.statusCode).toBe(200);
    const chosen = await open('/');
    expect(chosen.drew).toBe(true);
    expect(chosen.html).toContain('data-lang="en"');
    expect(chosen.html).toContain('<html lang="en">');
    await w.app.inject({
      method: 'PATCH',
      url: `/api/users/${w.users.ann}`,
      headers: { host: PLAY_HOST, authorization: `Bearer ${ann}` },
      payload: { preferredLocale: null },
    });
  });

  it("another learner never gets the first one's page", async () => {
    const annPage = await open('/');
    const benPage = await open('/', ben);
    expect(benPage.drew).toBe(true);
    expect((benPage.state?.me as { _id: string })._id).toBe(w.users.ben);
    expect(benPage.html).not.toBe(annPage.html);
    expect((await open('/', ben)).drew).toBe(false);
  });

  it('a session signed out gets no page, kept or not, and its cookie is ended', async () => {
    const token = await playLogin(w.app, 'ann');
    expect((await open('/', token)).state).not.toBeNull();
    expect((await open('/', token)).drew).toBe(false);
    const out = await w.app.inject({
      method: 'POST',
      url: '/api/users/me/sign-out',
      headers: { host: PLAY_HOST, authorization: `Bearer ${token}` },
    });
    expect(out.statusCode).toBe(204);
    const after = await open('/', token);
    expect(after.state).toBeNull();
    expect(after.html).not.toContain('data-prerendered');
    expect(String(after.res.headers['set-cookie'])).toContain(`${HTML_SESSION_COOKIE}=;`);
    // The learner's other session still gets the page.
    expect((await open('/')).state).not.toBeNull();
  });

  it('a company joined shows: the membership moves the stamp (migration 0032)', async () => {
    await open('/');
    expect((await open('/')).drew).toBe(false);
    const { contextId } = await w.tdb.db
      .selectFrom('users')
      .select('contextId')
      .where('id', '=', w.users.ann)
      .executeTakeFirstOrThrow();
    await w.tdb.db
      .insertInto('companies')
      .values({
        id: 'drawn-co',
        contextId,
        name: 'Drawn & Co',
        avatarId: null,
        createdAt: w.clock.now().toISOString(),
      })
      .execute();
    await w.tdb.db
      .insertInto('companyUsers')
      .values({ id: 'drawn-cou', companyId: 'drawn-co', userId: w.users.ann, role: 'STUDENT' })
      .execute();
    const after = await open('/');
    expect(after.drew).toBe(true);
    const companies = (after.state?.me as { profile: { companies: { name: string }[] } }).profile.companies;
    expect(companies.map((c) => c.name)).toContain('Drawn & Co');
  });
});
