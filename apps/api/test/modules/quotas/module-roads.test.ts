import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { flushEmitted } from '../../../src/modules/lrs/emit';
import { TINCAN_HOST, startTincanWorld } from '../../helpers/tincan';
import type { TincanWorld } from '../../helpers/tincan';
import { uploadPng } from '../../helpers/uploads';
import { png } from './requests';
import type { ErrorDoc } from '../../helpers/app';
import { launchFor, statementOf } from '../lrs/world';
import type { Launched } from '../lrs/world';

/**
 * Issue 36 item 1, findings 1, 2 and (row 10) uploads by count: what a learner's module
 * credentials store as State and agent profile documents, the parts of statement attachments,
 * and the number of uploads are charged to that learner, with the 429 shape of every quota.
 * Limits are configured low so the floods stay small.
 */
const DOCS_PER_MINUTE = 10;
const KiB = 1024;
const MiB = 1024 * KiB;
const MODULE_BYTES = 40 * KiB;
const ATTACHMENT_BYTES = 20 * KiB;
const UPLOADS_PER_DAY = 3;
const LAUNCHES_PER_MINUTE = 6;

let w: TincanWorld;
let mine: Launched;
let theirs: Launched;
let teacherToken: string;

beforeAll(async () => {
  w = await startTincanWorld('quota-module-roads', {
    QUOTA_DOCUMENT_WRITES_PER_MINUTE: String(DOCS_PER_MINUTE),
    QUOTA_MODULE_DATA_MB_PER_DAY: String(MODULE_BYTES / MiB),
    QUOTA_ATTACHMENT_MB_PER_DAY: String(ATTACHMENT_BYTES / MiB),
    QUOTA_UPLOADS_PER_DAY: String(UPLOADS_PER_DAY),
    QUOTA_LAUNCHES_PER_MINUTE: String(LAUNCHES_PER_MINUTE),
  });
  mine = await launchFor(w, w.learnerToken, w.learnerId);
  teacherToken = await w.login('teacher@example.com', 'Teacher#2026');
  theirs = await launchFor(w, teacherToken, w.teacherId);
  await flushEmitted(w.t.db);
});
afterAll(async () => {
  await w?.close();
});

const ACTIVITY = 'http://example.com/modules/fire-triangle';
const errorOf = (res: LightMyRequestResponse) => (res.json() as ErrorDoc).errors[0];
const stateUrl = (l: Launched, stateId: string) =>
  `/api/xapi/activities/state?${new URLSearchParams({
    activityId: ACTIVITY,
    agent: JSON.stringify(l.actor),
    registration: l.registration,
    stateId,
  })}`;
const profileUrl = (l: Launched, profileId: string) =>
  `/api/xapi/agents/profile?${new URLSearchParams({ agent: JSON.stringify(l.actor), profileId })}`;
const put = (l: Launched, url: string, body: string, headers: Record<string, string> = {}) =>
  w.app.inject({
    method: 'PUT',
    url,
    headers: {
      host: TINCAN_HOST,
      authorization: l.auth,
      'x-experience-api-version': '1.0.3',
      'content-type': 'application/octet-stream',
      ...headers,
    },
    payload: body,
  });

function expectRate(res: LightMyRequestResponse, detail: string, within: number) {
  expect(res.statusCode, res.body).toBe(429);
  expect(errorOf(res)).toMatchObject({ status: '429', code: 'TOO_MANY_REQUESTS', detail });
  const retry = Number(res.headers['retry-after']);
  expect(retry).toBeGreaterThan(0);
  expect(retry).toBeLessThanOrEqual(within);
}

describe('State and agent profile documents (issue 36 finding 1)', () => {
  it('are writes per minute of their learner: a flood is refused with 429, and another learner still writes', async () => {
    const flood = await Promise.all(
      Array.from({ length: 2 * DOCS_PER_MINUTE + 5 }, (_, i) => put(mine, stateUrl(mine, `s${i}`), 'x')),
    );
    const ok = flood.filter((r) => r.statusCode === 204).length;
    // The minute may turn during the flood: never more than two minutes' worth.
    expect(ok).toBeGreaterThanOrEqual(1);
    expect(ok).toBeLessThanOrEqual(2 * DOCS_PER_MINUTE);
    for (const r of flood.filter((x) => x.statusCode !== 204)) expectRate(r, 'quota.documentsPerMinute', 60);
    const stored = await w.t.db
      .selectFrom('xapiDocuments')
      .select('docId')
      .where('kind', '=', 'state')
      .where('agentKey', 'like', `%|${w.learnerId}`)
      .execute();
    expect(stored).toHaveLength(ok);
    // The agent profile is the same road; the other learner is not held back.
    const profile = await put(mine, profileUrl(mine, 'p'), 'x', { 'if-none-match': '*' });
    if (ok < 2 * DOCS_PER_MINUTE) expectRate(profile, 'quota.documentsPerMinute', 60);
    expect((await put(theirs, stateUrl(theirs, 'first'), 'x')).statusCode).toBe(204);
  });

  it('are bytes per day of their learner: a document past them is refused with 429 and not kept', async () => {
    const big = 'y'.repeat(15 * KiB);
    const codes: number[] = [];
    for (let i = 0; i < 3; i++) codes.push((await put(theirs, stateUrl(theirs, `big${i}`), big)).statusCode);
    expect(codes).toEqual([204, 204, 429]);
    const refused = await put(theirs, profileUrl(theirs, 'big'), big, { 'if-none-match': '*' });
    expectRate(refused, 'quota.moduleBytesPerDay', 24 * 3600);
    const kept = await w.t.db
      .selectFrom('xapiDocuments')
      .select('docId')
      .where('docId', 'in', ['big2', 'big'])
      .execute();
    expect(kept).toEqual([]);
  });
});

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
function withPart(l: Launched, body: Buffer) {
  const statement = statementOf(l, {
    attachments: [
      {
        usageType: 'http://example.com/usage/notes',
        display: { 'en-US': 'notes' },
        contentType: 'application/octet-stream',
        length: body.length,
        sha2: sha256(body),
      },
    ],
  });
  const boundary = 'b-oundary';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(statement)}`),
    Buffer.from(
      `\r\n--${boundary}\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: binary\r\nX-Experience-API-Hash: ${sha256(body)}\r\n\r\n`,
    ),
    body,
    Buffer.from(`\r\n--${boundary}--`),
  ]);
  return w.app.inject({
    method: 'POST',
    url: '/api/xapi/statements',
    headers: {
      host: TINCAN_HOST,
      authorization: l.auth,
      'x-experience-api-version': '1.0.3',
      'content-type': `multipart/mixed; boundary=${boundary}`,
    },
    payload,
  });
}

describe('statement attachments (issue 36 finding 2)', () => {
  it('are bytes per day of the learner who sent them: past them, 429 and nothing of the request kept', async () => {
    const part = (n: number) => Buffer.alloc(8 * KiB, n);
    const codes: number[] = [];
    for (let i = 1; i <= 3; i++) codes.push((await withPart(mine, part(i))).statusCode);
    expect(codes).toEqual([200, 200, 429]);
    const refused = await withPart(mine, part(9));
    expectRate(refused, 'quota.attachmentBytesPerDay', 24 * 3600);
    const parts = await w.t.db
      .selectFrom('xapiAttachments')
      .select('sha2')
      .where('sha2', 'in', [sha256(part(3)), sha256(part(9))])
      .execute();
    expect(parts).toEqual([]);
    // A part already kept costs nothing again (one copy per tenant), and the other learner sends his.
    expect((await withPart(mine, part(1))).statusCode).toBe(200);
    expect((await withPart(theirs, part(5))).statusCode).toBe(200);
  });
});

const upload = (token: string, n: number) => uploadPng(w.app, TINCAN_HOST, token, 'a.png', png(n));

describe('uploads by count (issue 36 finding 10)', () => {
  it('refuses tiny files past the day’s count with 429, whatever their bytes', async () => {
    const flood = await Promise.all(
      Array.from({ length: UPLOADS_PER_DAY + 4 }, (_, i) => upload(w.learnerToken, i)),
    );
    expect(flood.filter((r) => r.statusCode === 201)).toHaveLength(UPLOADS_PER_DAY);
    for (const r of flood.filter((x) => x.statusCode !== 201))
      expectRate(r, 'quota.uploadsPerDay', 24 * 3600);
    expect((await upload(teacherToken, 1)).statusCode).toBe(201);
  });
});

describe('module launches (issue 36: a credentials row per call)', () => {
  it('are counted per learner and minute: past them, 429 and no credentials made', async () => {
    const page = await w.t.db
      .selectFrom('lessonPages')
      .select('launchToken')
      .where('id', '=', mine.pageId)
      .executeTakeFirstOrThrow();
    const again = () =>
      w.app.inject({
        method: 'POST',
        url: '/api/xapi/launches',
        headers: { host: TINCAN_HOST, authorization: `Bearer ${w.learnerToken}` },
        payload: { lessonId: mine.lessonId, pageId: mine.pageId, launch: page.launchToken },
      });
    const before = await w.t.db.selectFrom('xapiCredentials').select('key').execute();
    const flood = await Promise.all(Array.from({ length: 2 * LAUNCHES_PER_MINUTE + 3 }, again));
    const ok = flood.filter((r) => r.statusCode === 201).length;
    expect(ok).toBeLessThanOrEqual(2 * LAUNCHES_PER_MINUTE);
    for (const r of flood.filter((x) => x.statusCode !== 201)) expectRate(r, 'quota.launchesPerMinute', 60);
    const after = await w.t.db.selectFrom('xapiCredentials').select('key').execute();
    expect(after.length - before.length).toBe(ok);
  });
});
