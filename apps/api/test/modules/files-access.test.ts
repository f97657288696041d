import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFolder } from '../../src/content/importer';
import { stableId } from '../../src/lib/ids';
import { T0, hosts, ids } from '../helpers/fixtures';
import { get, login, startTestApp } from '../helpers/app';
import type { TestContext } from '../helpers/app';
import { createTestDb } from '../helpers/test-db';

/**
 * Issue 10 finding 7: files were public and their ids guessable. Now ids are random-like, the
 * bytes go only to whom may see them (branding stays public), through short-lived signed URLs
 * for <img>/<audio>/PDF, and what is not an image never runs as a page of the API's origin.
 */
let t: TestContext;
let anna: string;
let bob: string;
let teacher: string;
const ATTACHMENT = 'att-anna-1';
const HTML = 'att-anna-html';
const PDF = 'att-anna-pdf';

beforeAll(async () => {
  t = await startTestApp();
  anna = await login(t.app, 'anna@example.test');
  bob = await login(t.app, 'bob@example.test');
  teacher = await login(t.app, 'teacher@example.test');
  writeFileSync(path.join(t.world.filesDir, 'alpha', 'note.pdf'), '%PDF-1.4 fake');
  writeFileSync(path.join(t.world.filesDir, 'alpha', 'page.html'), '<script>alert(1)</script>');
  const file = (id: string, name: string, type: string, fileType: string, storagePath: string) => ({
    id,
    contextId: ids.ctxA,
    libraryId: null,
    ownerId: ids.learnerA,
    name,
    type,
    fileType,
    icon: null,
    size: 10,
    storagePath,
    sha256: null,
    createdAt: T0,
    updatedAt: T0,
  });
  await t.tdb.db
    .insertInto('files')
    .values([
      file(ATTACHMENT, 'photo.png', 'image/png', 'image', 'alpha/logo.png'),
      file(HTML, 'page.html', 'text/html', 'other', 'alpha/page.html'),
      file(PDF, 'note "x".pdf', 'application/pdf', 'pdf', 'alpha/note.pdf'),
    ])
    .execute();
  // Anna's log-book record in the class Tess teaches lists the first attachment.
  await t.tdb.db
    .insertInto('logBookRecords')
    .values({
      id: 'lbr-1',
      contextId: ids.ctxA,
      title: 'Stage',
      message: '',
      studentId: ids.learnerA,
      userId: ids.learnerA,
      parentId: null,
      classId: ids.classCurrent,
      companyId: null,
      attachmentIds: JSON.stringify([ATTACHMENT]),
      createdAt: T0,
      lastInputAt: T0,
    })
    .execute();
});
afterAll(async () => {
  await t.close();
});

const download = (id: string) => `/api/files/${id}/download`;
const signedOf = async (id: string, token: string): Promise<string> => {
  const res = await get(t.app, `/api/files/${id}`, token);
  expect(res.statusCode).toBe(200);
  return (res.json() as { data: { attributes: { download: string } } }).data.attributes.download;
};

describe('who may download', () => {
  it('keeps tenant branding public, and course media behind sign-in', async () => {
    expect((await get(t.app, download(ids.fileLogo))).statusCode).toBe(200);
    expect((await get(t.app, download(ids.fileSound))).statusCode).toBe(401);
    expect((await get(t.app, download(ids.fileSound), anna)).statusCode).toBe(200);
  });

  it('signs every file URL the API sends to a signed-in user; the signed URL works without a header', async () => {
    const url = await signedOf(ids.fileSound, anna);
    expect(url).toMatch(new RegExp(`^/api/files/${ids.fileSound}/download\\?`));
    expect(url).toContain('sig=');
    const res = await get(t.app, url);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('ID3');
    const infos = (await get(t.app, `/api/files/${ids.fileSound}/infos`, anna)).json() as {
      download: string;
      htmlPlayer: string;
    };
    expect(infos.download).toContain('sig=');
    expect(infos.htmlPlayer).toContain('sig=');
  });

  it('refuses a tampered or expired signature', async () => {
    const url = await signedOf(ids.fileSound, anna);
    expect((await get(t.app, url.replace(/sig=[^&]+/, 'sig=AAAA'))).statusCode).toBe(401);
    expect((await get(t.app, url.replace(/exp=\d+/, 'exp=1700000000'))).statusCode).toBe(401);
    // A signature is for one file.
    expect((await get(t.app, url.replace(ids.fileSound, ATTACHMENT))).statusCode).toBe(401);
  });

  it('shows an attachment to its owner, the teacher of the record’s class, and nobody else', async () => {
    expect((await get(t.app, download(ATTACHMENT), anna)).statusCode).toBe(200);
    expect((await get(t.app, download(ATTACHMENT), teacher)).statusCode).toBe(200);
    expect((await get(t.app, `/api/files/${ATTACHMENT}`, teacher)).statusCode).toBe(200);
    expect((await get(t.app, download(ATTACHMENT), bob)).statusCode).toBe(404);
    expect((await get(t.app, `/api/files/${ATTACHMENT}`, bob)).statusCode).toBe(404);
    expect((await get(t.app, `/api/files/${ATTACHMENT}/infos`, bob)).statusCode).toBe(404);
    // An attachment not listed on any record: its owner only.
    expect((await get(t.app, download(HTML), teacher)).statusCode).toBe(404);
    expect((await get(t.app, download(ATTACHMENT))).statusCode).toBe(401);
  });
});

describe('a shared device (issue 29 R3-06, decision 0045)', () => {
  it("a private file is revalidated at every use: a browser's cache never hands it to the next person", async () => {
    const first = await get(t.app, download(ATTACHMENT), anna);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const etag = String(first.headers.etag);
    const conditional = { headers: { 'if-none-match': etag } };
    // Its reader gets a 304; someone without credentials a 401, not the kept copy.
    expect((await get(t.app, download(ATTACHMENT), anna, hosts.alpha, conditional)).statusCode).toBe(304);
    expect((await get(t.app, download(ATTACHMENT), undefined, hosts.alpha, conditional)).statusCode).toBe(
      401,
    );
    // Tenant branding stays cacheable for an hour.
    expect((await get(t.app, download(ids.fileLogo))).headers['cache-control']).toContain('max-age=3600');
  });
});

describe('what the browser does with the bytes', () => {
  it('sends what is not an image, a sound or a PDF as an attachment, never sniffed', async () => {
    const html = await get(t.app, download(HTML), anna);
    expect(html.statusCode).toBe(200);
    expect(String(html.headers['content-disposition'])).toMatch(/^attachment;/);
    expect(html.headers['x-content-type-options']).toBe('nosniff');
    const pdf = await get(t.app, download(PDF), anna);
    expect(String(pdf.headers['content-disposition'])).toMatch(/^inline;/);
    expect(String(pdf.headers['content-disposition'])).not.toContain('"x"');
    expect(pdf.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('file ids', () => {
  it('are not derived from the tenant alias and the file path', async () => {
    const db = await createTestDb();
    const filesDir = mkdtempSync(path.join(tmpdir(), 'parcours-files-'));
    try {
      const demo = path.resolve(import.meta.dirname, '../../../../content/demo');
      const report = await importFolder(db.db, demo, { filesDir });
      expect(report.ok).toBe(true);
      const rows = await db.db
        .selectFrom('files')
        .innerJoin('contexts', 'contexts.id', 'files.contextId')
        .select(['files.id', 'contexts.alias'])
        .execute();
      expect(rows.length).toBeGreaterThan(0);
      const rels: string[] = [];
      const walk = (dir: string, rel: string) => {
        for (const name of readdirSync(dir)) {
          const full = path.join(dir, name);
          if (statSync(full).isDirectory()) walk(full, rel ? `${rel}/${name}` : name);
          else rels.push(rel ? `${rel}/${name}` : name);
        }
      };
      walk(demo, '');
      const guessable = new Set<string>();
      for (const { alias } of rows) {
        for (const rel of rels) {
          // Relative to the demo folder and to the tenant's own folder.
          guessable.add(stableId(alias, 'file', rel));
          guessable.add(stableId(alias, 'file', rel.split('/').slice(1).join('/')));
        }
      }
      expect(rows.filter((r) => guessable.has(r.id))).toEqual([]);
      void hosts;
    } finally {
      await db.close();
      rmSync(filesDir, { recursive: true, force: true });
    }
  });
});
