import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { importFolder } from '../../src/content/importer';
import { loadEnv } from '../../src/env';
import { shortName } from '../../src/modules/manifest/service';
import type { TestDb } from '../content/helpers';
import { DEMO, openTestDb } from '../content/helpers';

/** Issue 12: each tenant installs as itself (docs/product.md §1, §3): GET /manifest.webmanifest per Host. */

let t: TestDb;
let app: FastifyInstance;

beforeAll(async () => {
  t = await openTestDb();
  const report = await importFolder(t.db, DEMO, { filesDir: t.filesDir });
  expect(report.errors).toEqual([]);
  const env = loadEnv({
    NODE_ENV: 'test',
    JWT_SECRET: 'x'.repeat(40),
    LOG_LEVEL: 'silent',
    DATA_DIR: t.filesDir,
  });
  app = await buildApp({ env, db: t.db, dbKind: t.kind, filesDir: t.filesDir, logger: false });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await t.close();
});

interface Manifest {
  name: string;
  short_name: string;
  lang: string;
  start_url: string;
  scope: string;
  display: string;
  theme_color: string;
  background_color: string;
  icons: { src: string; sizes: string; type: string }[];
}

async function manifestOf(host: string): Promise<Manifest> {
  const res = await app.inject({ method: 'GET', url: '/manifest.webmanifest', headers: { host } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
  expect(res.headers['cache-control']).toBe('no-cache');
  return res.json<Manifest>();
}

describe('GET /manifest.webmanifest', () => {
  it.each([
    {
      host: 'localhost',
      name: 'Parcours Formation',
      short: 'Parcours',
      lang: 'fr',
      theme: '#1d4ed8',
      background: '#f8fafc',
    },
    {
      host: 'en.localhost:3000',
      name: 'Pathways Learning',
      short: 'Pathways',
      lang: 'en',
      theme: '#0f766e',
      background: '#f0fdfa',
    },
  ])('is the $host tenant’s own app, with its touch icons', async (tenant) => {
    const manifest = await manifestOf(tenant.host);
    expect(manifest).toMatchObject({
      name: tenant.name,
      short_name: tenant.short,
      lang: tenant.lang,
      start_url: '/',
      scope: '/',
      display: 'standalone',
      theme_color: tenant.theme,
      background_color: tenant.background,
    });
    expect(manifest.icons.map((i) => i.sizes)).toEqual(['192x192', '512x512']);

    // The icons are the tenant's stored files, readable without signing in, and PNG of their size.
    for (const icon of manifest.icons) {
      expect(icon.src).toMatch(/^\/api\/files\/[^/]+\/download$/);
      const file = await app.inject({ method: 'GET', url: icon.src, headers: { host: tenant.host } });
      expect(file.statusCode).toBe(200);
      const png = file.rawPayload;
      expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
      const [w, h] = icon.sizes.split('x').map(Number);
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([w, h]);
    }
  });

  it('gives each tenant different icons', async () => {
    const [fr, en] = await Promise.all([manifestOf('localhost'), manifestOf('en.localhost')]);
    expect(fr.icons[0]!.src).not.toBe(en.icons[0]!.src);
  });

  it('answers an unknown host with the generic tenant and the app’s own icons', async () => {
    const manifest = await manifestOf('nobody.example.org');
    expect(manifest).toMatchObject({
      name: 'Parcours',
      lang: 'en',
      theme_color: '#334155',
      background_color: '#ffffff',
    });
    expect(manifest.icons.map((i) => i.src)).toEqual(['/pwa-192x192.png', '/pwa-512x512.png']);
  });

  it('publishes no settings or secrets of the tenant', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/manifest.webmanifest',
      headers: { host: 'localhost' },
    });
    expect(Object.keys(res.json<object>()).sort()).toEqual([
      'background_color',
      'description',
      'dir',
      'display',
      'icons',
      'id',
      'lang',
      'name',
      'orientation',
      'scope',
      'short_name',
      'start_url',
      'theme_color',
    ]);
  });
});

describe('shortName', () => {
  it.each([
    ['Parcours', {}, 'Parcours'],
    ['Parcours Formation', {}, 'Parcours'],
    ['Parcours Formation', { 'short-name': ' Formation ' }, 'Formation'],
    ['Pathways Learning', { 'application-name': 'Pathways' }, 'Pathways'],
  ])('%s with metas %j → %s', (name, metas, expected) => {
    expect(shortName(name, metas)).toBe(expected);
  });
});
