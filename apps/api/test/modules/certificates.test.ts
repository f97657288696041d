import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ids, hosts } from '../helpers/fixtures';
import { get, login, startTestApp } from '../helpers/app';
import type { ErrorDoc, TestContext } from '../helpers/app';
import { loadProgramContexts } from '../../src/modules/progression/rules';
import { award, cert, seedCertificates } from './certificates-seed';

let t: TestContext;
let anna: string;
let bob: string;
let beta: string;
beforeAll(async () => {
  t = await startTestApp();
  // Before the first request: the tenant plugin caches the context row.
  await seedCertificates(t.tdb.db);
  anna = await login(t.app, 'anna@example.test');
  bob = await login(t.app, 'bob@example.test');
  beta = await login(t.app, 'anna@example.test', hosts.beta);
});
afterAll(async () => {
  await t.close();
});

interface Item {
  id: string;
  type: string;
  attributes: Record<string, unknown> & { certificateUrl: string | null; score: number; wording: string };
}

describe('GET /api/certification-items', () => {
  it("lists only the learner's own certifying lessons, with the rules applied", async () => {
    const res = await get(t.app, '/api/certification-items', anna);
    expect(res.statusCode).toBe(200);
    const items = (res.json() as { data: Item[] }).data;
    const byId = new Map(items.map((i) => [i.id, i]));
    // lessonA1 carries a reference; the four seeded lessons are of certifying courses.
    expect([...byId.keys()].sort()).toEqual(
      [cert.below, cert.byType, cert.ended, cert.ongoing, ids.lessonA1].sort(),
    );
    expect(byId.has(cert.bobEnded)).toBe(false);
    for (const item of items) {
      expect(item.type).toBe('certification-items');
      expect(item.attributes).not.toHaveProperty('type');
      expect(item.attributes).not.toHaveProperty('id');
    }
    expect(byId.get(cert.ended)?.attributes).toMatchObject({
      course: { id: cert.course, title: cert.courseTitle },
      class: { id: ids.classCurrent },
      scoreRatio: 0.85,
      score: 850,
      passingScore: 0.5,
      ended: true,
      certificationRef: cert.endedRef,
      wording: 'certification', // the course's own wording beats the tenant's attestation
      certificateUrl: `/api/lessons/${cert.ended}/certificate.pdf`,
      credentialUrl: `/api/lessons/${cert.ended}/credential`,
    });
    // Below the passing score: listed, no link.
    expect(byId.get(cert.below)?.attributes).toMatchObject({ score: 200, ended: true, certificateUrl: null });
    // Certifying by its type, skipped: ended, no own wording → the tenant's.
    expect(byId.get(cert.byType)?.attributes).toMatchObject({
      score: 600,
      ended: true,
      wording: 'attestation',
      certificateUrl: `/api/lessons/${cert.byType}/certificate.pdf`,
    });
    // Not ended: no link even with a reference.
    expect(byId.get(ids.lessonA1)?.attributes).toMatchObject({
      ended: false,
      certificateUrl: null,
      percentProgression: expect.any(Number),
    });
    expect(byId.get(cert.ongoing)?.attributes).toMatchObject({ ended: false, certificateUrl: null });
  });

  it('refuses another learner (403) and answers the anonymous with 401', async () => {
    const other = await get(t.app, `/api/certification-items?filter[userId]=${ids.learnerB}`, anna);
    expect(other.statusCode).toBe(403);
    expect((other.json() as ErrorDoc).errors[0]?.code).toBe('Forbidden');
    expect((await get(t.app, '/api/certification-items?filter[userId]=me', anna)).statusCode).toBe(200);
    expect((await get(t.app, '/api/certification-items')).statusCode).toBe(401);
  });

  it('is closed where the tenant does not allow certificates', async () => {
    const res = await get(t.app, '/api/certification-items', beta, hosts.beta);
    expect(res.statusCode).toBe(403);
  });

  it('paginates', async () => {
    const res = await get(t.app, '/api/certification-items?page[size]=2&page[number]=1', anna);
    const body = res.json() as { data: Item[]; meta: { total: number } };
    expect(body.data).toHaveLength(2);
    expect(body.meta.total).toBe(5);
    // Ended lessons come first.
    expect(body.data.every((i) => i.attributes.ended)).toBe(true);
  });
});

describe('GET /api/lessons/{id}/certificate.pdf and /credential: who may get one', () => {
  it.each(['certificate.pdf', 'credential'])(
    '%s: 401 anonymous, 404 for another learner or tenant, 409 when the rules refuse',
    async (doc) => {
      expect((await get(t.app, `/api/lessons/${cert.ended}/${doc}`)).statusCode).toBe(401);
      const bobs = await get(t.app, `/api/lessons/${cert.ended}/${doc}`, bob);
      expect(bobs.statusCode).toBe(404);
      expect((bobs.json() as ErrorDoc).errors[0]?.code).toBe('MODEL_NOT_FOUND');
      expect((await get(t.app, `/api/lessons/${cert.bobEnded}/${doc}`, anna)).statusCode).toBe(404);
      // Another tenant: certificates are off there; and a token of this tenant is not valid on it.
      expect((await get(t.app, `/api/lessons/${cert.ended}/${doc}`, beta, hosts.beta)).statusCode).toBe(403);
      expect((await get(t.app, `/api/lessons/${cert.ended}/${doc}`, anna, hosts.beta)).statusCode).toBe(401);
      for (const [lesson, detail] of [
        [ids.lessonA1, /not ended/],
        [cert.ongoing, /not ended/],
        [cert.below, /passing score/],
      ] as const) {
        const res = await get(t.app, `/api/lessons/${lesson}/${doc}`, anna);
        expect(res.statusCode).toBe(409);
        const error = (res.json() as ErrorDoc).errors[0];
        expect(error?.code).toBe('BAD_REQUEST');
        expect(error?.detail).toMatch(detail);
      }
    },
  );
});

describe('a course certifying through its type, without a passing score of its own (issue 29 R3-13)', () => {
  it.each(['certificate.pdf', 'credential'])(
    '%s: empty answers (score 0) do not certify; the default passing score (0.5) applies',
    async (doc) => {
      const id = `cert-empty-${doc}`;
      const template = await t.tdb.db
        .selectFrom('lessons')
        .selectAll()
        .where('id', '=', cert.byType)
        .executeTakeFirstOrThrow();
      await t.tdb.db
        .insertInto('lessons')
        .values({
          ...template,
          id,
          certificationRef: `EMPTY-${doc}`,
          scoring: '{"global":{"actual":0,"max":10}}',
        })
        .execute();
      const res = await get(t.app, `/api/lessons/${id}/${doc}`, anna);
      expect(res.statusCode).toBe(409);
      expect((res.json() as ErrorDoc).errors[0]?.detail).toMatch(/passing score/);
      const items = (await get(t.app, '/api/certification-items?page[size]=50', anna)).json() as {
        data: Item[];
      };
      const item = items.data.find((i) => i.id === id);
      expect(item?.attributes).toMatchObject({ certificateUrl: null, passingScore: 0.5 });
    },
  );
});

describe('the award (POST /api/lessons/{id}/certificate, decision 0065)', () => {
  const certificateRows = async () =>
    t.tdb.db.selectFrom('certificates').selectAll().where('lessonId', '=', cert.ended).execute();

  it('comes before the documents: their GETs read only, 409 until the award', async () => {
    for (const doc of ['certificate.pdf', 'credential']) {
      const res = await get(t.app, `/api/lessons/${cert.ended}/${doc}`, anna);
      expect(res.statusCode).toBe(409);
      expect((res.json() as ErrorDoc).errors[0]?.detail).toMatch(/Not awarded yet/);
    }
    expect(await certificateRows()).toEqual([]);
    const keys = await t.tdb.db
      .selectFrom('signingKeys')
      .select('id')
      .where('contextId', '=', ids.ctxA)
      .execute();
    expect(keys).toEqual([]);
  });

  it('stores the certificate with its credential signed, in both forms, once', async () => {
    const first = await t.app.inject({
      method: 'POST',
      url: `/api/lessons/${cert.ended}/certificate`,
      headers: { host: hosts.alpha, authorization: `Bearer ${anna}` },
    });
    expect(first.statusCode).toBe(201);
    const body = first.json() as { id: string; verificationUrl: string };
    expect(body.verificationUrl).toBe(`http://alpha.test/api/certificates/${body.id}/verify`);
    const [row, ...others] = await certificateRows();
    expect(others).toEqual([]);
    expect(row).toMatchObject({ id: body.id, statusIndex: expect.any(Number) });
    expect(row?.credentialJwt).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(JSON.parse(row?.credentialLd ?? '{}')).toMatchObject({ id: body.verificationUrl, proof: {} });
    // Again: the same certificate, nothing signed anew.
    expect(await award(t.app, cert.ended, anna)).toEqual(body);
    expect(await certificateRows()).toEqual([row]);
    // The downloads serve what the award stored, and write nothing.
    const jwt = await get(t.app, `/api/lessons/${cert.ended}/credential`, anna);
    expect(jwt.statusCode).toBe(200);
    expect(jwt.body).toBe(row?.credentialJwt);
    expect((await get(t.app, `/api/lessons/${cert.ended}/certificate.pdf`, anna)).statusCode).toBe(200);
    expect(await certificateRows()).toEqual([row]);
  });

  it('is refused as the documents are: another learner, the rules', async () => {
    const post = (lesson: string, token: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/lessons/${lesson}/certificate`,
        headers: { host: hosts.alpha, authorization: `Bearer ${token}` },
      });
    expect((await post(cert.ended, bob)).statusCode).toBe(404);
    expect((await post(cert.below, anna)).statusCode).toBe(409);
    expect((await post(cert.ongoing, anna)).statusCode).toBe(409);
  });
});

describe('GET /api/certificates/{id}/verify', () => {
  let verifyPath = '';
  beforeAll(async () => {
    await award(t.app, cert.ended, anna);
    const res = await get(t.app, `/api/lessons/${cert.ended}/credential`, anna, hosts.alpha, {
      headers: { accept: 'application/json' },
    });
    expect(res.statusCode).toBe(200);
    verifyPath = new URL((res.json() as { verificationUrl: string }).verificationUrl).pathname;
  });

  it('uses a random public id, never the lesson id, and the same one for the PDF and the credential', async () => {
    const id = verifyPath.split('/')[3] ?? '';
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(verifyPath).not.toContain(cert.ended);
    const again = await get(t.app, `/api/lessons/${cert.ended}/credential`, anna, hosts.alpha, {
      headers: { accept: 'application/json' },
    });
    expect(new URL((again.json() as { verificationUrl: string }).verificationUrl).pathname).toBe(verifyPath);
  });

  it('is public and shows only what the certificate shows (HTML, both languages)', async () => {
    const fr = await get(t.app, verifyPath);
    expect(fr.statusCode).toBe(200);
    expect(fr.headers['content-type']).toMatch(/text\/html/);
    expect(fr.body).toContain('lang="fr"');
    for (const shown of [
      'Anna Martin',
      'Sécurité au travail',
      '850 / 1000',
      cert.endedRef,
      'Alpha',
      'Valide',
      '4 mars 2026',
    ])
      expect(fr.body).toContain(shown);
    for (const hidden of ['anna@example.test', cert.ended, ids.learnerA, 'Fractions', '2000-02-02'])
      expect(fr.body).not.toContain(hidden);
    const en = await get(t.app, `${verifyPath}?lang=en`);
    expect(en.body).toContain('lang="en"');
    expect(en.body).toContain('Valid');
    expect(en.body).toContain('4 March 2026');
  });

  it('answers JSON with exactly the allowed fields', async () => {
    const res = await get(t.app, verifyPath, undefined, hosts.alpha, {
      headers: { accept: 'application/json' },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual([
      'course',
      'date',
      'learner',
      'reference',
      'score',
      'scoreScale',
      'status',
      'tenant',
      'url',
      'wording',
    ]);
    expect(body).toMatchObject({
      status: 'valid',
      learner: 'Anna Martin',
      course: cert.courseTitle,
      score: 850,
      reference: cert.endedRef,
      wording: 'certification',
    });
  });

  it('is 404 for an unknown id, a lesson id, or on another tenant, and escapes what it prints', async () => {
    expect((await get(t.app, '/api/certificates/AAAAAAAAAAAAAAAAAAAAAA/verify')).statusCode).toBe(404);
    expect((await get(t.app, `/api/certificates/${cert.ended}/verify`)).statusCode).toBe(404);
    expect((await get(t.app, verifyPath, undefined, hosts.beta)).statusCode).toBe(404);
    const notFound = await get(t.app, '/api/certificates/%3Cscript%3E/verify');
    expect(notFound.statusCode).toBe(404);
    expect(notFound.body).not.toContain('<script>');
  });

  it('reads as revoked once the lesson is reset', async () => {
    await t.tdb.db
      .updateTable('lessons')
      .set({ certificationRef: null, endedAt: null, progress: null, state: 'AVAILABLE' })
      .where('id', '=', cert.ended)
      .execute();
    try {
      const res = await get(t.app, verifyPath, undefined, hosts.alpha, {
        headers: { accept: 'application/json' },
      });
      expect((res.json() as { status: string }).status).toBe('revoked');
      expect((await get(t.app, verifyPath)).body).toContain('Révoqué');
    } finally {
      await t.tdb.db
        .updateTable('lessons')
        .set({ certificationRef: cert.endedRef, endedAt: cert.endedAt, progress: 'COMPLETED', state: 'DONE' })
        .where('id', '=', cert.ended)
        .execute();
    }
    const back = await get(t.app, verifyPath, undefined, hosts.alpha, {
      headers: { accept: 'application/json' },
    });
    expect((back.json() as { status: string }).status).toBe('valid');
  });
});

describe('the end-of-program reference follows the same certifying rule', () => {
  it("a course certifies by its own settings even when its type does not, or by its type's flag", async () => {
    const db = t.tdb.db;
    await db
      .insertInto('programCourses')
      .values([
        { id: 'pc-cert-own', programId: ids.progPub, courseId: cert.course, order: 10, settings: '{}' },
        {
          id: 'pc-cert-type',
          programId: ids.progPub,
          courseId: cert.courseByType,
          order: 11,
          settings: '{}',
        },
      ])
      .execute();
    const ctx = (await loadProgramContexts(db, [ids.cpCurrentPub])).get(ids.cpCurrentPub);
    expect(ctx?.courses.get(cert.course)?.certificate).toBe(true);
    expect(ctx?.courses.get(cert.courseByType)?.certificate).toBe(true);
    expect(ctx?.courses.get(ids.coursePub)?.certificate).toBe(false);
  });
});
