import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { HTML_SESSION_COOKIE } from '../../src/plugins/html-session';
import type { PlayWorld } from './player';
import { PLAY_HOST, startPlayWorld } from './player';

/**
 * A play world (helpers/player.ts) whose app draws signed-in pages with a renderer standing for
 * the web build's (dist-server/server.js), for the tests of the drawn pages kept in the process
 * (decision 0061): it makes the reads the app's screens make for each drawn route (as in
 * drawn-page-read-only.test.ts), takes the learner's own language as the real one does, and
 * writes every answer it read into the page's data block, so a page drawn from old reads shows
 * them. It counts its draws on globalThis.
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

export interface Drawn {
  /** Whether the renderer ran for it (not served from what was kept). */
  drew: boolean;
  html: string;
  /** The page's data block: the answers it was drawn from. */
  state: Record<string, unknown> | null;
  res: Awaited<ReturnType<PlayWorld['app']['inject']>>;
}

export interface DrawnWorld {
  w: PlayWorld;
  /** A document request as the learner's browser makes it (French browser unless told). */
  request(url: string, token: string, headers?: Record<string, string>): Promise<Drawn['res']>;
  /** The page at `url` (a 200), drawn or sent from what was kept. */
  open(url: string, token: string, headers?: Record<string, string>): Promise<Drawn>;
  close(): Promise<void>;
}

export async function startDrawnWorld(): Promise<DrawnWorld> {
  const root = mkdtempSync(path.join(tmpdir(), 'parcours-drawn-cache-'));
  mkdirSync(path.join(root, 'dist'));
  mkdirSync(path.join(root, 'dist-server'));
  writeFileSync(
    path.join(root, 'dist', 'index.html'),
    '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>T</title></head>' +
      '<body><div id="root"></div><noscript>JS</noscript></body></html>',
  );
  writeFileSync(path.join(root, 'dist-server', 'server.js'), RENDERER);
  const w = await startPlayWorld({ WEB_DIST: path.join(root, 'dist') });
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
  return {
    w,
    request,
    async open(url, token, headers = {}) {
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
    },
    async close() {
      await w.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
