import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flushEmitted } from '../../../src/modules/lrs/emit';
import { PASSWORD, T0, hosts, ids } from '../../helpers/fixtures';
import { login, startTestApp } from '../../helpers/app';
import type { TestContext } from '../../helpers/app';
import { uploadPng } from '../../helpers/uploads';
import { storeClientRecords } from './client-records';
import { filesNaming, placesNaming } from './schema-scan';

/**
 * Issue 36 finding "Erasure leaves learning records that name the learner" (decision 0056): a
 * learner is given data in every place the register lists — her uploads and notes, a teacher's
 * note about her, certificates, reviews, score records, a password-reset link and its mail in
 * the outbox, sign-in counters, launch credentials, a package's launch and runtime, her own
 * statements, statements an LRS client stored with her as actor (by e-mail, by account) or as
 * instructor, with an attachment, State and agent profile documents, the forwarding outbox, a
 * library — then an administrator erases her, and every table of the live schema (SQLite or
 * PostgreSQL) is read back: her e-mail, names, username, xAPI name and agent identifiers are
 * nowhere (base64 columns read decoded), her id only where the register keeps figures under the
 * anonymous account, and no mail of the outbox folder names her.
 */
let t: TestContext;
let dataDir: string;
let admin: string;
let me: string;
let instructed: string;

const ME = ids.learnerA;
const EMAIL = 'zephyrine.quillembois@example.test';
const FIRST = 'Zéphyrine';
const LAST = 'Quillembois';
const USERNAME = 'zquillembois';
const XAPI_NAME = 'zephyrine-xapi-name';
const HOME = 'https://alpha.test';
const MBOX = `mailto:${EMAIL}`;
const SHA1 = createHash('sha1').update(MBOX).digest('hex');
const ACCOUNT = { homePage: HOME, name: ME };
const STRANGER = randomUUID();

/** Her id may stay only in these columns: keys of the anonymous account the figures keep. */
const ID_KEPT = new Set([
  'users.id',
  'users.email',
  'lessons.user_id',
  'class_users.user_id',
  'company_users.user_id',
  'records.user_id',
  'reviews.user_id',
  'home_versions.key',
]);

const json = (method: string, url: string, token: string | null, payload?: unknown) =>
  t.app.inject({
    method: method as 'POST',
    url,
    headers: {
      host: hosts.alpha,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });

async function upload(token: string): Promise<string> {
  const res = await uploadPng(t.app, hosts.alpha, token, `${LAST}.png`);
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { data: { id: string } }).data.id;
}

/** Every place her identifiers appear (`table.column`), her id apart from the kept columns. */
const whereSheIs = () =>
  placesNaming(t.tdb, { needles: [EMAIL, FIRST, LAST, USERNAME, XAPI_NAME, SHA1], id: ME, idKept: ID_KEPT });
const mailsNamingHer = () => filesNaming(path.join(dataDir, 'outbox'), EMAIL);

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'parcours-erase-'));
  t = await startTestApp({ DATA_DIR: dataDir });
  const db = t.tdb.db;
  await db
    .updateTable('users')
    .set({ email: EMAIL, firstname: FIRST, lastname: LAST, username: USERNAME, tincanIdentifier: XAPI_NAME })
    .where('id', '=', ME)
    .execute();
  me = await login(t.app, EMAIL);
  const teacher = await login(t.app, 'teacher@example.test');
  admin = await login(t.app, 'admin@example.test');

  // Her uploads and note; a teacher's note about her.
  const file = await upload(me);
  expect(
    (await json('POST', '/api/log-book-records', me, { title: `${FIRST} writes`, attachmentIds: [file] }))
      .statusCode,
  ).toBe(201);
  await db
    .insertInto('logBookRecords')
    .values({
      id: 'lbr-about-her',
      contextId: ids.ctxA,
      title: `About ${FIRST}`,
      message: `${FIRST} ${LAST} did well`,
      studentId: ME,
      userId: ids.teacher,
      parentId: null,
      classId: ids.classCurrent,
      companyId: null,
      attachmentIds: '[]',
      createdAt: T0,
      lastInputAt: T0,
    })
    .execute();
  void teacher;
  // A certificate (its snapshot names her), a review with a comment, a score record, a library.
  await db
    .insertInto('certificates')
    .values({
      id: 'cert-her',
      contextId: ids.ctxA,
      lessonId: ids.lessonA1,
      userId: ME,
      issuedFor: 'CERT-1',
      snapshot: JSON.stringify({ learner: `${FIRST} ${LAST}` }),
      createdAt: T0,
      revokedAt: null,
    })
    .execute();
  await db
    .insertInto('reviews')
    .values({
      id: 'rev-her',
      contextId: ids.ctxA,
      userId: ME,
      classId: ids.classCurrent,
      resourceType: 'courses',
      resourceId: ids.coursePub,
      ratio: 0.8,
      comment: `${FIRST} liked it`,
      createdAt: T0,
    })
    .execute();
  await db
    .insertInto('records')
    .values({ id: 'rec-her', contextId: ids.ctxA, userId: ME, date: '2026-01-02', scoring: '{}' })
    .execute();
  await db
    .insertInto('libraries')
    .values({ id: 'lib-her', contextId: ids.ctxA, ownerId: ME, ownerType: 'USER', createdAt: T0 })
    .execute();

  // A password-reset link (its mail lands in the outbox folder) and sign-in counters.
  expect((await json('POST', '/api/users/recover', null, { email: EMAIL })).statusCode).toBe(204);
  expect(
    (await json('POST', '/api/users/login', null, { email: USERNAME, password: `${PASSWORD}-wrong` }))
      .statusCode,
  ).toBe(401);

  // Launch credentials, a package launch and its runtime data.
  await db
    .insertInto('xapiCredentials')
    .values({
      key: 'cred-her',
      contextId: ids.ctxA,
      userId: ME,
      lessonId: ids.lessonA1,
      pageId: 'page-x',
      registration: randomUUID(),
      secretHash: 'x'.repeat(64),
      expiresAt: '2099-01-01T00:00:00.000Z',
      createdAt: T0,
    })
    .execute();
  await db
    .insertInto('packageLaunches')
    .values({
      key: 'launch-her',
      contextId: ids.ctxA,
      userId: ME,
      lessonId: ids.lessonA1,
      pageId: 'page-x',
      blockId: 'block-x',
      packageId: 'pkg-x',
      kind: 'scorm12',
      secretHash: 'y'.repeat(64),
      appOrigin: HOME,
      registration: randomUUID(),
      sessionId: randomUUID(),
      fetchHash: null,
      fetchedAt: null,
      xapiKey: null,
      terminatedAt: null,
      finishedAt: null,
      abandonedAt: null,
      createdAt: T0,
      expiresAt: '2099-01-01T00:00:00.000Z',
    })
    .execute();
  await db
    .insertInto('packageRuntime')
    .values({
      pageId: 'page-x',
      contextId: ids.ctxA,
      userId: ME,
      lessonId: ids.lessonA1,
      attempt: 1,
      kind: 'scorm12',
      cmi: JSON.stringify({ 'cmi.core.student_name': `${LAST}, ${FIRST}` }),
      launchKey: 'launch-her',
      createdAt: T0,
      updatedAt: T0,
    })
    .execute();

  // The player's own statement about her (user_id set).
  const own = randomUUID();
  await db
    .insertInto('xapiStatements')
    .values({
      contextId: ids.ctxA,
      id: own,
      userId: ME,
      actorKey: `account:${HOME}|${ME}`,
      verbId: 'http://adlnet.gov/expapi/verbs/experienced',
      activityId: 'http://example.com/a',
      refId: null,
      registration: null,
      voiding: 0,
      voided: 0,
      stored: T0,
      body: JSON.stringify({
        id: own,
        actor: { objectType: 'Agent', name: XAPI_NAME, account: ACCOUNT },
        verb: { id: 'http://adlnet.gov/expapi/verbs/experienced' },
        object: { id: 'http://example.com/a' },
      }),
    })
    .execute();

  // An LRS client stores statements naming her: by e-mail with an attachment, by account, and
  // as the instructor of someone else's statement; State and agent profile documents.
  const stored = await storeClientRecords(t.app, hosts.alpha, admin, {
    name: `${FIRST} ${LAST}`,
    mbox: MBOX,
    account: ACCOUNT,
    sha1: SHA1,
    stranger: STRANGER,
  });
  instructed = stored.instructed;
  // The forwarding outbox holds rows for statements about her (a tenant that forwards).
  await db
    .insertInto('xapiOutbox')
    .values(
      [own, stored.byMail].map((statementId) => ({
        contextId: ids.ctxA,
        statementId,
        attempts: 0,
        nextAttemptAt: T0,
        deliveredAt: null,
        lastError: null,
        createdAt: T0,
      })),
    )
    .execute();
  await flushEmitted(db);
});
afterAll(async () => {
  await t?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('erasure is whole (issue 36, decision 0056)', () => {
  it('before: she is named in every kind of place the test meant to fill', async () => {
    const { named, byId } = await whereSheIs();
    const tables = new Set([...named, ...byId].map((c) => c.split('.')[0]));
    for (const table of [
      'users',
      'files',
      'log_book_records',
      'certificates',
      'reviews',
      'libraries',
      'password_resets',
      'login_attempts',
      'quota_usage',
      'xapi_credentials',
      'package_launches',
      'package_runtime',
      'xapi_statements',
      'xapi_statement_agents',
      'xapi_documents',
      'xapi_attachments',
    ])
      expect(tables, table).toContain(table);
    expect(mailsNamingHer().length).toBeGreaterThan(0);
  });

  it('before: her export holds what any client stored about her — statements, parts, documents', async () => {
    const res = await json('GET', '/api/users/me/data-export', me);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json() as {
      statements: { id: string; actor: unknown }[];
      attachments: { sha2: string; base64: string }[];
      documents: { kind: string; docId: string; json?: unknown; text?: string }[];
      forwarding: { statementId: string }[];
      libraries: { id: string }[];
      signInCounters: { key: string }[];
    };
    // Hers by account, by e-mail and the player's; not another learner's that names her as instructor.
    expect(data.statements).toHaveLength(3);
    expect(data.statements.map((s) => s.id)).not.toContain(instructed);
    expect(data.statements.map((s) => s.id)).not.toContain(STRANGER);
    expect(Buffer.from(data.attachments[0]!.base64, 'base64').toString()).toContain('essay');
    expect(data.documents.map((d) => [d.kind, d.docId]).sort()).toEqual([
      ['agent-profile', 'prefs'],
      ['state', 'bookmark'],
    ]);
    expect(data.documents.find((d) => d.kind === 'state')?.json).toMatchObject({ page: 3 });
    expect(data.forwarding).toHaveLength(2);
    expect(data.libraries.map((l) => l.id)).toEqual(['lib-her']);
    expect(data.signInCounters.length).toBeGreaterThan(0);
    expect(res.body).not.toMatch(/secretHash|tokenHash|passwordHash/);
  });

  it('after: no table names her, her id stays only as the key of the anonymous account', async () => {
    const res = await json('POST', `/api/users/${ME}/erasure`, admin, {});
    expect(res.statusCode, res.body).toBe(204);
    expect(await whereSheIs()).toEqual({ named: [], byId: [] });
    expect(mailsNamingHer()).toEqual([]);
    // Rows about her statements went with them: the activity index and the forwarding outbox.
    expect(await t.tdb.db.selectFrom('xapiOutbox').select('statementId').execute()).toEqual([]);
    // A statement that does not name her stays.
    const left = await t.tdb.db.selectFrom('xapiStatements').select('id').execute();
    expect(left.map((r) => r.id)).toEqual([STRANGER]);
  });
});
