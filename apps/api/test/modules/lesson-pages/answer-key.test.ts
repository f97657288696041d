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
 * Issue 10 finding 2 (decision 0009): the expected answers — `expected` of a drag-n-drop item,
 * `missing` items, a free answer's accepted strings or number, and the answer-specific feedback
 * that states them (a row's `incorrect` message) — appear only once no further attempt of the
 * page can be graded. A tenant of its own (host keys.test) with one block per exercise type, in
 * a course type with retries (`practice`) and one without (`exam`). Every text that could give
 * the key away carries KEY; messages about the learner's own pick carry OWN; the block's general
 * feedbacks (tips, not answer-specific) carry TIP.
 */
const HOST = 'keys.test';
const PASSWORD = 'Learner#2026';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const TENANT = `
alias: keys
name: Key School
hostnames: [${HOST}]
categories: [{ id: general, title: General }]
courseTypes:
  - { id: practice, title: Practice, settings: { hints: true, feedbacks: true, retry: true } }
  - { id: exam, title: Exam, settings: { hints: true, feedbacks: true, retry: false } }
${tenantSettingsYaml({ defaultLocale: 'en', certification: 'attestation' })}`;

const USERS = `
users:
  - { id: kim, email: kim@keys.test, password: '${PASSWORD}', firstname: Kim, lastname: Lo }
`;

/** One exercise block per type, each with a wrong answer that leaves part of the key unfound. */
const TYPES = [
  {
    id: 'mc',
    wrong: [1],
    row: `type: multiple-choice
            choices: [{ value: a }, { value: b, feedback: 'OWN-mc-choice' }, { value: c }, { value: d }]
            expected: [0, 2]`,
  },
  {
    id: 'cc',
    wrong: 0,
    row: `type: combined-choice
            choices: [{ value: a, feedback: 'OWN-cc-choice' }, { value: b }, { value: c }]
            expected: 1`,
  },
  {
    id: 'free-text',
    wrong: 'forty-one',
    row: `type: free-answer
            expected: { accept: ['forty-two'] }
            answers: [{ match: ['forty-one'], feedback: 'OWN-free-41' }]`,
  },
  {
    id: 'free-number',
    wrong: '3',
    row: `type: free-answer
            expected: { number: 12.5, tolerance: 0.5 }`,
  },
  {
    id: 'dnd',
    wrong: [[1], []],
    row: `type: drag-n-drop
            choices: [{ value: x }, { value: y, feedback: 'OWN-dnd-choice' }, { value: z }]
            targets: [{ value: T1 }, { value: T2 }]
            expected: [[0], [1]]`,
  },
  {
    id: 'pick-words',
    wrong: [0],
    row: `type: pick-words
            text: 'The [[cat]] sat on the [[mat]] today'`,
  },
  {
    id: 'image',
    wrong: [1],
    row: `type: image-cliquable
            image: media/pic.png
            viewBox: { width: 808, height: 400 }
            zones:
              - { shape: rectangle, x: 0, y: 0, width: 100, height: 100, label: Zone A, feedback: 'OWN-image-zone-a' }
              - { shape: rectangle, x: 200, y: 0, width: 100, height: 100, label: Zone B, feedback: 'OWN-image-zone-b' }
            expected: [0]`,
  },
] as const;

const course = (id: string, type: string) => `
id: ${id}
title: ${id}
type: ${type}
category: general
blocks:
${TYPES.map(
  (t) => `  - id: ${id}-${t.id}
    title: ${t.id}
    type: exercice
    feedbacks: [{ when: incorrect, message: 'TIP-general-incorrect' }, { when: partial, message: 'TIP-general-partial' }]
    sections:
      - rows:
          - ${t.row}
            feedback: { correct: 'Well done', incorrect: 'KEY-${t.id}-incorrect' }`,
).join('\n')}
tree:
  children:
    - id: s1
      title: All types
      children:
${TYPES.map((t) => `        - { id: n-${t.id}, block: ${id}-${t.id} }`).join('\n')}
`;

const PROGRAMS = `
programs:
  - { id: p-practice, name: Practice path, courses: [keys-practice] }
  - { id: p-exam, name: Exam path, courses: [keys-exam] }
`;

const CLASSES = `
classes:
  - id: k
    name: Key class
    startAt: -1d
    expireAt: +30d
    programs: [{ program: p-practice }, { program: p-exam }]
    users: [{ user: kim, role: STUDENT }]
`;

let t: TestDb;
let app: FastifyInstance;
let filesDir: string;
let token: string;
const lessons: Record<'practice' | 'exam', string> = { practice: '', exam: '' };

beforeAll(async () => {
  t = await createTestDb();
  const root = mkdtempSync(path.join(tmpdir(), 'parcours-keys-'));
  const tenant = path.join(root, 'tenants', 'keys');
  mkdirSync(path.join(tenant, 'courses'), { recursive: true });
  mkdirSync(path.join(root, 'media'), { recursive: true });
  writeFileSync(path.join(root, 'media', 'pic.png'), PNG);
  writeFileSync(path.join(tenant, 'tenant.yaml'), TENANT);
  writeFileSync(path.join(tenant, 'users.yaml'), USERS);
  writeFileSync(path.join(tenant, 'courses', 'practice.yaml'), course('keys-practice', 'practice'));
  writeFileSync(path.join(tenant, 'courses', 'exam.yaml'), course('keys-exam', 'exam'));
  writeFileSync(path.join(tenant, 'programs.yaml'), PROGRAMS);
  writeFileSync(path.join(tenant, 'classes.yaml'), CLASSES);
  filesDir = mkdtempSync(path.join(tmpdir(), 'parcours-keys-files-'));
  const report = await importFolder(t.db, root, { filesDir });
  rmSync(root, { recursive: true, force: true });
  expect(report.errors).toEqual([]);
  app = await buildApp({ env: testEnv(), db: t.db, dbKind: t.kind, filesDir, logger: false });
  await app.ready();
  const login = await app.inject({
    method: 'POST',
    url: '/api/users/login',
    headers: { host: HOST },
    payload: { email: 'kim@keys.test', password: PASSWORD },
  });
  token = (login.json() as { access_token: string }).access_token;
  const rows = await t.db
    .selectFrom('lessons as l')
    .innerJoin('courses as c', 'c.id', 'l.courseId')
    .select(['l.id', 'c.title'])
    .execute();
  lessons.practice = rows.find((r) => r.title === 'keys-practice')!.id;
  lessons.exam = rows.find((r) => r.title === 'keys-exam')!.id;
});
afterAll(async () => {
  await app?.close();
  await t?.close();
  if (filesDir) rmSync(filesDir, { recursive: true, force: true });
});

interface Results {
  outcome: string;
  retryAllowed: boolean;
  feedbacks: { message: string }[];
  correction: ({ type: string; correct: boolean; detail: Record<string, unknown> } | null)[];
}
interface Page {
  id: string;
  attributes: { index: number; block: { title: string } | null; results: Results | null };
}

const send = (
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  payload?: object,
): Promise<LightMyRequestResponse> =>
  app.inject({
    method,
    url,
    headers: { host: HOST, authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  });
const pageOf = (res: LightMyRequestResponse) => (res.json() as { data: Page }).data;

/** Everything in the results that tells an expected answer the learner did not give. */
function keyParts(results: Results): string[] {
  const found: string[] = [];
  for (const f of results.feedbacks) if (f.message.includes('KEY')) found.push(`feedback ${f.message}`);
  for (const c of results.correction) {
    if (!c) continue;
    const detail = c.detail;
    const items = (detail.items ?? []) as (string | { status: string; expected?: unknown })[];
    for (const item of items) {
      const status = typeof item === 'string' ? item : item.status;
      if (status === 'missing') found.push(`${c.type} missing item`);
      if (typeof item === 'object' && 'expected' in item) found.push(`${c.type} expected target`);
    }
    for (const key of ['accepted', 'value', 'tolerance']) if (key in detail) found.push(`${c.type} ${key}`);
  }
  return found;
}

/** Answers every page of the lesson wrong, in order; the pages' documents as answered. */
async function answerAllWrong(lessonId: string): Promise<Map<string, Page>> {
  const out = new Map<string, Page>();
  let page = pageOf(await send('GET', `/api/lessons/${lessonId}/pages/current`));
  for (const type of TYPES) {
    expect(page.attributes.block?.title).toBe(type.id);
    const res = await send('PATCH', `/api/lessons/${lessonId}/pages/current`, {
      pageId: page.id,
      inputs: { answers: [type.wrong] },
    });
    expect(res.statusCode, res.body).toBe(200);
    out.set(type.id, pageOf(res));
    if (type !== TYPES[TYPES.length - 1])
      page = pageOf(await send('POST', `/api/lessons/${lessonId}/pages/next`, { fromPageId: page.id }));
  }
  return out;
}

describe('finding 2: no expected answer while a retry can still be graded', () => {
  let practice: Map<string, Page>;
  let exam: Map<string, Page>;
  beforeAll(async () => {
    practice = await answerAllWrong(lessons.practice);
    exam = await answerAllWrong(lessons.exam);
  });

  it.each(TYPES.map((x) => [x.id]))(
    '%s, retry open: right/wrong per item, no key (answer response and correction mode)',
    async (id) => {
      const answered = practice.get(id)!;
      const results = answered.attributes.results!;
      expect(results.retryAllowed).toBe(true);
      expect(results.outcome).not.toBe('correct');
      expect(results.correction[0]?.correct).toBe(false);
      expect(keyParts(results)).toEqual([]);
      // Right/wrong is still said per item where the type has items, and what the learner's own
      // pick or typed answer earned in messages.
      if (id !== 'free-text' && id !== 'free-number')
        expect(JSON.stringify(results.correction)).toContain('wrong');
      const own = {
        mc: 'OWN-mc-choice',
        cc: 'OWN-cc-choice',
        'free-text': 'OWN-free-41',
        dnd: 'OWN-dnd-choice',
        image: 'OWN-image-zone-b',
      } as Record<string, string>;
      // The block's general feedback (a tip, not answer-specific) stays, first.
      expect(results.feedbacks.map((f) => f.message)).toEqual([
        'TIP-general-incorrect',
        ...(own[id] ? [own[id]] : []),
      ]);
      const again = pageOf(
        await send('GET', `/api/lessons/${lessons.practice}/pages/current?pageId=${answered.id}`),
      );
      expect(keyParts(again.attributes.results!)).toEqual([]);
    },
  );

  it.each(TYPES.map((x) => [x.id]))('%s, no retry (exam): the key is shown', async (id) => {
    const results = exam.get(id)!.attributes.results!;
    expect(results.retryAllowed).toBe(false);
    expect(keyParts(results).length).toBeGreaterThan(0);
    expect(results.feedbacks.map((f) => f.message)).toContain(`KEY-${id}-incorrect`);
  });

  it('once the lesson is over (time up, SKIPPED), the retryable page shows its key', async () => {
    const answered = practice.get('dnd')!;
    await t.db.updateTable('lessons').set({ state: 'SKIPPED' }).where('id', '=', lessons.practice).execute();
    try {
      const page = pageOf(
        await send('GET', `/api/lessons/${lessons.practice}/pages/current?pageId=${answered.id}`),
      );
      expect(keyParts(page.attributes.results!)).toContain('drag-n-drop expected target');
    } finally {
      await t.db
        .updateTable('lessons')
        .set({ state: 'AVAILABLE' })
        .where('id', '=', lessons.practice)
        .execute();
    }
  });

  it('a retry then a right answer: nothing left to hide, the praise is shown', async () => {
    const answered = practice.get('cc')!;
    const retry = await send('POST', `/api/lessons/${lessons.practice}/pages/current/retry`, {
      pageId: answered.id,
    });
    expect(retry.statusCode, retry.body).toBe(200);
    const res = await send('PATCH', `/api/lessons/${lessons.practice}/pages/current`, {
      pageId: pageOf(retry).id,
      inputs: { answers: [1] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const results = pageOf(res).attributes.results!;
    expect(results).toMatchObject({ outcome: 'correct', retryAllowed: false });
    expect(results.feedbacks.map((f) => f.message)).toContain('Well done');
  });
});
