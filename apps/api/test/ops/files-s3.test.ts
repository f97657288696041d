import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { importFolder } from '../../src/content/importer';
import { diskStore } from '../../src/files/store';
import { stableId } from '../../src/lib/ids';
import { tenantLogo } from '../../src/modules/certificates/pdf';
import { sweepOrphanUploads } from '../../src/modules/quotas/orphans';
import { get, login, testEnv } from '../helpers/app';
import { hosts, ids, seedWorld } from '../helpers/fixtures';
import { startS3 } from '../helpers/s3';
import type { TestS3 } from '../helpers/s3';
import { createTestDb } from '../helpers/test-db';
import type { TestDb } from '../helpers/test-db';

/**
 * Issue 30: files in an S3 bucket, against a real S3 protocol server (s3rver) on loopback, on
 * the database of the run. `npm run files:migrate` copies a disk store to the bucket (twice: the
 * second copies nothing); the app then has no files folder at all: downloads stream from the
 * bucket under the same access rules (bearer, signed URL, owner), with ranges and ETags; an
 * upload lands in the bucket; an import writes media and learning modules there, which the
 * module route and the certificate logo read back. Issue 29: the orphan sweep and a learner's
 * erasure remove the bytes from the bucket, not only the rows.
 */
const ROOT = path.resolve(import.meta.dirname, '../../../..');
const DEMO = path.join(ROOT, 'content/demo');
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

let s3: TestS3;
let tdb: TestDb;
let app: FastifyInstance;
let anna: string;
let bob: string;
const dataDir = mkdtempSync(path.join(tmpdir(), 'parcours-s3-data-'));

beforeAll(async () => {
  s3 = await startS3();
  tdb = await createTestDb();
  const world = await seedWorld(tdb.db);
  cpSync(world.filesDir, path.join(dataDir, 'files'), { recursive: true });
  rmSync(world.filesDir, { recursive: true, force: true });
  app = await buildApp({ env: testEnv(), db: tdb.db, dbKind: tdb.kind, files: s3.store, logger: false });
  await app.ready();
  anna = await login(app, 'anna@example.test');
  bob = await login(app, 'bob@example.test');
});

afterAll(async () => {
  await app?.close();
  await tdb?.close();
  await s3?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function collect(keys: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const k of keys) out.push(k);
  return out;
}

function filesMigrate(): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', 'files:migrate'], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        FILES_S3_BUCKET: s3.bucket,
        FILES_S3_ENDPOINT: s3.endpoint,
        AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId,
        AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

async function storagePathOf(id: string): Promise<string> {
  const row = await tdb.db
    .selectFrom('files')
    .select('storagePath')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return row.storagePath;
}

function upload(token: string, bytes: Buffer): Promise<LightMyRequestResponse> {
  const boundary = '----parcours-s3-boundary';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.png"\r\nContent-Type: image/png\r\n\r\n`;
  return app.inject({
    method: 'POST',
    url: '/api/files',
    headers: {
      host: hosts.alpha,
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    payload: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
  });
}

describe('files on S3-compatible storage (s3rver)', () => {
  it('npm run files:migrate copies the disk store to the bucket, and a second run copies nothing', async () => {
    const first = await filesMigrate();
    expect(first.code, first.out).toBe(0);
    expect(first.out).toMatch(/: 2 copied \(\d+ bytes\), 0 already there/);
    const second = await filesMigrate();
    expect(second.code, second.out).toBe(0);
    expect(second.out).toMatch(/: 0 copied \(0 bytes\), 2 already there/);
    expect(await s3.store.size('alpha/sound.mp3')).toBe(14);
  }, 60_000);

  it('streams downloads from the bucket under the same access rules, with ranges and ETags', async () => {
    const url = `/api/files/${ids.fileSound}/download`;
    expect((await get(app, url)).statusCode).toBe(401);
    expect((await get(app, `/api/files/${ids.fileBeta}/download`, anna)).statusCode).toBe(404);
    const whole = await get(app, url, anna);
    expect(whole.statusCode).toBe(200);
    expect(whole.body).toBe('ID3-fake-sound');
    expect(whole.headers['content-type']).toBe('audio/mpeg');
    expect(whole.headers['cache-control']).toBe('private, no-cache');
    const etag = whole.headers.etag as string;
    expect(etag).toBeTruthy();
    expect((await get(app, url, anna, hosts.alpha, { headers: { 'if-none-match': etag } })).statusCode).toBe(
      304,
    );
    const part = await get(app, url, anna, hosts.alpha, { headers: { range: 'bytes=0-2' } });
    expect(part.statusCode).toBe(206);
    expect(part.body).toBe('ID3');
    expect(part.headers['content-range']).toBe('bytes 0-2/14');
    const tail = await get(app, url, anna, hosts.alpha, { headers: { range: 'bytes=-5' } });
    expect([tail.statusCode, tail.body]).toEqual([206, 'sound']);
    const past = await get(app, url, anna, hosts.alpha, { headers: { range: 'bytes=100-' } });
    expect([past.statusCode, past.headers['content-range']]).toEqual([416, 'bytes */14']);
    // The signed URL a JSON answer carries works without a header, as for <audio>.
    const meta = (await get(app, `/api/files/${ids.fileSound}`, anna)).json() as {
      data: { attributes: { download: string } };
    };
    const signed = await get(app, meta.data.attributes.download);
    expect([signed.statusCode, signed.body]).toEqual([200, 'ID3-fake-sound']);
  });

  it('stores an upload in the bucket, readable by its owner only', async () => {
    const res = await upload(anna, PNG);
    expect(res.statusCode).toBe(201);
    const id = (res.json() as { data: { id: string } }).data.id;
    const row = await tdb.db
      .selectFrom('files')
      .select('storagePath')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(await s3.store.read(row.storagePath)).toEqual(PNG);
    const mine = await get(app, `/api/files/${id}/download`, anna);
    expect([mine.statusCode, mine.rawPayload.equals(PNG)]).toEqual([200, true]);
    expect((await get(app, `/api/files/${id}/download`, bob)).statusCode).toBe(404);
  });

  it('the orphan sweep removes an orphan upload from the bucket; an attached one stays', async () => {
    const attached = (await upload(bob, PNG)).json() as { data: { id: string } };
    const orphan = (await upload(bob, PNG)).json() as { data: { id: string } };
    const note = await app.inject({
      method: 'POST',
      url: '/api/log-book-records',
      headers: { host: hosts.alpha, 'content-type': 'application/json', authorization: `Bearer ${bob}` },
      payload: JSON.stringify({ title: 'with a photo', message: '', attachmentIds: [attached.data.id] }),
    });
    expect(note.statusCode).toBe(201);
    const orphanKey = await storagePathOf(orphan.data.id);
    const attachedKey = await storagePathOf(attached.data.id);
    expect(await s3.store.size(orphanKey)).toBe(PNG.length);
    const grace = 24 * 3600 * 1000;
    expect(
      await sweepOrphanUploads(tdb.db, s3.store, new Date(Date.now() + grace + 60_000), grace),
    ).toBeGreaterThanOrEqual(1);
    expect(await s3.store.size(orphanKey)).toBeNull();
    expect(await s3.store.size(attachedKey)).toBe(PNG.length);
    // Content media (no owner) stay in the bucket.
    expect(await s3.store.size('alpha/sound.mp3')).toBe(14);
  });

  it("a learner's erasure removes their uploads from the bucket", async () => {
    const kept = (await upload(bob, PNG)).json() as { data: { id: string } };
    const key = await storagePathOf(kept.data.id);
    expect(await s3.store.size(key)).toBe(PNG.length);
    const admin = await login(app, 'admin@example.test');
    const erased = await app.inject({
      method: 'POST',
      url: `/api/users/${ids.learnerB}/erasure`,
      headers: { host: hosts.alpha, 'content-type': 'application/json', authorization: `Bearer ${admin}` },
      payload: '{}',
    });
    expect(erased.statusCode).toBeLessThan(300);
    expect(await s3.store.size(key)).toBeNull();
  });

  it('imports media and learning modules into the bucket; modules and the certificate logo read back', async () => {
    const other = await createTestDb();
    const importDir = mkdtempSync(path.join(tmpdir(), 'parcours-s3-import-'));
    try {
      const report = await importFolder(other.db, DEMO, { filesDir: importDir, store: s3.store });
      expect(report.ok, JSON.stringify(report.errors)).toBe(true);
      // Nothing on disk: every file went to the bucket.
      expect((await collect(diskStore(importDir).list())).length).toBe(0);
      const rows = await other.db.selectFrom('files').select(['storagePath', 'size']).execute();
      expect(rows.length).toBeGreaterThan(5);
      for (const r of rows) expect(await s3.store.size(r.storagePath), r.storagePath).toBe(Number(r.size));

      const fr = stableId('context', 'fr');
      const context = await other.db
        .selectFrom('contexts')
        .select('assets')
        .where('id', '=', fr)
        .executeTakeFirstOrThrow();
      const logo = await tenantLogo(other.db, s3.store, fr, context.assets);
      expect(logo && Buffer.from(logo.slice(0, 4)).toString('hex')).toBe('89504e47');

      const keys = await collect(s3.store.list(`tincan/${fr}/`));
      const index = keys.find((k) => k.endsWith('/index.html'));
      expect(index).toBeTruthy();
      const withModules = await buildApp({
        env: testEnv(),
        db: other.db,
        dbKind: other.kind,
        files: s3.store,
        logger: false,
      });
      try {
        const page = await withModules.inject({ url: `/api/${index!}`, headers: { host: 'localhost' } });
        expect(page.statusCode).toBe(200);
        expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(page.headers['content-security-policy']).toMatch(/^sandbox /);
        expect(page.body).toMatch(/<html/i);
        // Another tenant's module, a path out of the folder: 404.
        const en = stableId('context', 'en');
        const elsewhere = await withModules.inject({
          url: `/api/${index!}`,
          headers: { host: 'en.localhost' },
        });
        expect(en).not.toBe(fr);
        expect(elsewhere.statusCode).toBe(404);
        const escape = await withModules.inject({
          url: `/api/tincan/${fr}/..%2F..%2Fsecret`,
          headers: { host: 'localhost' },
        });
        expect(escape.statusCode).toBe(404);
      } finally {
        await withModules.close();
      }
    } finally {
      await other.close();
      rmSync(importDir, { recursive: true, force: true });
    }
  }, 60_000);
});
