import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HTML_SESSION_COOKIE } from '../../src/plugins/html-session';
import { keptPagesOf } from '../../src/plugins/signed-in-pages';
import { settled } from '../helpers/app';
import type { PageDoc, PlayWorld } from '../helpers/player';
import { PLAY_HOST, playLogin, player, startPlayWorld, toTimedPage, freshPractice } from '../helpers/player';

/**
 * Decision 0061: a drawn page is kept in the process and served again only while everything it
 * was drawn from is unchanged. Each case below gets the old page if the key misses what it
 * changes: the learner's write, a content change, the language asked for and the learner's own,
 * another learner, a revoked session, a read the stamps do not cover (a hint unlocked), the clock
 * of a timed page.
 *
 * The renderer stands for the web build's (dist-server/server.js): it makes the reads the app's
 * screens make for each drawn route (as in drawn-page-read-only.test.ts), takes the learner's own
 * language as the real one does, and writes every answer it read into the page's data block, so
 * a page drawn from old reads shows them. It counts its draws on globalThis.
 */
const RENDERER = `
export async function renderSignIn() { return null; }
export async function renderSignedIn({ url, lang, fetch }) {
  globalThis.__parcoursDraws = (globalThis.__parcoursDraws ?? 0) + 1;
  const { pathname, search } = new URL(url, 'http://server.invalid');
  const me = await fetch('/api/users/me');
  if (me.status === 401) return { refused: 'token' };
  const user = await me.json();
  const answers = { me: user };
  const reads = [];
  if (pathname === '/') {
    const past = new URLSearchParams(search).get('period') === 'past';
    reads.push(['lessons', '/api/lessons?filter[userId]=' + user._id + '&include=course']);
    reads.push(['classUsers', '/api/class-users?filter[role]=STUDENT&filter[expired]=' + past +
      '&sort=-createdAt&include=class.classPrograms.program.programCourses.course,class.teachers']);
  }
  const player = /^\\/session\\/([^/]+)(?:\\/page\\/([^/]+))?\\/?$/.exec(pathname);
  if (player) {
    const page = await fetch('/api/lessons/' + player[1] + '/pages/current?noCache=' + Date.now() +
      (player[2] ? '&pageId=' + player[2] : ''));
    if (!page.ok) return { refused: 'page' };
    answers.page = await page.json();
    reads.push(['resources', '/api/pages/' + answers.page.data.id + '/resources?lessonId=' + player[1]]);
  }
  for (const [name, read] of reads) {
    const res = await fetch(read);
    if (!res.ok) return { refused: 'page' };
    answers[name] = await res.json();
  }
  const shown = user.profile.preferredLocale ?? lang;
  return {
    body: '<h1 data-lang="' + shown + '">drawn</h1>',
    title: 'drawn',
    palette: {},
    state: JSON.stringify(answers),
    lang: shown,
  };
}`;

const draws = () => (globalThis as { __parcoursDraws?: number }).__parcoursDraws ?? 0;

let w: PlayWorld;
let root: string;
let ann: string;
let ben: string;

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'parcours-drawn-cache-'));
  mkdirSync(path.join(root, 'dist'));
  mkdirSync(path.join(root, 'dist-server'));
  writeFileSync(
    path.join(root, 'dist', 'index.html'),
    '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>T</title></head>' +
      '<body><div id="root"></div><noscript>JS</noscript></body></html>',
  );
  writeFileSync(path.join(root, 'dist-server', 'server.js'), RENDERER);
  w = await startPlayWorld({ WEB_DIST: path.join(root, 'dist') });
  ann = await playLogin(w.app, 'ann');
  ben = await playLogin(w.app, 'ben');
});
afterAll(async () => {
  await w?.close();
  rmSync(root, { recursive: true, force: true });
});

/** A document request as the learner's browser makes it. */
const request = (url: string, token: string, headers: Record<string, string> = {}) =>
  w.app.inject({
    method: 'GET',
    url,
    headers: {
      host: PLAY_HOST,
      cookie: `${HTML_SESSION_COOKIE}=${token}`,
      'sec-fetch-site': 'same-origin',
      'accept-language': 'fr-FR,fr;q=0.9',
      ...headers,
    },
  });

interface Drawn {
  /** Whether the renderer ran for it (not served from what was kept). */
  drew: boolean;
  html: string;
  /** The page's data block: the answers it was drawn from. */
  state: Record<string, unknown> | null;
  res: Awaited<ReturnType<typeof request>>;
}

async function open(url: string, token = ann, headers: Record<string, string> = {}): Promise<Drawn> {
  const before = draws();
  const res = await request(url, token, headers);
  expect(res.statusCode).toBe(200);
  const block = /<script type="application\/json" id="parcours-state">(.*?)<\/script>/.exec(res.body);
  return {
    drew: draws() > before,
    html: res.body,
    state: block ? (JSON.parse(block[1]!) as Record<string, unknown>) : null,
    res,
  };
}

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

  it('a read the stamps do not cover is made again: a hint unlocked shows on the kept player page', async () => {
    const L = await freshPractice(w, 'ann');
    const p = player(w.app, ann);
    let page = ((await p.current(L)).json() as PageDoc).data;
    await p.answer(L, page.id);
    page = ((await p.next(L, page.id)).json() as PageDoc).data;
    const url = `/session/${L}`;
    const before = await open(url);
    expect(before.state).not.toBeNull();
    expect(keptPagesOf(w.app)!.uncoveredReads().at(-1)).toEqual([
      `/api/lessons/${L}/pages/current`,
      expect.stringMatching(/^\/api\/pages\/[^/]+\/resources$/),
    ]);
    expect((await open(url)).drew).toBe(false);
    // Unlocking a hint writes `hints_used` alone, which moves no stamp (migration 0014).
    expect((await p.hint(L, page.id)).statusCode).toBe(200);
    const after = await open(url);
    expect(after.drew).toBe(true);
    const hints = (s: Record<string, unknown> | null) =>
      ((s?.page as PageDoc).data.attributes as unknown as { hints: { messages: string[] } }).hints.messages;
    expect(hints(after.state).length).toBe(hints(before.state).length + 1);
  });

  it("a timed page is drawn again as its clock runs: the time left is the read's, never the kept one's", async () => {
    const L = await freshPractice(w, 'ann');
    const p = player(w.app, ann);
    const timed = await toTimedPage(p, L);
    expect((await p.start(L, timed.id)).statusCode).toBe(200);
    const url = `/session/${L}`;
    const left = (d: Drawn) =>
      ((d.state?.page as PageDoc).data.attributes as unknown as { remainingSeconds: number })
        .remainingSeconds;
    const first = await open(url);
    expect(left(first)).toBeGreaterThan(0);
    w.clock.advance(10);
    const later = await open(url);
    expect(later.drew).toBe(true);
    expect(left(later)).toBe(left(first) - 10);
  });
});
