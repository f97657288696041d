import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ContextRow } from '../../src/modules/contexts/repository';
import { compressedPage, type SignInRenderer } from '../../src/plugins/sign-in-html';
import { tenantResolver } from '../../src/plugins/tenant';
import { registerWebApp } from '../../src/plugins/web-app';
import { createTestDb, type TestDb } from '../helpers/test-db';
import { hosts, ids, seedWorld, type World } from '../helpers/fixtures';

/**
 * The tenant resolver reads the tenant's row again every 30 s and hands a new object each time,
 * even when nothing changed: the pages built from it (brotli 11, ~25 ms; /login also rendered
 * with React) are found again by what they are made of, and built again only when that changes.
 */
const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>Espace Apprenant</title>
  </head>
  <body>
    <div id="root"></div>
    <noscript>Parcours needs JavaScript.</noscript>
  </body>
</html>`;

let tdb: TestDb;
let world: World;
let dist: string;
let app: FastifyInstance;
/** Every row object the resolver handed, every page made, every sign-in screen drawn. */
const rows = new Set<ContextRow>();
let pagesMade = 0;
let signInsDrawn = 0;
let failNextSignIn = false;

const renderer: SignInRenderer = {
  renderSignIn: async ({ tenant, lang }) => {
    signInsDrawn += 1;
    if (failNextSignIn) {
      failNextSignIn = false;
      throw new Error('renderer failed once');
    }
    const name = (tenant as { attributes: { name: string } }).attributes.name;
    return { body: `<h1 data-lang="${lang}">${name}</h1>`, title: name, palette: {} };
  },
};

beforeAll(async () => {
  tdb = await createTestDb();
  world = await seedWorld(tdb.db);
  dist = mkdtempSync(path.join(tmpdir(), 'parcours-page-cache-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), INDEX);
  // No cache of its own: a new row object on every request, as the real one gives every 30 s.
  const resolve = tenantResolver({ db: tdb.db, ttlMs: 0 });
  app = Fastify({ logger: false });
  await registerWebApp(app, dist, {
    tenantOf: async (hostname) => {
      const row = await resolve(hostname);
      rows.add(row);
      return row;
    },
    renderer,
    compress: (html) => {
      pagesMade += 1;
      return compressedPage(html);
    },
  });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await tdb?.close();
  rmSync(dist, { recursive: true, force: true });
  if (world) rmSync(world.filesDir, { recursive: true, force: true });
});
beforeEach(() => {
  rows.clear();
  pagesMade = 0;
  signInsDrawn = 0;
});

const get = (url: string, host = hosts.alpha) =>
  app.inject({ method: 'GET', url, headers: { host, 'accept-encoding': 'br', 'accept-language': 'fr' } });
const text = (res: { rawPayload: Buffer }) => brotliDecompressSync(res.rawPayload).toString();
const rename = (name: string) =>
  tdb.db.updateTable('contexts').set({ name }).where('id', '=', ids.ctxA).execute();

describe('pages of a tenant read again but unchanged', () => {
  it('are built and compressed once, for a new row object with the same content', async () => {
    const pages = [await get('/'), await get('/'), await get('/')];
    const signIns = [await get('/login'), await get('/login'), await get('/login')];
    expect(rows.size).toBe(6);
    expect(pagesMade).toBe(2);
    expect(signInsDrawn).toBe(1);
    for (const res of [...pages, ...signIns]) expect(res.headers['content-encoding']).toBe('br');
    expect(new Set(pages.map(text)).size).toBe(1);
    expect(new Set(signIns.map(text)).size).toBe(1);
    expect(text(signIns[0]!)).toContain('<h1 data-lang="fr">Alpha Academy</h1>');
  });

  it('are built again at once when the content changes the tenant, with the new content', async () => {
    await get('/');
    await get('/login');
    const before = pagesMade;
    await rename('Alpha Academy Renamed');
    try {
      const page = text(await get('/'));
      expect(page).toContain('"name":"Alpha Academy Renamed"');
      const signIn = text(await get('/login'));
      expect(signIn).toContain('<h1 data-lang="fr">Alpha Academy Renamed</h1>');
      expect(signIn).toContain('"name":"Alpha Academy Renamed"');
      expect(pagesMade).toBe(before + 2);
      // Another tenant, another page.
      expect(text(await get('/', hosts.beta))).toContain('"name":"Beta School"');
    } finally {
      await rename('Alpha Academy');
    }
    // Back to the first content: its pages are still kept.
    const made = pagesMade;
    expect(text(await get('/login'))).toContain('<h1 data-lang="fr">Alpha Academy</h1>');
    expect(pagesMade).toBe(made);
  });

  it('keeps the pages of at most 64 tenant contents, dropping the one found longest ago', async () => {
    try {
      for (let n = 0; n <= 64; n += 1) {
        await rename(`Alpha ${n}`);
        await get('/');
      }
      expect(pagesMade).toBe(65);
      await get('/');
      expect(pagesMade).toBe(65);
      await rename('Alpha 0');
      expect(text(await get('/'))).toContain('"name":"Alpha 0"');
      expect(pagesMade).toBe(66);
    } finally {
      await rename('Alpha Academy');
    }
  });

  it('draws the sign-in screen again after the renderer failed, not the failure for good', async () => {
    failNextSignIn = true;
    await rename('Alpha Flaky');
    try {
      expect(text(await get('/login'))).not.toContain('<h1');
      expect(text(await get('/login'))).toContain('<h1 data-lang="fr">Alpha Flaky</h1>');
      expect(signInsDrawn).toBe(2);
    } finally {
      await rename('Alpha Academy');
    }
  });
});
