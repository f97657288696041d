import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { tenantSettingsYaml } from '../../content/helpers';
import { startYamlTenant } from '../../helpers/yaml-tenant';
import type { YamlTenant } from '../../helpers/yaml-tenant';

/**
 * Issue 36 finding "The data export holds the answer key of a page the learner can still retry"
 * (decision 0056): the export holds no more than the player shows the learner at that moment.
 * A practice course (retries allowed): a multiple-choice page answered wrong, whose key the
 * player withholds while the retry is open — a retry answered from the export must not score
 * full marks (on the code before, it did) — and a parametrised page not answered yet, whose
 * computed values (decision 0042) the player keeps to itself.
 */
const HOST = 'export.test';
const PASSWORD = 'Learner#2026';

const TENANT = `
alias: exportkey
name: Export School
hostnames: [${HOST}]
categories: [{ id: general, title: General }]
courseTypes:
  - { id: practice, title: Practice, settings: { hints: true, feedbacks: true, retry: true } }
${tenantSettingsYaml({ defaultLocale: 'en', certification: 'attestation' })}`;

const USERS = `
users:
  - { id: eve, email: eve@export.test, password: '${PASSWORD}', firstname: Eve, lastname: Lo }
`;

const COURSE = `
id: keys
title: Keys
type: practice
category: general
blocks:
  - id: b-mc
    title: Choose
    type: exercice
    sections:
      - rows:
          - type: multiple-choice
            choices: [{ value: a }, { value: b }, { value: c }, { value: d }]
            expected: [0, 2]
  - id: b-tip
    title: A tip on {{bill}}
    type: exercice
    datasets:
      bill: { min: 20, max: 200, step: 1 }
      rate: { values: [5, 10, 12, 15] }
    datasetsComputed:
      tip: round(bill * rate / 100, 2)
      total: bill + tip
    statement:
      html: <p>A bill of £{{bill}} and a {{rate}} % tip.</p>
    sections:
      - rows:
          - type: free-answer
            message: <p>What is paid in all?</p>
            expected: { formula: total, tolerance: 0.01 }
tree:
  children:
    - id: s1
      title: Only
      children: [{ id: n-mc, block: b-mc }, { id: n-tip, block: b-tip }]
`;

const PROGRAMS = `
programs:
  - { id: p1, name: Path, courses: [keys] }
`;

const CLASSES = `
classes:
  - id: c1
    name: Class
    startAt: -1d
    expireAt: +30d
    programs: [{ program: p1 }]
    users: [{ user: eve, role: STUDENT }]
`;

let w: YamlTenant;
let token: string;
let lessonId: string;

beforeAll(async () => {
  w = await startYamlTenant('exportkey', HOST, {
    'tenant.yaml': TENANT,
    'users.yaml': USERS,
    'courses/keys.yaml': COURSE,
    'programs.yaml': PROGRAMS,
    'classes.yaml': CLASSES,
  });
  token = await w.login('eve@export.test', PASSWORD);
  lessonId = (await w.t.db.selectFrom('lessons').select('id').executeTakeFirstOrThrow()).id;
});
afterAll(async () => {
  await w?.close();
});

const send = (
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  payload?: object,
): Promise<LightMyRequestResponse> =>
  w.app.inject({
    method,
    url,
    headers: { host: HOST, authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  });

interface Results {
  retryAllowed: boolean;
  score: { actual: number; max: number };
  correction: ({ detail: { items?: string[] } } | null)[];
}
interface Page {
  id: string;
  attributes: { results: Results | null; sheet: { datasetComputed: Record<string, number> } };
}
const pageOf = (res: LightMyRequestResponse) => {
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: Page }).data;
};
interface ExportedPage {
  id: string;
  nodeId: string;
  results: Results | null;
  sheet: { datasetComputed?: Record<string, number> } | null;
}
async function exported(): Promise<ExportedPage[]> {
  const res = await send('GET', '/api/users/me/data-export');
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { pages: ExportedPage[] }).pages;
}

/** The choices a multiple-choice correction says are expected: right picks and missed ones. */
const keyOf = (r: Results | null) =>
  (r?.correction[0]?.detail.items ?? []).flatMap((s, i) => (s === 'correct' || s === 'missing' ? [i] : []));

describe('the export holds no more than the player shows (issue 36, decision 0056)', () => {
  let mc: Page;
  let param: Page;
  beforeAll(async () => {
    const first = pageOf(await send('GET', `/api/lessons/${lessonId}/pages/current`));
    mc = pageOf(
      await send('PATCH', `/api/lessons/${lessonId}/pages/current`, {
        pageId: first.id,
        inputs: { answers: [[1]] },
      }),
    );
    param = pageOf(await send('POST', `/api/lessons/${lessonId}/pages/next`, { fromPageId: first.id }));
  });

  it('a page the learner can still retry: the export gives no key, and a retry from it does not score full', async () => {
    expect(mc.attributes.results?.retryAllowed).toBe(true);
    expect(keyOf(mc.attributes.results)).toEqual([]);
    const page = (await exported()).find((p) => p.id === mc.id)!;
    const fromExport = keyOf(page.results);
    const retry = await send('POST', `/api/lessons/${lessonId}/pages/current/retry`, { pageId: mc.id });
    expect(retry.statusCode, retry.body).toBe(200);
    const answered = pageOf(
      await send('PATCH', `/api/lessons/${lessonId}/pages/current`, {
        pageId: pageOf(retry).id,
        inputs: { answers: [fromExport] },
      }),
    );
    const score = answered.attributes.results!.score;
    expect(score.actual).toBeLessThan(score.max);
    // The archived first attempt, exported after the retry, gives no key either.
    const archived = (await exported()).find((p) => p.id === mc.id)!;
    expect(keyOf(archived.results)).toEqual([]);
  });

  it('a parametrised page not answered yet: the export shows the values the player shows, no computed answer', async () => {
    const shown = param.attributes.sheet.datasetComputed;
    expect(Object.keys(shown).sort()).toEqual(['bill', 'rate']);
    const page = (await exported()).find((p) => p.id === param.id)!;
    expect(page.sheet?.datasetComputed ?? {}).toEqual(shown);
    expect(JSON.stringify(page)).not.toMatch(/"tip"|"total"/);
    // Answered wrong with a retry open: still the values the player shows, and its results.
    const answered = pageOf(
      await send('PATCH', `/api/lessons/${lessonId}/pages/current`, {
        pageId: param.id,
        inputs: { answers: ['0'] },
      }),
    );
    expect(answered.attributes.results?.retryAllowed).toBe(true);
    const after = (await exported()).find((p) => p.id === param.id)!;
    expect(after.sheet).toEqual(answered.attributes.sheet);
    expect(after.results?.correction).toEqual(answered.attributes.results?.correction);
  });

  it('once no attempt can be graded any more, the export shows the key, as the player does, earlier attempts too', async () => {
    const before = await exported();
    const node = before.find((p) => p.id === mc.id)!.nodeId;
    const current = before.find((p) => p.nodeId === node && p.id !== mc.id)!;
    expect(current.results?.retryAllowed).toBe(true);
    const retry = await send('POST', `/api/lessons/${lessonId}/pages/current/retry`, { pageId: current.id });
    expect(retry.statusCode, retry.body).toBe(200);
    const right = pageOf(
      await send('PATCH', `/api/lessons/${lessonId}/pages/current`, {
        pageId: pageOf(retry).id,
        inputs: { answers: [[0, 2]] },
      }),
    );
    expect(right.attributes.results).toMatchObject({ retryAllowed: false });
    const attempts = (await exported()).filter((p) => p.nodeId === node);
    expect(attempts).toHaveLength(3);
    for (const attempt of attempts) expect(keyOf(attempt.results)).toEqual([0, 2]);
    const shown = attempts.find((p) => p.id === right.id)!;
    expect(shown.results?.correction).toEqual(right.attributes.results?.correction);
  });
});
