import { cpSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { importFolder } from '../../src/content/importer';
import type { DbHandle } from '../../src/db/db';
import { collectionDocumentSchema } from '../../src/plugins/jsonapi';
import { DEMO } from '../content/helpers';
import { STAMP_HEADER } from '../../src/lib/viewer-copy';
import { settled } from '../helpers/app';
import { startTwoApps } from '../helpers/two-apps';
import type { TwoApps } from '../helpers/two-apps';

/**
 * Decision 0015: the home's two reads are served from each API process's memory while the
 * version stamps kept by the database's triggers (migration 0014) are unchanged. Two apps on
 * two connections to one database stand for two server processes: every write goes through
 * `b` (the player, the importer, plain SQL) while `a`, whose cache is warm, must show it — at once
 * with the writer's stamp, else once its copy has heard of the write (decision 0059).
 */
const HOST = 'localhost'; // the French demo tenant, as the bench asks it
let two: TwoApps | undefined;
let dir: string;
let handles: DbHandle[] = [];
let a: FastifyInstance;
let b: FastifyInstance;
let token: string;
let userId: string;

beforeAll(async () => {
  two = await startTwoApps('hc', async (db, folder) => {
    const report = await importFolder(db, DEMO, { filesDir: path.join(folder, 'files') });
    if (!report.ok) throw new Error(JSON.stringify(report.errors));
    return path.join(folder, 'files');
  });
  ({ a, b, handles, dir } = two);
  const login = await a.inject({
    method: 'POST',
    url: '/api/users/login',
    headers: { host: HOST },
    payload: { email: 'learner@example.com', password: 'Learner#2026' },
  });
  ({ access_token: token, user_id: userId } = login.json() as { access_token: string; user_id: string });
}, 60_000);

afterAll(async () => two?.close());

// Exactly as apps/web/src/features/home/api/*.ts asks them.
const lessonsUrl = () => `/api/lessons?filter[userId]=${userId}&include=course`;
const classUsersUrl =
  '/api/class-users?filter[role]=STUDENT&filter[expired]=false&sort=-createdAt&include=class.classPrograms.program.programCourses.course,class.teachers';

const read = async (app: FastifyInstance, url: string, headers: Record<string, string> = {}) => {
  const res = await app.inject({
    method: 'GET',
    url,
    headers: { host: HOST, authorization: `Bearer ${token}`, ...headers },
  });
  expect(res.statusCode).toBe(200);
  return res;
};

interface Doc {
  data: { id: string; attributes: Record<string, unknown> }[];
  included?: { type: string; id: string; attributes: Record<string, unknown> }[];
}
const doc = async (app: FastifyInstance, url: string) => (await read(app, url)).json() as Doc;
const titles = (d: Doc) =>
  (d.included ?? []).filter((r) => r.type === 'courses').map((r) => String(r.attributes.title));

describe('the home reads served again from memory', () => {
  it('answer the same bytes as the first time, on each process', async () => {
    for (const url of [lessonsUrl(), classUsersUrl]) {
      const first = (await read(a, url)).body;
      expect((await read(a, url)).body).toBe(first);
      expect((await read(b, url)).body).toBe(first);
    }
  });

  it("are the bytes the route's response schema would have serialised", async () => {
    // Before decision 0015 the lessons read went through the zod serialiser: parse, then stringify.
    for (const url of [lessonsUrl(), classUsersUrl]) {
      const body = (await read(a, url)).body;
      expect(JSON.stringify(collectionDocumentSchema.parse(JSON.parse(body)))).toBe(body);
    }
  });

  it('pages of the own-lessons list count every lesson, full page or not', async () => {
    const all = (await read(a, lessonsUrl())).json() as Doc & { meta: { total: number } };
    const total = all.data.length;
    expect(all.meta.total).toBe(total);
    expect(total).toBeGreaterThan(2);
    const second = (await read(a, `${lessonsUrl()}&page[size]=2&page[number]=2`)).json() as Doc & {
      meta: { total: number };
    };
    expect(second.meta.total).toBe(total);
    expect(second.data.map((l) => l.id)).toEqual(all.data.slice(2, 4).map((l) => l.id));
  });

  it('opening a page in another process shows on the home at once with its stamp, an answer by plain SQL once heard', async () => {
    const before = await doc(a, lessonsUrl());
    const lesson = before.data.find((l) => l.attributes.state === 'AVAILABLE' && !l.attributes.startedAt);
    expect(lesson).toBeDefined();
    // The real player, in the other process: opening the lesson writes its first page.
    const opened = await b.inject({
      method: 'GET',
      url: `/api/lessons/${lesson!.id}/pages/current`,
      headers: { host: HOST, authorization: `Bearer ${token}` },
    });
    expect(opened.statusCode).toBe(200);
    // Read-your-writes (decision 0059): the stamp of b's answer makes a read past its own copy.
    const stamp = String(opened.headers[STAMP_HEADER]);
    const afterOpen = ((await read(a, lessonsUrl(), { [STAMP_HEADER]: stamp })).json() as Doc).data.find(
      (l) => l.id === lesson!.id,
    )!;
    expect(afterOpen.attributes).not.toEqual(lesson!.attributes);
    // An answer recorded by any writer (here plain SQL) moves the page's progress.
    const pageId = (opened.json() as { data: { id: string } }).data.id;
    await handles[1]!.db
      .updateTable('lessonPages')
      .set({ progress: 'COMPLETED' })
      .where('id', '=', pageId)
      .execute();
    // Another process's write shows within the notification's delay: waited for here.
    await settled(handles[0]!.db);
    const pages = (l: { attributes: Record<string, unknown> }) =>
      (l.attributes.tree as { pages: { progress: string | null }[] }[]).flatMap((s) => s.pages);
    const afterAnswer = (await doc(a, lessonsUrl())).data.find((l) => l.id === lesson!.id)!;
    expect(pages(afterAnswer).filter((p) => p.progress === 'COMPLETED').length).toBe(
      pages(afterOpen).filter((p) => p.progress === 'COMPLETED').length + 1,
    );
  });

  it('a membership ended in another process leaves the class list once heard', async () => {
    const before = await doc(a, classUsersUrl);
    expect(before.data.length).toBeGreaterThan(0);
    const gone = before.data[0]!;
    const row = await handles[1]!.db
      .selectFrom('classUsers')
      .selectAll()
      .where('id', '=', gone.id)
      .executeTakeFirstOrThrow();
    await handles[1]!.db.deleteFrom('classUsers').where('id', '=', gone.id).execute();
    await settled(handles[0]!.db);
    try {
      expect((await doc(a, classUsersUrl)).data.map((m) => m.id)).not.toContain(gone.id);
    } finally {
      await handles[1]!.db.insertInto('classUsers').values(row).execute();
      await settled(handles[0]!.db);
    }
    expect((await doc(a, classUsersUrl)).data.map((m) => m.id)).toContain(gone.id);
  });

  it('a class reaching its expiry leaves the unexpired class list at that instant', async () => {
    const before = await doc(a, classUsersUrl);
    const classId = (before.data[0]!.attributes as { classId: string }).classId;
    const row = await handles[1]!.db
      .selectFrom('classes')
      .select('expireAt')
      .where('id', '=', classId)
      .executeTakeFirstOrThrow();
    const expireAt = Date.now() + 60_000;
    await handles[1]!.db
      .updateTable('classes')
      .set({ expireAt: new Date(expireAt).toISOString() })
      .where('id', '=', classId)
      .execute();
    try {
      // Kept in memory until the expiry (the second read is the cached one), not after it.
      const ids = async () =>
        (await doc(a, classUsersUrl)).data.map((m) => (m.attributes as { classId: string }).classId);
      expect(await ids()).toContain(classId);
      expect(await ids()).toContain(classId);
      // A request reads its clock from Date (modules/scope.ts): only the date is faked, and set
      // either side of the expiry, so the database's and the server's own timers run as ever.
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(expireAt - 1);
      expect(await ids()).toContain(classId);
      vi.setSystemTime(expireAt + 1);
      expect(await ids()).not.toContain(classId);
    } finally {
      vi.useRealTimers();
      await handles[1]!.db
        .updateTable('classes')
        .set({ expireAt: row.expireAt })
        .where('id', '=', classId)
        .execute();
    }
  });

  it('content re-imported by another process shows its new titles on both reads once heard', async () => {
    const lessonTitles = titles(await doc(a, lessonsUrl()));
    const classTitles = titles(await doc(a, classUsersUrl));
    expect(lessonTitles.length).toBeGreaterThan(0);
    expect(classTitles.length).toBeGreaterThan(0);
    const copy = path.join(dir, 'content-v2');
    cpSync(DEMO, copy, { recursive: true });
    const courses = path.join(copy, 'tenants/fr/courses');
    for (const file of readdirSync(courses)) {
      const text = readFileSync(path.join(courses, file), 'utf8');
      const [head = '', tree = ''] = text.split(/^tree:$/m);
      writeFileSync(
        path.join(courses, file),
        // The course's title, and its sections' (nodes two levels down the tree).
        `${head.replace(/^title: (.*)$/m, 'title: $1 (v2)')}tree:${tree.replace(/^ {6}title: (.*)$/gm, '      title: $1 (v2)')}`,
      );
    }
    const report = await importFolder(handles[1]!.db, copy, { filesDir: path.join(dir, 'files') });
    expect(report.errors).toEqual([]);
    await settled(handles[0]!.db);
    const v2 = (t: string) => `${t} (v2)`;
    const lessons = await doc(a, lessonsUrl());
    expect(titles(lessons).sort()).toEqual(lessonTitles.map(v2).sort());
    const sections = lessons.data.flatMap((l) =>
      (l.attributes.tree as { title: string }[]).map((s) => s.title),
    );
    expect(sections.length).toBeGreaterThan(0);
    expect(sections.every((t) => t.endsWith(' (v2)'))).toBe(true);
    expect(titles(await doc(a, classUsersUrl)).sort()).toEqual(classTitles.map(v2).sort());
  });

  it('compressed answers decode to the plain bytes, say Vary, and a client without Accept-Encoding gets plain JSON', async () => {
    for (const url of [lessonsUrl(), classUsersUrl]) {
      const plain = await read(a, url);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
      const br = await read(a, url, { 'accept-encoding': 'gzip, deflate, br' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.vary).toMatch(/accept-encoding/i);
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
      const gz = await read(a, url, { 'accept-encoding': 'gzip;q=1, br;q=0.5' });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
      const refused = await read(a, url, { 'accept-encoding': 'br;q=0, gzip;q=0' });
      expect(refused.headers['content-encoding']).toBeUndefined();
      expect(refused.body).toBe(plain.body);
    }
  });

  it('an administrator reading someone else never gets the viewer-keyed answer', async () => {
    // The learner asking for another user's lessons is refused, cached answer or not.
    const res = await a.inject({
      method: 'GET',
      url: `/api/lessons?filter[userId]=someone-else&include=course`,
      headers: { host: HOST, authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(403);
  });
});
