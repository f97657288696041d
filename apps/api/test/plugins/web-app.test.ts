import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app';
import { testEnv } from '../helpers/app';
import { createTestDb } from '../helpers/test-db';
import type { TestDb } from '../helpers/test-db';
import { hosts, seedWorld } from '../helpers/fixtures';

let app: FastifyInstance;
let tdb: TestDb;
let dist: string;
let filesDir: string;
beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'parcours-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Parcours</title>');
  writeFileSync(path.join(dist, 'assets', 'app-1234.js'), 'console.log(1)');
  writeFileSync(path.join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {})');
  tdb = await createTestDb();
  ({ filesDir } = await seedWorld(tdb.db));
  app = await buildApp({
    env: testEnv({ WEB_DIST: dist }),
    db: tdb.db,
    dbKind: tdb.kind,
    filesDir,
    logger: false,
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await tdb.close();
  rmSync(dist, { recursive: true, force: true });
  rmSync(filesDir, { recursive: true, force: true });
});

const get = (url: string) => app.inject({ method: 'GET', url, headers: { host: hosts.alpha } });

describe('built web app on the same origin', () => {
  it('serves files, hashed assets cached for good, the rest revalidated', async () => {
    const asset = await get('/assets/app-1234.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const sw = await get('/sw.js');
    expect(sw.headers['cache-control']).toBe('no-cache');
    expect((await get('/')).body).toContain('<title>Parcours</title>');
  });

  it('answers client-side routes with index.html', async () => {
    for (const url of ['/niveaux', '/session/abc/page/def', '/legal/mentions?x=1']) {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('<title>Parcours</title>');
    }
  });

  it('keeps JSON:API 404 for unknown /api paths', async () => {
    const res = await get('/api/unknown');
    expect(res.statusCode).toBe(404);
    expect(res.json().errors[0].code).toBe('NOT_FOUND');
  });
});
