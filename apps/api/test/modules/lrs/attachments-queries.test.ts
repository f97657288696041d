import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompactSign, generateKeyPair } from 'jose';
import { flushEmitted } from '../../../src/modules/lrs/emit';
import { parseMultipartMixed } from '../../../src/modules/lrs/attachments';
import { TINCAN_HOST, startTincanWorld } from '../../helpers/tincan';
import type { TincanWorld } from '../../helpers/tincan';
import { launchFor, xapi } from './world';
import type { Launched } from './world';

/**
 * Attachments (multipart/mixed, SHA-2), signed statements (xAPI-Data.md §2.4.11, §2.6), and the
 * query filters `related_agents`, `related_activities` and StatementRef propagation
 * (xAPI-Communication.md §2.1.3), through an `all` client (issue 28).
 */
let w: TincanWorld;
let all: Launched;

beforeAll(async () => {
  w = await startTincanWorld('lrs-attachments');
  const mine = await launchFor(w, w.learnerToken, w.learnerId);
  await flushEmitted(w.t.db);
  const admin = await w.login('admin@example.com', 'Admin#2026');
  const res = await w.app.inject({
    method: 'POST',
    url: '/api/xapi/clients',
    headers: { host: TINCAN_HOST, authorization: `Bearer ${admin}` },
    payload: { name: 'all', scopes: ['all'] },
  });
  const c = res.json() as { key: string; secret: string };
  all = { ...mine, auth: `Basic ${Buffer.from(`${c.key}:${c.secret}`).toString('base64')}` };
});
afterAll(async () => {
  await w?.close();
});

const someone = () => ({ objectType: 'Agent', mbox: `mailto:${randomUUID()}@example.com` });
const base = (extra: Record<string, unknown> = {}) => ({
  id: randomUUID(),
  actor: someone(),
  verb: { id: 'http://adlnet.gov/expapi/verbs/experienced' },
  object: { objectType: 'Activity', id: `http://example.com/a/${randomUUID()}` },
  ...extra,
});
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

function multipart(
  statements: unknown,
  parts: { type: string; body: Buffer; hash?: string; cte?: string }[],
) {
  const boundary = 'b-oundary';
  const chunks: Buffer[] = [
    Buffer.from(`--${boundary}\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(statements)}`),
  ];
  for (const p of parts) {
    chunks.push(
      Buffer.from(
        `\r\n--${boundary}\r\nContent-Type: ${p.type}\r\nContent-Transfer-Encoding: ${p.cte ?? 'binary'}\r\nX-Experience-API-Hash: ${p.hash ?? sha256(p.body)}\r\n\r\n`,
      ),
      p.body,
    );
  }
  chunks.push(Buffer.from(`\r\n--${boundary}--`));
  return { body: Buffer.concat(chunks), type: `multipart/mixed; boundary=${boundary}` };
}
const post = (m: { body: Buffer; type: string }) =>
  w.app.inject({
    method: 'POST',
    url: '/api/xapi/statements',
    headers: {
      host: TINCAN_HOST,
      authorization: all.auth,
      'x-experience-api-version': '1.0.3',
      'content-type': m.type,
    },
    payload: m.body,
  });
const attachmentOf = (body: Buffer, extra: Record<string, unknown> = {}) => ({
  usageType: 'http://example.com/usage/notes',
  display: { en: 'notes' },
  contentType: 'text/plain',
  length: body.length,
  sha2: sha256(body),
  ...extra,
});

describe('attachments (multipart/mixed)', () => {
  it('stores a part matched by its SHA-2 and serves it back with attachments=true', async () => {
    const body = Buffer.from('the learner’s notes');
    const s = base({ attachments: [attachmentOf(body)] });
    const res = await post(multipart(s, [{ type: 'text/plain', body }]));
    expect(res.statusCode, res.body).toBe(200);
    const got = await xapi(w, all, { query: { statementId: s.id, attachments: 'true' } });
    expect(got.headers['content-type']).toMatch(/^multipart\/mixed; boundary=/);
    const parts = parseMultipartMixed(String(got.headers['content-type']), got.rawPayload);
    expect((JSON.parse(parts[0]!.body.toString()) as { id: string }).id).toBe(s.id);
    expect(parts[1]?.headers['x-experience-api-hash']).toBe(sha256(body));
    expect(parts[1]?.body.toString()).toBe('the learner’s notes');
  });

  it('refuses a missing part, a part no attachment names, a wrong hash, a non-binary part (400)', async () => {
    const body = Buffer.from('x');
    const s = () => base({ attachments: [attachmentOf(body)] });
    expect((await xapi(w, all, { method: 'POST', payload: s() })).statusCode).toBe(400);
    expect((await post(multipart(base(), [{ type: 'text/plain', body }]))).statusCode).toBe(400);
    expect((await post(multipart(s(), [{ type: 'text/plain', body, hash: sha256('y') }]))).statusCode).toBe(
      400,
    );
    expect((await post(multipart(s(), [{ type: 'text/plain', body, cte: 'base64' }]))).statusCode).toBe(400);
    // A fileUrl stands for the part.
    const byUrl = base({ attachments: [attachmentOf(body, { fileUrl: 'http://example.com/notes.txt' })] });
    expect((await xapi(w, all, { method: 'POST', payload: byUrl })).statusCode).toBe(200);
  });
});

describe('signed statements (§2.6)', () => {
  const signed = async (statement: Record<string, unknown>, alg = 'RS256', payload?: unknown) => {
    const { privateKey } = await generateKeyPair(alg, { modulusLength: 2048 });
    const jws = await new CompactSign(Buffer.from(JSON.stringify(payload ?? statement)))
      .setProtectedHeader({ alg })
      .sign(privateKey);
    const sig = Buffer.from(jws);
    const withSig = {
      ...statement,
      attachments: [
        attachmentOf(sig, {
          usageType: 'http://adlnet.gov/expapi/attachments/signature',
          contentType: 'application/octet-stream',
        }),
      ],
    };
    return multipart(withSig, [{ type: 'application/octet-stream', body: sig }]);
  };

  it('accepts a statement signed with RS256 over itself', async () => {
    const res = await post(await signed(base()));
    expect(res.statusCode, res.body).toBe(200);
  });

  it('refuses another algorithm and a signature over another statement (400)', async () => {
    expect((await post(await signed(base(), 'ES256'))).statusCode).toBe(400);
    const s = base();
    expect(
      (await post(await signed(s, 'RS256', { ...s, verb: { id: 'http://example.com/other' } }))).statusCode,
    ).toBe(400);
  });
});

describe('query filters (§2.1.3)', () => {
  const ids = async (query: Record<string, string>) =>
    ((await xapi(w, all, { query })).json() as { statements: { id: string }[] }).statements.map((s) => s.id);

  it('related_agents widens agent to the instructor; related_activities widens activity to context activities', async () => {
    const teacher = someone();
    const course = `http://example.com/course/${randomUUID()}`;
    const s = base({
      context: { instructor: teacher, contextActivities: { parent: [{ id: course }] } },
    });
    expect((await xapi(w, all, { method: 'POST', payload: s })).statusCode).toBe(200);
    expect(await ids({ agent: JSON.stringify(teacher) })).toEqual([]);
    expect(await ids({ agent: JSON.stringify(teacher), related_agents: 'true' })).toEqual([s.id]);
    expect(await ids({ activity: course })).toEqual([]);
    expect(await ids({ activity: course, related_activities: 'true' })).toEqual([s.id]);
    // The agent filter matches an Agent object too.
    const about = base({ object: teacher });
    expect((await xapi(w, all, { method: 'POST', payload: about })).statusCode).toBe(200);
    expect(await ids({ agent: JSON.stringify(teacher) })).toEqual([about.id]);
  });

  it('returns statements that refer to a matching one, and the voiding statement of a voided one', async () => {
    const verb = `http://example.com/verbs/${randomUUID()}`;
    const target = base({ verb: { id: verb } });
    const ref = base({ object: { objectType: 'StatementRef', id: target.id } });
    const refOfRef = base({ object: { objectType: 'StatementRef', id: ref.id } });
    const voiding = base({
      verb: { id: 'http://adlnet.gov/expapi/verbs/voided' },
      object: { objectType: 'StatementRef', id: target.id },
    });
    for (const s of [target, ref, refOfRef, voiding])
      expect((await xapi(w, all, { method: 'POST', payload: s })).statusCode).toBe(200);
    expect((await ids({ verb })).sort()).toEqual([ref.id, refOfRef.id, voiding.id].sort());
  });
});
