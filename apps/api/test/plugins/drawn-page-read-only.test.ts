import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTML_SESSION_COOKIE } from '../../src/plugins/html-session';
import type { Db, DbKind } from '../../src/db/db';
import { flushEmitted } from '../../src/modules/lrs/emit';
import type { PageDoc, PlayWorld } from '../helpers/player';
import { PLAY_HOST, playLogin, player, startPlayWorld } from '../helpers/player';

/**
 * Issue 36 item 4 (decision 0057): a page load changes nothing. A page drawn for a document
 * request reads what exists and writes nothing, whatever its reads go through: before, drawing
 * `/session/{id}` created the lesson's first page and started its clock, so a link from any site
 * started (and, with a time limit, burnt) a learner's lesson.
 *
 * The renderer here stands for the web build's (dist-server/server.js): it makes the reads the
 * app's screens make for each drawn route (prerender/signed-in.tsx, app/early-plan.ts), through
 * the fetch the server gives it, and refuses the page when one fails, as the real one does.
 */

const RENDERER = `
export async function renderSignIn() { return null; }
export async function renderSignedIn({ url, fetch }) {
  const { pathname, search } = new URL(url, 'http://server.invalid');
  const me = await fetch('/api/users/me');
  if (me.status === 401) return { refused: 'token' };
  const user = await me.json();
  const reads = [];
  if (pathname === '/') {
    const past = new URLSearchParams(search).get('period') === 'past';
    reads.push('/api/lessons?filter[userId]=' + user._id + '&include=course');
    reads.push('/api/class-users?filter[role]=STUDENT&filter[expired]=' + past +
      '&sort=-createdAt&include=class.classPrograms.program.programCourses.course,class.teachers');
  }
  const player = /^\\/session\\/([^/]+)(?:\\/page\\/([^/]+))?\\/?$/.exec(pathname);
  if (player) {
    const page = await fetch('/api/lessons/' + player[1] + '/pages/current?noCache=1' +
      (player[2] ? '&pageId=' + player[2] : ''));
    if (!page.ok) return { refused: 'page' };
    const doc = await page.json();
    reads.push('/api/pages/' + doc.data.id + '/resources?lessonId=' + player[1]);
  }
  for (const read of reads) if (!(await fetch(read)).ok) return { refused: 'page' };
  return { body: '<h1>drawn</h1>', title: 'drawn', palette: {}, state: '{}' };
}`;

let w: PlayWorld;
let root: string;
let token: string;

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'parcours-drawn-'));
  mkdirSync(path.join(root, 'dist'));
  mkdirSync(path.join(root, 'dist-server'));
  writeFileSync(
    path.join(root, 'dist', 'index.html'),
    '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>T</title></head>' +
      '<body><div id="root"></div><noscript>JS</noscript></body></html>',
  );
  writeFileSync(path.join(root, 'dist-server', 'server.js'), RENDERER);
  w = await startPlayWorld({ WEB_DIST: path.join(root, 'dist') });
  token = await playLogin(w.app, 'ann');
});
afterAll(async () => {
  await w?.close();
  rmSync(root, { recursive: true, force: true });
});

/** A document request as a browser makes it, from the app's own origin unless told. */
const draw = (url: string, headers: Record<string, string> = {}) =>
  w.app.inject({
    method: 'GET',
    url,
    headers: {
      host: PLAY_HOST,
      cookie: `${HTML_SESSION_COOKIE}=${token}`,
      'sec-fetch-site': 'same-origin',
      'sec-fetch-mode': 'navigate',
      ...headers,
    },
  });
const drawn = (res: { body: string }) => res.body.includes('data-prerendered="signed-in"');

/** Every table's rows, as text: what a page load must leave exactly as it was. */
async function snapshot(db: Db, kind: DbKind): Promise<Record<string, string>> {
  const tables =
    kind === 'sqlite'
      ? (
          await sql<{
            name: string;
          }>`select name from sqlite_master where type = 'table' order by name`.execute(db)
        ).rows.map((r) => r.name)
      : (
          await sql<{ name: string }>`select table_name as name from information_schema.tables
            where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(
            db,
          )
        ).rows.map((r) => r.name);
  const out: Record<string, string> = {};
  for (const table of tables) {
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db)).rows;
    out[table] = rows
      .map((r) => JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)))
      .sort()
      .join('\n');
  }
  return out;
}

async function expectNoChange(urls: string[]): Promise<void> {
  for (const url of urls) {
    // The learning records queued by the test's own writes (written 20 ms after them, lrs/emit.ts)
    // land before the first snapshot; any the page load itself queued land before the second.
    await flushEmitted(w.tdb.db);
    const before = await snapshot(w.tdb.db, w.tdb.kind);
    const res = await draw(url);
    expect(res.statusCode).toBe(200);
    await flushEmitted(w.tdb.db);
    const after = await snapshot(w.tdb.db, w.tdb.kind);
    const changed = Object.keys(after).filter((t) => after[t] !== before[t]);
    expect({ url, changed }).toEqual({ url, changed: [] });
  }
}

describe('a page load changes nothing (issue 36 item 4)', () => {
  it('drawing a lesson never opened neither creates its first page nor starts it: the shell is served', async () => {
    const L = w.lessons.ann.practice;
    await expectNoChange([`/session/${L}`, `/session/${L}/`]);
    const lesson = await w.tdb.db
      .selectFrom('lessons')
      .select(['startedAt', 'currentNodeId'])
      .where('id', '=', L)
      .executeTakeFirstOrThrow();
    expect(lesson).toEqual({ startedAt: null, currentNodeId: null });
    expect(drawn(await draw(`/session/${L}`))).toBe(false);
  });

  it("a link to a timed lesson does not burn it: the learner's own first answer, much later, is kept", async () => {
    const E = w.lessons.ann.exam;
    await w.tdb.db.updateTable('lessons').set({ timeLimit: 120 }).where('id', '=', E).execute();
    await draw(`/session/${E}`);
    w.clock.advance(600);
    const ann = player(w.app, token);
    const page = (await ann.current(E)).json() as PageDoc;
    expect(page.data.attributes.lessonRemainingSeconds).toBe(120);
    const answer = await ann.answer(E, page.data.id, [1]);
    expect(answer.statusCode).toBe(200);
  });

  it('every drawn route, over a started lesson and one whose time ran out, writes no row', async () => {
    const L = w.lessons.ann.practice;
    const ann = player(w.app, token);
    const first = (await ann.current(L)).json() as PageDoc;
    // The started lesson is drawn: what exists is read.
    expect(drawn(await draw(`/session/${L}`))).toBe(true);
    expect(drawn(await draw(`/session/${L}/page/${first.data.id}`))).toBe(true);
    expect(drawn(await draw('/'))).toBe(true);
    await expectNoChange(['/', '/?period=past', `/session/${L}`, `/session/${L}/page/${first.data.id}`]);
    // Its time is up: reading it records the lesson as SKIPPED, which a page load may not do.
    const started = new Date(w.clock.now().getTime() - 3_600_000).toISOString();
    await w.tdb.db
      .updateTable('lessons')
      .set({ timeLimit: 60, startedAt: started })
      .where('id', '=', L)
      .execute();
    await expectNoChange([`/session/${L}`, `/session/${L}/page/${first.data.id}`, '/']);
    const state = await w.tdb.db
      .selectFrom('lessons')
      .select('state')
      .where('id', '=', L)
      .executeTakeFirstOrThrow();
    expect(state.state).not.toBe('SKIPPED');
    // Given its time back, for the next tests.
    await w.tdb.db.updateTable('lessons').set({ timeLimit: null }).where('id', '=', L).execute();
  });
});

describe('a navigation from another site gets the page without the learner’s data', () => {
  it('draws for the learner’s own navigations only (Sec-Fetch-Site none or same-origin)', async () => {
    const L = w.lessons.ann.practice;
    expect(drawn(await draw(`/session/${L}`, { 'sec-fetch-site': 'none' }))).toBe(true);
    for (const site of ['cross-site', 'same-site']) {
      const res = await draw(`/session/${L}`, { 'sec-fetch-site': site });
      expect(res.statusCode).toBe(200);
      expect(drawn(res)).toBe(false);
      expect(res.body).not.toContain('Ann');
      expect(String(res.headers.vary)).toContain('Sec-Fetch-Site');
    }
  });

  it('without Fetch Metadata, a Referer or Origin of another origin gets the plain page too', async () => {
    const without = async (headers: Record<string, string>) => {
      const res = await w.app.inject({
        method: 'GET',
        url: '/',
        headers: { host: PLAY_HOST, cookie: `${HTML_SESSION_COOKIE}=${token}`, ...headers },
      });
      return drawn(res);
    };
    expect(await without({})).toBe(true);
    expect(await without({ referer: `http://${PLAY_HOST}/me` })).toBe(true);
    expect(await without({ referer: 'https://elsewhere.example/page' })).toBe(false);
    expect(await without({ referer: `http://${PLAY_HOST}:9000/package/index.html` })).toBe(false);
    expect(await without({ origin: 'null' })).toBe(false);
  });
});
