import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTACHMENT_MAX_BYTES, LOGBOOK_MESSAGE_KEYS, LOGBOOK_MESSAGE_MAX } from '@parcours/domain/logbook';
import { T0, hosts, ids } from '../helpers/fixtures';
import { get, login, startTestApp } from '../helpers/app';
import type { ErrorDoc, TestContext } from '../helpers/app';

/**
 * Logbook notes (docs/product.md §2 Logbook, §3 LogBookRecord, §7 log-book-records) and their attachments
 * (POST /files). Fixtures: learner A is a STUDENT of class-current, which the teacher teaches;
 * learner B is a STUDENT of class-b, taught by a second teacher added here.
 */
let t: TestContext;
let anna: string;
let bob: string;
let tess: string;
let otto: string;
const TEACHER_B = 'u-teacher-b';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1');
const PDF = Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n', 'latin1');

interface Doc {
  data: {
    type: string;
    id: string;
    attributes: Record<string, unknown>;
    relationships?: Record<string, { data: unknown }>;
  };
  included?: { type: string; id: string; attributes: Record<string, unknown> }[];
}
interface ListDoc {
  data: Doc['data'][];
  included?: Doc['included'];
  meta: { total: number };
}

function send(
  method: 'POST' | 'PATCH',
  url: string,
  token: string | undefined,
  payload: unknown,
  host = hosts.alpha,
) {
  return t.app.inject({
    method,
    url,
    headers: {
      host,
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    payload: JSON.stringify(payload),
  });
}

function upload(
  token: string | undefined,
  file: { name: string; type: string; bytes: Buffer; field?: string },
): Promise<LightMyRequestResponse> {
  const boundary = '----parcours-test-boundary';
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"\r\n` +
    `Content-Type: ${file.type}\r\n\r\n`;
  return t.app.inject({
    method: 'POST',
    url: '/api/files',
    headers: {
      host: hosts.alpha,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    payload: Buffer.concat([Buffer.from(head), file.bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
  });
}

const codeOf = (res: LightMyRequestResponse) => (res.json() as ErrorDoc).errors[0]?.code;
const titles = (doc: ListDoc) => doc.data.map((r) => r.attributes.title);

beforeAll(async () => {
  t = await startTestApp();
  const db = t.tdb.db;
  const user = (id: string, email: string, firstname: string, lastname: string) => ({
    id,
    contextId: ids.ctxA,
    email,
    firstname,
    lastname,
    username: null,
    birthday: null,
    avatarId: null,
    passwordHash: null,
    tincanIdentifier: null,
    preferredLocale: null,
    oidcSubject: null,
    tokensValidAfter: null,
    legal: '{}',
    createdAt: T0,
    updatedAt: T0,
  });
  // Same password as the fixtures' users: copy the hash.
  const hash = (
    await db
      .selectFrom('users')
      .select('passwordHash')
      .where('id', '=', ids.teacher)
      .executeTakeFirstOrThrow()
  ).passwordHash;
  await db
    .insertInto('users')
    .values({ ...user(TEACHER_B, 'otto@example.test', 'Otto', 'Other'), passwordHash: hash })
    .execute();
  await db
    .insertInto('classUsers')
    .values({ id: 'cu-teacher-b', classId: ids.classB, userId: TEACHER_B, role: 'TEACHER', createdAt: T0 })
    .execute();
  const note = (
    id: string,
    contextId: string,
    studentId: string,
    userId: string,
    createdAt: string,
    classId: string | null = null,
  ) => ({
    id,
    contextId,
    title: `note ${id}`,
    message: `message of ${id}`,
    studentId,
    userId,
    classId,
    parentId: null,
    companyId: null,
    attachmentIds: '[]',
    createdAt,
    lastInputAt: createdAt,
  });
  await db
    .insertInto('logBookRecords')
    .values([
      note('n-a-old', ids.ctxA, ids.learnerA, ids.learnerA, '2026-01-10T08:00:00.000Z'),
      note('n-a-teacher', ids.ctxA, ids.learnerA, ids.teacher, '2026-01-12T08:00:00.000Z', ids.classCurrent),
      note('n-a-mid', ids.ctxA, ids.learnerA, ids.learnerA, '2026-01-11T08:00:00.000Z'),
      note('n-b', ids.ctxA, ids.learnerB, ids.learnerB, '2026-01-13T08:00:00.000Z'),
      note('n-beta', ids.ctxB, ids.betaUser, ids.betaUser, '2026-01-13T08:00:00.000Z', ids.classBeta),
    ])
    .execute();
  [anna, bob, tess, otto] = await Promise.all([
    login(t.app, 'anna@example.test'),
    login(t.app, 'bob@example.test'),
    login(t.app, 'teacher@example.test'),
    login(t.app, 'otto@example.test'),
  ]);
});
afterAll(async () => {
  await t.close();
});

describe('GET log-book-records', () => {
  it('lists only the notes about the learner, newest first, by default and with filter[studentId]=me', async () => {
    for (const url of [
      '/api/log-book-records',
      '/api/log-book-records?filter[studentId]=me',
      `/api/log-book-records?filter[studentId]=${ids.learnerA}&sort=-createdAt`,
    ]) {
      const res = await get(t.app, url, anna);
      expect(res.statusCode).toBe(200);
      const doc = res.json() as ListDoc;
      expect(titles(doc).slice(0, 3)).toEqual(['note n-a-teacher', 'note n-a-mid', 'note n-a-old']);
      expect(titles(doc)).not.toContain('note n-b');
      expect(doc.data.every((r) => r.attributes.studentId === ids.learnerA)).toBe(true);
    }
    const oldest = (await get(t.app, '/api/log-book-records?sort=createdAt', anna)).json() as ListDoc;
    expect(titles(oldest)[0]).toBe('note n-a-old');
  });

  it('serialises SPEC §3 LogBookRecord without an attribute named type or id', async () => {
    const doc = (await get(t.app, '/api/log-book-records?page[size]=1', anna)).json() as ListDoc;
    expect(doc.meta.total).toBeGreaterThanOrEqual(3);
    expect(doc.data).toHaveLength(1);
    expect(doc.data[0]).toMatchObject({
      type: 'log-book-records',
      id: 'n-a-teacher',
      attributes: {
        title: 'note n-a-teacher',
        message: 'message of n-a-teacher',
        studentId: ids.learnerA,
        userId: ids.teacher,
        classId: ids.classCurrent,
        companyId: null,
        parentId: null,
        attachmentIds: [],
        createdAt: '2026-01-12T08:00:00.000Z',
        lastInputAt: '2026-01-12T08:00:00.000Z',
      },
    });
    expect(Object.keys(doc.data[0]!.attributes)).not.toContain('type');
    expect(Object.keys(doc.data[0]!.attributes)).not.toContain('id');
  });

  it('populates the author as a users resource with public fields only (populate=user or include=user)', async () => {
    for (const q of ['populate=user', 'include=user']) {
      const doc = (await get(t.app, `/api/log-book-records?${q}`, anna)).json() as ListDoc;
      const teacherNote = doc.data.find((r) => r.id === 'n-a-teacher');
      expect(teacherNote?.relationships?.user).toEqual({ data: { type: 'users', id: ids.teacher } });
      const author = doc.included?.find((r) => r.type === 'users' && r.id === ids.teacher);
      expect(author?.attributes).toEqual({ displayName: 'Tess Teacher', avatarId: null });
    }
    const bad = await get(t.app, '/api/log-book-records?populate=password', anna);
    expect(bad.statusCode).toBe(400);
    expect(codeOf(bad)).toBe('VALIDATION_ERROR');
  });

  it("refuses another learner's logbook (403) and a user of another tenant (404)", async () => {
    const other = await get(t.app, `/api/log-book-records?filter[studentId]=${ids.learnerB}`, anna);
    expect(other.statusCode).toBe(403);
    expect(codeOf(other)).toBe('Forbidden');
    const mixed = await get(
      t.app,
      `/api/log-book-records?filter[studentId]=${ids.learnerA},${ids.learnerB}`,
      anna,
    );
    expect(mixed.statusCode).toBe(403);
    const beta = await get(t.app, `/api/log-book-records?filter[studentId]=${ids.betaUser}`, anna);
    expect(beta.statusCode).toBe(404);
    expect(codeOf(beta)).toBe('MODEL_NOT_FOUND');
  });

  it('lets a teacher read the notes filed under their class about its students, not the rest', async () => {
    const res = await get(t.app, `/api/log-book-records?filter[studentId]=${ids.learnerA}`, tess);
    expect(res.statusCode).toBe(200);
    const doc = res.json() as ListDoc;
    expect(titles(doc)).toContain('note n-a-teacher');
    // The learner's own notes outside any class stay between the learner and their author.
    expect(titles(doc)).not.toContain('note n-a-old');
    expect(
      (await get(t.app, `/api/log-book-records?filter[studentId]=${ids.learnerB}`, tess)).statusCode,
    ).toBe(403);
    expect(
      (await get(t.app, `/api/log-book-records?filter[studentId]=${ids.learnerA}`, otto)).statusCode,
    ).toBe(403);
  });

  it('filters by companyId and refuses unknown parameters', async () => {
    const none = (
      await get(t.app, '/api/log-book-records?filter[companyId]=co-none', anna)
    ).json() as ListDoc;
    expect(none.data).toEqual([]);
    for (const q of ['sort=title', 'filter[userId]=x', 'page[size]=1000']) {
      const res = await get(t.app, `/api/log-book-records?${q}`, anna);
      expect(res.statusCode).toBe(400);
      expect(codeOf(res)).toBe('VALIDATION_ERROR');
    }
  });

  it('needs a signed-in user (401)', async () => {
    const res = await get(t.app, '/api/log-book-records');
    expect(res.statusCode).toBe(401);
    expect(codeOf(res)).toBe('UNAUTHORIZED');
  });
});

describe('POST log-book-records', () => {
  it('creates a note about oneself, which then comes first in the list', async () => {
    const res = await send('POST', '/api/log-book-records', anna, {
      title: '  Premier jour ',
      message: 'Accueil.\nVisite.',
    });
    expect(res.statusCode).toBe(201);
    const doc = res.json() as Doc;
    expect(doc.data.attributes).toMatchObject({
      title: 'Premier jour',
      message: 'Accueil.\nVisite.',
      studentId: ids.learnerA,
      userId: ids.learnerA,
      classId: null,
      attachmentIds: [],
    });
    expect(doc.data.attributes.lastInputAt).toBe(doc.data.attributes.createdAt);
    expect(doc.included?.find((r) => r.type === 'users')?.attributes.displayName).toBe('Anna Martin');
    const list = (await get(t.app, '/api/log-book-records', anna)).json() as ListDoc;
    expect(list.data[0]?.id).toBe(doc.data.id);
  });

  it('lets a teacher add a note about a student of their class, with its company', async () => {
    await t.tdb.db
      .updateTable('classes')
      .set({ companyId: ids.company })
      .where('id', '=', ids.classCurrent)
      .execute();
    const res = await send('POST', '/api/log-book-records', tess, {
      title: 'Bon début',
      studentId: ids.learnerA,
      classId: ids.classCurrent,
    });
    expect(res.statusCode).toBe(201);
    const created = (res.json() as Doc).data;
    expect(created.attributes).toMatchObject({
      studentId: ids.learnerA,
      userId: ids.teacher,
      classId: ids.classCurrent,
      companyId: ids.company,
    });
    // The learner sees it, authored by the teacher; the company filter finds it.
    const mine = (
      await get(t.app, `/api/log-book-records?filter[companyId]=${ids.company}&populate=user`, anna)
    ).json() as ListDoc;
    expect(mine.data.map((r) => r.id)).toEqual([created.id]);
    expect(mine.included?.[0]?.attributes.displayName).toBe('Tess Teacher');
  });

  it('refuses a note about someone who is not a student of a class the author teaches', async () => {
    const cases: [string, unknown, number, string][] = [
      [
        'teacher of another class',
        { title: 'x', studentId: ids.learnerA, classId: ids.classCurrent },
        403,
        'Forbidden',
      ],
      [
        'a class where the student is not',
        { title: 'x', studentId: ids.learnerA, classId: ids.classB },
        403,
        'Forbidden',
      ],
    ];
    for (const [, body, status, code] of cases) {
      const res = await send('POST', '/api/log-book-records', otto, body);
      expect(res.statusCode).toBe(status);
      expect(codeOf(res)).toBe(code);
    }
    const learnerAboutLearner = await send('POST', '/api/log-book-records', anna, {
      title: 'x',
      studentId: ids.learnerB,
      classId: ids.classCurrent,
    });
    expect(learnerAboutLearner.statusCode).toBe(403);
    const noClass = await send('POST', '/api/log-book-records', tess, {
      title: 'x',
      studentId: ids.learnerA,
    });
    expect(noClass.statusCode).toBe(400);
    expect((noClass.json() as ErrorDoc).errors[0]?.source?.pointer).toBe('/classId');
    const otherTenant = await send('POST', '/api/log-book-records', tess, {
      title: 'x',
      studentId: ids.betaUser,
      classId: ids.classBeta,
    });
    expect(otherTenant.statusCode).toBe(404);
    const foreignClass = await send('POST', '/api/log-book-records', anna, {
      title: 'x',
      classId: ids.classB,
    });
    expect(foreignClass.statusCode).toBe(403);
    // None of them was written.
    const count = await t.tdb.db
      .selectFrom('logBookRecords')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('title', '=', 'x')
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it.each<[string, unknown, string]>([
    ['no title', { message: 'm' }, LOGBOOK_MESSAGE_KEYS.titleRequired],
    ['a blank title', { title: '  ' }, LOGBOOK_MESSAGE_KEYS.titleRequired],
    ['a title too long', { title: 'x'.repeat(201) }, LOGBOOK_MESSAGE_KEYS.titleLength],
    [
      'a message too long',
      { title: 't', message: 'm'.repeat(LOGBOOK_MESSAGE_MAX + 1) },
      LOGBOOK_MESSAGE_KEYS.messageLength,
    ],
    [
      'attachment ids that are not a list',
      { title: 't', attachmentIds: 'f' },
      LOGBOOK_MESSAGE_KEYS.attachmentId,
    ],
    [
      'an unknown attachment',
      { title: 't', attachmentIds: ['no-such-file'] },
      LOGBOOK_MESSAGE_KEYS.attachmentId,
    ],
    [
      'a file of the tenant not uploaded by the author',
      { title: 't', attachmentIds: [ids.fileLogo] },
      LOGBOOK_MESSAGE_KEYS.attachmentId,
    ],
  ])('answers 400 with a field message for %s', async (_name, body, key) => {
    const res = await send('POST', '/api/log-book-records', anna, body);
    expect(res.statusCode).toBe(400);
    const error = (res.json() as ErrorDoc).errors[0];
    expect(error?.code).toBe('VALIDATION_ERROR');
    expect(error?.detail).toBe(key);
  });

  it('answers a note of the same student (parentId), and refuses a parent about someone else (404)', async () => {
    const reply = await send('POST', '/api/log-book-records', anna, {
      title: 'Réponse',
      parentId: 'n-a-teacher',
    });
    expect(reply.statusCode).toBe(201);
    expect((reply.json() as Doc).data.attributes.parentId).toBe('n-a-teacher');
    for (const parentId of ['n-b', 'n-beta', 'nope']) {
      const res = await send('POST', '/api/log-book-records', anna, { title: 'Réponse', parentId });
      expect(res.statusCode).toBe(404);
      expect(codeOf(res)).toBe('MODEL_NOT_FOUND');
    }
  });

  it('answers 400, not 500, to a body that is not JSON, and 401 without a token', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/log-book-records',
      payload: '{"title":',
      headers: { host: hosts.alpha, authorization: `Bearer ${anna}`, 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect((await send('POST', '/api/log-book-records', undefined, { title: 't' })).statusCode).toBe(401);
  });
});

describe('PATCH log-book-records/{id}', () => {
  it('lets the author edit title, message and attachments, and moves lastInputAt', async () => {
    const res = await send('PATCH', '/api/log-book-records/n-a-old', anna, {
      title: 'Revu',
      message: 'Nouveau texte',
    });
    expect(res.statusCode).toBe(200);
    const attrs = (res.json() as Doc).data.attributes;
    expect(attrs).toMatchObject({
      title: 'Revu',
      message: 'Nouveau texte',
      createdAt: '2026-01-10T08:00:00.000Z',
    });
    expect(String(attrs.lastInputAt) > '2026-01-10T08:00:00.000Z').toBe(true);
    const row = await t.tdb.db
      .selectFrom('logBookRecords')
      .selectAll()
      .where('id', '=', 'n-a-old')
      .executeTakeFirstOrThrow();
    expect(row.title).toBe('Revu');
    expect(row.lastInputAt).toBe(attrs.lastInputAt);
  });

  it("refuses editing another's note (403), even one about oneself, and another tenant's (404)", async () => {
    const teacherNote = await send('PATCH', '/api/log-book-records/n-a-teacher', anna, { title: 'Hacked' });
    expect(teacherNote.statusCode).toBe(403);
    expect(codeOf(teacherNote)).toBe('Forbidden');
    expect((await send('PATCH', '/api/log-book-records/n-a-mid', bob, { title: 'Hacked' })).statusCode).toBe(
      403,
    );
    expect((await send('PATCH', '/api/log-book-records/n-a-mid', tess, { title: 'Hacked' })).statusCode).toBe(
      403,
    );
    const beta = await send('PATCH', '/api/log-book-records/n-beta', anna, { title: 'Hacked' });
    expect(beta.statusCode).toBe(404);
    expect(codeOf(beta)).toBe('MODEL_NOT_FOUND');
    expect((await send('PATCH', '/api/log-book-records/nope', anna, { title: 'x' })).statusCode).toBe(404);
    expect((await send('PATCH', '/api/log-book-records/n-a-mid', undefined, { title: 'x' })).statusCode).toBe(
      401,
    );
    const titlesNow = await t.tdb.db
      .selectFrom('logBookRecords')
      .select('title')
      .where('title', '=', 'Hacked')
      .execute();
    expect(titlesNow).toEqual([]);
  });

  it('answers 400 to an empty or invalid change', async () => {
    expect((await send('PATCH', '/api/log-book-records/n-a-mid', anna, {})).statusCode).toBe(400);
    const blank = await send('PATCH', '/api/log-book-records/n-a-mid', anna, { title: '' });
    expect(blank.statusCode).toBe(400);
    expect((blank.json() as ErrorDoc).errors[0]?.detail).toBe(LOGBOOK_MESSAGE_KEYS.titleRequired);
  });
});

describe('attachments: POST /files', () => {
  it('stores a PNG under an unguessable id, owned by the uploader, and a note can list it', async () => {
    const res = await upload(anna, { name: 'photo.png', type: 'image/png', bytes: PNG });
    expect(res.statusCode).toBe(201);
    const file = (res.json() as Doc).data;
    expect(file.type).toBe('files');
    expect(file.id).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(file.attributes).toMatchObject({
      name: 'photo.png',
      mimeType: 'image/png',
      fileType: 'image',
      size: PNG.length,
      ownerId: ids.learnerA,
    });
    expect(Object.keys(file.attributes)).not.toContain('type');
    const row = await t.tdb.db
      .selectFrom('files')
      .selectAll()
      .where('id', '=', file.id)
      .executeTakeFirstOrThrow();
    expect(row.contextId).toBe(ids.ctxA);
    const stored = path.join(t.world.filesDir, row.storagePath);
    expect(existsSync(stored)).toBe(true);
    expect(readFileSync(stored).equals(PNG)).toBe(true);

    const pdf = (
      await upload(anna, { name: 'C:\\Users\\anna\\rapport.pdf', type: 'application/pdf', bytes: PDF })
    ).json() as Doc;
    expect(pdf.data.attributes).toMatchObject({
      name: 'rapport.pdf',
      mimeType: 'application/pdf',
      fileType: 'pdf',
    });

    const note = await send('POST', '/api/log-book-records', anna, {
      title: 'Avec pièces',
      attachmentIds: [file.id, pdf.data.id],
    });
    expect(note.statusCode).toBe(201);
    const noteDoc = note.json() as Doc;
    expect(noteDoc.data.relationships?.attachments).toEqual({
      data: [
        { type: 'files', id: file.id },
        { type: 'files', id: pdf.data.id },
      ],
    });
    const listed = (await get(t.app, '/api/log-book-records?include=attachments', anna)).json() as ListDoc;
    expect(listed.included?.filter((r) => r.type === 'files').map((r) => r.attributes.name)).toEqual([
      'photo.png',
      'rapport.pdf',
    ]);

    // Someone else cannot attach Anna's upload to their own note.
    const stolen = await send('POST', '/api/log-book-records', bob, {
      title: 'Stolen',
      attachmentIds: [file.id],
    });
    expect(stolen.statusCode).toBe(400);
    // Editing keeps attachments already on the note and may drop them.
    const edited = await send('PATCH', `/api/log-book-records/${noteDoc.data.id}`, anna, {
      attachmentIds: [pdf.data.id],
    });
    expect(edited.statusCode).toBe(200);
    expect((edited.json() as Doc).data.attributes.attachmentIds).toEqual([pdf.data.id]);
  });

  it('gives two uploads of the same bytes two different random ids', async () => {
    const a = (await upload(anna, { name: 'a.gif', type: 'image/gif', bytes: GIF })).json() as Doc;
    const b = (await upload(anna, { name: 'a.gif', type: 'image/gif', bytes: GIF })).json() as Doc;
    expect(a.data.id).not.toBe(b.data.id);
    expect(a.data.attributes.mimeType).toBe('image/gif');
  });

  it.each<[string, { name: string; type: string; bytes: Buffer }]>([
    [
      'HTML declared as a PNG (forged type)',
      { name: 'x.png', type: 'image/png', bytes: Buffer.from('<html><script>alert(1)</script>') },
    ],
    ['a PNG declared as a PDF', { name: 'x.pdf', type: 'application/pdf', bytes: PNG }],
    [
      'an SVG',
      {
        name: 'x.svg',
        type: 'image/svg+xml',
        bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      },
    ],
    ['a text file', { name: 'x.txt', type: 'text/plain', bytes: Buffer.from('hello') }],
    ['an empty file', { name: 'x.png', type: 'image/png', bytes: Buffer.alloc(0) }],
  ])('refuses %s with 400 TYPE_ERROR and stores nothing', async (_name, file) => {
    const before = await t.tdb.db.selectFrom('files').select('id').execute();
    const res = await upload(anna, file);
    expect(res.statusCode).toBe(400);
    expect(codeOf(res)).toBe('TYPE_ERROR');
    expect((res.json() as ErrorDoc).errors[0]?.detail).toBe(LOGBOOK_MESSAGE_KEYS.fileType);
    expect(await t.tdb.db.selectFrom('files').select('id').execute()).toHaveLength(before.length);
  });

  it('refuses a file over the size limit with 413 TYPE_ERROR', async () => {
    const big = Buffer.concat([PDF, Buffer.alloc(ATTACHMENT_MAX_BYTES)]);
    const res = await upload(anna, { name: 'big.pdf', type: 'application/pdf', bytes: big });
    expect(res.statusCode).toBe(413);
    expect(codeOf(res)).toBe('TYPE_ERROR');
    expect((res.json() as ErrorDoc).errors[0]?.detail).toBe(LOGBOOK_MESSAGE_KEYS.fileSize);
    // Exactly at the limit is fine.
    const exact = Buffer.concat([PDF, Buffer.alloc(ATTACHMENT_MAX_BYTES - PDF.length)]);
    expect((await upload(anna, { name: 'max.pdf', type: 'application/pdf', bytes: exact })).statusCode).toBe(
      201,
    );
  });

  it('answers 4xx, never 500, to a wrong field, a JSON body, and no token', async () => {
    const wrongField = await upload(anna, { name: 'x.png', type: 'image/png', bytes: PNG, field: 'picture' });
    expect(wrongField.statusCode).toBe(400);
    const json = await send('POST', '/api/files', anna, { file: 'x' });
    expect(json.statusCode).toBe(415);
    const anonymous = await upload(undefined, { name: 'x.png', type: 'image/png', bytes: PNG });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('downloading attachments (the files routes apply the log-book rule)', () => {
  it("serves an upload to its owner and to the teacher of the note's class, by bearer or by the signed URL of a note; not to others", async () => {
    const file = ((await upload(anna, { name: 'classe.png', type: 'image/png', bytes: PNG })).json() as Doc)
      .data.id;
    const note = await send('POST', '/api/log-book-records', anna, {
      title: 'En classe',
      classId: ids.classCurrent,
      attachmentIds: [file],
    });
    expect(note.statusCode).toBe(201);
    const download = `/api/files/${file}/download`;
    for (const [token, status] of [
      [anna, 200],
      [tess, 200],
      [bob, 404],
      [otto, 404],
    ] as const) {
      const res = await get(t.app, download, token);
      expect(res.statusCode, `bearer ${status}`).toBe(status);
      if (status === 200) expect(res.rawPayload.equals(PNG)).toBe(true);
    }
    expect((await get(t.app, download)).statusCode).toBe(401);
    // The note lists the attachment with a URL signed for the reader, usable by an <img>.
    const listed = (await get(t.app, '/api/log-book-records?include=attachments', anna)).json() as ListDoc;
    const url = String(listed.included?.find((r) => r.id === file)?.attributes.download);
    expect(url).toMatch(new RegExp(`^${download}\\?.*sig=`));
    const viaUrl = await get(t.app, url);
    expect(viaUrl.statusCode).toBe(200);
    expect(viaUrl.rawPayload.equals(PNG)).toBe(true);
  });
});
