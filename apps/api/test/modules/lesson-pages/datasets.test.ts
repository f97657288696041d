import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../../src/app';
import { importFolder } from '../../../src/content/importer';
import { testEnv } from '../../helpers/app';
import { createTestDb } from '../../helpers/test-db';
import type { TestDb } from '../../helpers/test-db';
import { tenantSettingsYaml } from '../../content/helpers';

/**
 * Parametrised exercises (issue 27 item 2, decision 0042), on SQLite and PostgreSQL: each
 * learner's page draws its values once and keeps them (a reload and a second app on the same
 * database show the same numbers), the document shows only the values the block names before
 * the answer, and the server grades each learner against the answers computed from their own
 * values: a free answer with a tolerance and a choice. A tenant of its own (host values.test)
 * with eight learners, so two of them almost surely draw different numbers.
 */
const HOST = 'values.test';
const PASSWORD = 'Learner#2026';
const LEARNERS = ['l1', 'l2', 'l3', 'l4', 'l5', 'l6', 'l7', 'l8'];

const TENANT = `
alias: values
name: Value School
hostnames: [${HOST}]
categories: [{ id: sales, title: Sales }]
courseTypes:
  - { id: practice, title: Practice, settings: { hints: true, feedbacks: true, retry: true } }
${tenantSettingsYaml({ defaultLocale: 'en', certification: 'attestation' })}`;

const USERS = `
users:
${LEARNERS.map((u) => `  - { id: ${u}, email: ${u}@values.test, password: '${PASSWORD}', firstname: L, lastname: ${u} }`).join('\n')}
`;

const COURSE = `
id: discounts
title: Discounts
type: practice
category: sales
blocks:
  - id: b-discount
    title: Discount on {{price}}
    type: exercice
    datasets:
      price: { min: 40, max: 400, step: 1 }
      discount: { values: [10, 15, 20, 25, 30, 40] }
    datasetsComputed:
      saving: round(price * discount / 100, 2)
      discounted: price - saving
    statement:
      html: <p>A coat at £{{price}} with {{discount}} % off.</p>
    sections:
      - rows:
          - type: free-answer
            message: <p>Price after the discount?</p>
            expected: { formula: discounted, tolerance: 0.01 }
          - type: combined-choice
            message: <p>More than £50 off?</p>
            choices: [{ value: 'Yes' }, { value: 'No' }]
            expected: { formula: 'saving > 50 ? 0 : 1' }
tree:
  children:
    - { id: s1, title: Only, children: [{ id: n-discount, block: b-discount }] }
`;

const PROGRAMS = `
programs:
  - { id: p1, name: Path, courses: [discounts] }
`;

const CLASSES = `
classes:
  - id: c1
    name: Class
    startAt: -1d
    expireAt: +30d
    programs: [{ program: p1 }]
    users: [${LEARNERS.map((u) => `{ user: ${u}, role: STUDENT }`).join(', ')}]
`;

let t: TestDb;
let app: FastifyInstance;
let filesDir: string;
const tokens: Record<string, string> = {};
/** Each learner's page, once answered (the current page is then gone: the lesson has no other). */
const answeredPages: Record<string, string> = {};
const lessons: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestDb();
  const root = mkdtempSync(path.join(tmpdir(), 'parcours-values-'));
  const tenant = path.join(root, 'tenants', 'values');
  mkdirSync(path.join(tenant, 'courses'), { recursive: true });
  writeFileSync(path.join(tenant, 'tenant.yaml'), TENANT);
  writeFileSync(path.join(tenant, 'users.yaml'), USERS);
  writeFileSync(path.join(tenant, 'courses', 'discounts.yaml'), COURSE);
  writeFileSync(path.join(tenant, 'programs.yaml'), PROGRAMS);
  writeFileSync(path.join(tenant, 'classes.yaml'), CLASSES);
  filesDir = mkdtempSync(path.join(tmpdir(), 'parcours-values-files-'));
  const report = await importFolder(t.db, root, { filesDir });
  rmSync(root, { recursive: true, force: true });
  expect(report.errors).toEqual([]);
  app = await buildApp({ env: testEnv(), db: t.db, dbKind: t.kind, filesDir, logger: false });
  await app.ready();
  const rows = await t.db
    .selectFrom('lessons as l')
    .innerJoin('users as u', 'u.id', 'l.userId')
    .select(['l.id', 'u.email'])
    .execute();
  for (const u of LEARNERS) {
    const login = await app.inject({
      method: 'POST',
      url: '/api/users/login',
      headers: { host: HOST },
      payload: { email: `${u}@values.test`, password: PASSWORD },
    });
    tokens[u] = (login.json() as { access_token: string }).access_token;
    lessons[u] = rows.find((r) => r.email === `${u}@values.test`)!.id;
  }
});
afterAll(async () => {
  await app?.close();
  await t?.close();
  if (filesDir) rmSync(filesDir, { recursive: true, force: true });
});

interface Page {
  id: string;
  attributes: {
    block: { title: string; content: { datasetNames?: string[] } };
    sheet: { datasetComputed: Record<string, number> };
    results: { answerRatios: (number | null)[]; score: { actual: number; max: number } } | null;
  };
}

const send = (
  on: FastifyInstance,
  who: string,
  method: 'GET' | 'PATCH' | 'POST',
  url: string,
  payload?: object,
): Promise<LightMyRequestResponse> =>
  on.inject({
    method,
    url,
    headers: { host: HOST, authorization: `Bearer ${tokens[who]}` },
    ...(payload ? { payload } : {}),
  });
const current = (who: string, on = app) =>
  send(
    on,
    who,
    'GET',
    `/api/lessons/${lessons[who]}/pages/current${answeredPages[who] ? `?pageId=${answeredPages[who]}` : ''}`,
  );
const pageOf = (res: LightMyRequestResponse) => {
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: Page }).data;
};

/** What the learner should answer, from the values the page shows them. */
function rightAnswers(values: Record<string, number>): [string, number] {
  const saving = Math.round(values.price! * values.discount!) / 100;
  return [String(values.price! - saving).replace('.', ','), saving > 50 ? 0 : 1];
}

describe('parametrised exercises', () => {
  it('draws each page once: a reload and another server show the same values, and only the named ones', async () => {
    const first = pageOf(await current('l1'));
    const shown = first.attributes.sheet.datasetComputed;
    expect(Object.keys(shown).sort()).toEqual(['discount', 'price']);
    expect(first.attributes.block.content.datasetNames?.sort()).toEqual(['discount', 'price']);
    expect(shown.price! >= 40 && shown.price! <= 400 && Number.isInteger(shown.price)).toBe(true);
    expect([10, 15, 20, 25, 30, 40]).toContain(shown.discount);
    // The computed values (the expected answer among them) stay on the server before the answer.
    expect(JSON.stringify(first)).not.toMatch(/saving|discounted|formula/);

    const again = pageOf(await current('l1'));
    expect(again.id).toBe(first.id);
    expect(again.attributes.sheet).toEqual(first.attributes.sheet);
    const peer = await buildApp({ env: testEnv(), db: t.db, dbKind: t.kind, filesDir, logger: false });
    try {
      await peer.ready();
      expect(pageOf(await current('l1', peer)).attributes.sheet).toEqual(first.attributes.sheet);
    } finally {
      await peer.close();
    }
    // Stored with the page: the draw is in its sheet, computed values included.
    const stored = await t.db
      .selectFrom('lessonPages')
      .select('sheet')
      .where('id', '=', first.id)
      .executeTakeFirstOrThrow();
    const values = (JSON.parse(stored.sheet) as { datasetComputed: Record<string, number> }).datasetComputed;
    expect(values).toMatchObject(shown);
    expect(values.discounted).toBeCloseTo(values.price! - values.saving!, 6);
  });

  it('gives learners their own numbers and grades each against their own values', async () => {
    const seen = new Set<string>();
    for (const who of LEARNERS.slice(0, 7)) {
      const page = pageOf(await current(who));
      const values = page.attributes.sheet.datasetComputed;
      seen.add(JSON.stringify(values));
      const answered = pageOf(
        await send(app, who, 'PATCH', `/api/lessons/${lessons[who]}/pages/current`, {
          pageId: page.id,
          inputs: { answers: rightAnswers(values) },
        }),
      );
      expect(answered.attributes.results?.answerRatios, `${who} ${JSON.stringify(values)}`).toEqual([1, 1]);
      expect(answered.attributes.results?.score).toEqual({ actual: 20, max: 20 });
      answeredPages[who] = answered.id;
    }
    // 7 draws among 2166 price and discount pairs: equal for all would be a broken draw.
    expect(seen.size).toBeGreaterThan(1);
  });

  it("grades another learner's right answer as wrong, and within the tolerance as right", async () => {
    const page = pageOf(await current('l8'));
    const own = page.attributes.sheet.datasetComputed;
    const [mine] = rightAnswers(own);
    // Someone else's right number (l1..l7 drew their own values in the test above).
    const others = await Promise.all(LEARNERS.slice(0, 7).map(async (u) => pageOf(await current(u))));
    const other = others
      .map((p) => rightAnswers(p.attributes.sheet.datasetComputed)[0])
      .find((n) => n !== mine);
    expect(other).toBeDefined();
    const wrong = pageOf(
      await send(app, 'l8', 'PATCH', `/api/lessons/${lessons.l8}/pages/current`, {
        pageId: page.id,
        inputs: { answers: [other, null] },
      }),
    );
    expect(wrong.attributes.results?.answerRatios).toEqual([0, 0]);

    // A retry draws new values; a number within the tolerance (0.01) of the new answer is right.
    const retried = pageOf(
      await send(app, 'l8', 'POST', `/api/lessons/${lessons.l8}/pages/current/retry`, { pageId: wrong.id }),
    );
    expect(retried.attributes.results).toBeNull();
    const [right, choice] = rightAnswers(retried.attributes.sheet.datasetComputed);
    const close = `${(Number(right.replace(',', '.')) + 0.009).toFixed(3)} £`;
    const graded = pageOf(
      await send(app, 'l8', 'PATCH', `/api/lessons/${lessons.l8}/pages/current`, {
        pageId: retried.id,
        inputs: { answers: [close, choice] },
      }),
    );
    expect(graded.attributes.results?.answerRatios).toEqual([1, 1]);
  });

  it('shows every value once the key is shown (nothing left to retry)', async () => {
    const page = pageOf(await current('l3'));
    expect(page.attributes.results?.answerRatios).toEqual([1, 1]);
    expect(Object.keys(page.attributes.sheet.datasetComputed).sort()).toEqual([
      'discount',
      'discounted',
      'price',
      'saving',
    ]);
  });
});
