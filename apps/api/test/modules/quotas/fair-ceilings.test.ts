import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { registerAuth } from '../../../src/plugins/auth';
import { JWT_SECRET } from '../../helpers/app';
import { opsFigures } from '../../../src/lib/ops-figures';
import { flushEmitted } from '../../../src/modules/lrs/emit';
import { TINCAN_HOST, startTincanWorld } from '../../helpers/tincan';
import type { TincanWorld } from '../../helpers/tincan';
import { launchFor, statementOf } from '../lrs/world';
import { uploadPng } from '../../helpers/uploads';
import { png } from './requests';
import type { Launched } from '../lrs/world';

/**
 * Issue 36 item 2, finding 9: tenant-wide ceilings let a few accounts lock everyone out (250
 * self-registered accounts blocked every learner's uploads and notes for the day, 100 blocked
 * module statements). Now each account is held to its own limits, and the tenant's figures
 * alarm the operator (metric, warn log) instead of refusing everybody. 250 accounts write flat
 * out — past their own limits, far past the tenant's figures — and an ordinary learner's upload,
 * note and module statement are still accepted. The accounts are made in the database (no
 * password hash, tokens signed directly) so that the flood is the only cost.
 */
const ACCOUNTS = 250;
const KiB = 1024;
const MiB = 1024 * KiB;

let w: TincanWorld;
let mine: Launched;
const alarms: string[] = [];
const saved = opsFigures.onTenantAlarm;

beforeAll(async () => {
  w = await startTincanWorld('quota-fair', {
    QUOTA_NOTES_PER_DAY: '1',
    QUOTA_TENANT_NOTES_PER_DAY: '50',
    QUOTA_UPLOADS_PER_DAY: '1',
    QUOTA_TENANT_UPLOAD_MB_PER_DAY: String((10 * KiB) / MiB),
    // The learner's walk to her module page records 5 statements of its own in the minute.
    QUOTA_STATEMENTS_PER_MINUTE: '10',
    QUOTA_TENANT_STATEMENTS_PER_MINUTE: '100',
  });
  mine = await launchFor(w, w.learnerToken, w.learnerId);
  await flushEmitted(w.t.db);
  opsFigures.onTenantAlarm = (road) => alarms.push(road);
});
afterAll(async () => {
  opsFigures.onTenantAlarm = saved;
  await w?.close();
});

interface Account {
  id: string;
  token: string;
  auth: string;
  actor: Launched['actor'];
}

/** `n` learners of the tenant, each with a token and module credentials on the learner's page. */
async function accounts(n: number): Promise<Account[]> {
  const iso = new Date().toISOString();
  const expiresAt = new Date(Date.now() + 3600_000).toISOString();
  const made = Array.from({ length: n }, (_, i) => ({
    id: randomUUID(),
    key: randomBytes(16).toString('hex'),
    secret: randomBytes(24).toString('base64url'),
    i,
  }));
  await w.t.db
    .insertInto('users')
    .values(
      made.map((a) => ({
        id: a.id,
        contextId: w.contextId,
        username: `flood-${a.i}`,
        email: `flood-${a.i}@example.com`,
        firstname: null,
        lastname: null,
        avatarId: null,
        birthday: null,
        passwordHash: null,
        isFromInvitationCode: 1,
        tincanIdentifier: null,
        preferredLocale: null,
        oidcSubject: null,
        tokensValidAfter: null,
        createdAt: iso,
        updatedAt: iso,
      })),
    )
    .execute();
  await w.t.db
    .insertInto('xapiCredentials')
    .values(
      made.map((a) => ({
        key: a.key,
        contextId: w.contextId,
        userId: a.id,
        lessonId: mine.lessonId,
        pageId: mine.pageId,
        registration: mine.registration,
        secretHash: createHash('sha256').update(a.secret).digest('hex'),
        expiresAt,
        createdAt: iso,
      })),
    )
    .execute();
  // The app's signer, made apart from the app (its auth lives in the /api scope): no sign-in per account.
  const anyApp = new Proxy({}, { get: () => () => undefined }) as unknown as FastifyInstance;
  const auth = registerAuth(anyApp, { db: w.t.db, secret: JWT_SECRET, sessionMaxS: 12 * 3600 });
  return Promise.all(
    made.map(async (a) => ({
      id: a.id,
      token: await auth.sign(a.id, w.contextId),
      auth: `Basic ${Buffer.from(`${a.key}:${a.secret}`).toString('base64')}`,
      actor: { ...mine.actor, name: undefined, account: { ...mine.actor.account, name: a.id } },
    })),
  );
}

const upload = (token: string, n: number) => uploadPng(w.app, TINCAN_HOST, token, 'a.png', png(n));
const note = (token: string, title: string) =>
  w.app.inject({
    method: 'POST',
    url: '/api/log-book-records',
    headers: { host: TINCAN_HOST, 'content-type': 'application/json', authorization: `Bearer ${token}` },
    payload: JSON.stringify({ title, message: '', attachmentIds: [] }),
  });
/** One request of `count` statements (a batch counts each). */
const statement = (auth: string, actor: Launched['actor'], count = 1) =>
  w.app.inject({
    method: 'POST',
    url: '/api/xapi/statements',
    headers: { host: TINCAN_HOST, authorization: auth, 'x-experience-api-version': '1.0.3' },
    payload: Array.from({ length: count }, () => statementOf(mine, { actor })),
  });

describe('fair ceilings (issue 36 finding 9)', () => {
  it('250 accounts writing flat out stop nobody else: a learner’s upload, note and module statement pass', async () => {
    const flood = await accounts(ACCOUNTS);
    const codes = {
      notes: new Map<number, number>(),
      uploads: new Map<number, number>(),
      statements: new Map<number, number>(),
    };
    const tally = (m: Map<number, number>, rs: LightMyRequestResponse[]) => {
      for (const r of rs) m.set(r.statusCode, (m.get(r.statusCode) ?? 0) + 1);
    };
    // In waves of 25 accounts, each at once: two notes (one past its own limit), its day's upload
    // and a minute's worth of statements.
    for (let i = 0; i < flood.length; i += 25) {
      const wave = flood.slice(i, i + 25);
      const rs = await Promise.all(
        wave.flatMap((a, j) => [
          note(a.token, 'a'),
          note(a.token, 'b'),
          upload(a.token, i + j),
          statement(a.auth, a.actor, 10),
        ]),
      );
      tally(
        codes.notes,
        rs.filter((_, k) => k % 4 < 2),
      );
      tally(
        codes.uploads,
        rs.filter((_, k) => k % 4 === 2),
      );
      tally(
        codes.statements,
        rs.filter((_, k) => k % 4 === 3),
      );
    }
    // Each account had its own share, and no more: one note, one upload a day; statements by the minute.
    expect(codes.notes.get(201)).toBe(ACCOUNTS);
    expect(codes.notes.get(429)).toBe(ACCOUNTS);
    expect(codes.uploads.get(201)).toBe(ACCOUNTS);
    // A minute's worth each: 2 500 statements, 25 times the tenant's figure of a minute.
    expect(codes.statements.get(200)).toBe(ACCOUNTS);
    // The tenant is far past every figure: the operator is told (once per road and period).
    expect(alarms).toEqual(expect.arrayContaining(['notes', 'uploads', 'statements']));

    // The ordinary learner still writes.
    const up = await upload(w.learnerToken, 7);
    expect(up.statusCode, up.body).toBe(201);
    const n = await note(w.learnerToken, 'my note');
    expect(n.statusCode, n.body).toBe(201);
    const s = await statement(mine.auth, mine.actor);
    expect(s.statusCode, s.body).toBe(200);
    // Well under 20 s (SQLite 1–4 s, PostgreSQL ~8 s on the shared 2-core machine); the margin is for a
    // loaded one.
  }, 60_000);
});
