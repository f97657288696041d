import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app';
import { importFolder } from '../../src/content/importer';
import { testEnv } from '../helpers/app';
import { TestClock } from '../helpers/player';
import { createTestDb } from '../helpers/test-db';
import type { TestDb } from '../helpers/test-db';
import { tenantSettingsYaml } from '../content/helpers';

/**
 * Node conditions applied (issue 27 item 3, decision 0051), on SQLite and PostgreSQL: a page or a
 * section whose conditions do not hold, given the learner's grades, is passed over by next and
 * previous, and counts as done, so the lesson completes without it. Two learners, one right and
 * one wrong on the quiz, follow two paths through the same lesson. The importer refuses a
 * condition that names a node read later, with its path.
 */
const HOST = 'branch.test';
const PASSWORD = 'Learner#2026';

const TENANT = `
alias: branch
name: Branch School
hostnames: [${HOST}]
categories: [{ id: cat, title: Cat }]
${tenantSettingsYaml({ defaultLocale: 'en', certification: 'attestation' })}`;

const slide = (id: string, title: string) => `
  - id: ${id}
    title: ${title}
    type: slide
    sections: [{ rows: [{ type: wysiwyg, html: '<p>${title}</p>' }] }]`;

const tree = (quizConditions = '') => `
tree:
  children:
    - id: s1
      title: Quiz
      children:
        - { id: n-q, block: q${quizConditions} }
        - { id: n-help, block: s-help, conditions: [{ node: n-q, belowScore: 1 }] }
        - { id: n-more, block: s-more, conditions: [{ node: n-q, minScore: 1 }] }
    - id: s2
      title: Bonus
      conditions: [{ node: n-more }]
      children:
        - { id: n-bonus, block: s-bonus }
    - id: s3
      title: End
      children:
        - { id: n-end, block: s-end }
`;

const course = (quizConditions = '') => `
id: branching
title: Branching
category: cat
blocks:
  - id: q
    title: Quiz
    type: exercice
    sections:
      - rows:
          - type: combined-choice
            choices: [{ value: right }, { value: wrong }]
            expected: 0
${slide('s-help', 'Help')}
${slide('s-more', 'Going further')}
${slide('s-bonus', 'Bonus')}
${slide('s-end', 'The end')}
${tree(quizConditions)}`;

function tenantFolder(courseText: string): string {
  const root = mkdtempSync(path.join(tmpdir(), 'parcours-branch-'));
  const tenant = path.join(root, 'tenants', 'branch');
  mkdirSync(path.join(tenant, 'courses'), { recursive: true });
  writeFileSync(path.join(tenant, 'tenant.yaml'), TENANT);
  writeFileSync(
    path.join(tenant, 'users.yaml'),
    `users:\n${['ann', 'bob', 'cy']
      .map(
        (u) =>
          `  - { id: ${u}, email: ${u}@branch.test, password: '${PASSWORD}', firstname: ${u}, lastname: Roe }`,
      )
      .join('\n')}\n`,
  );
  writeFileSync(path.join(tenant, 'courses', 'branching.yaml'), courseText);
  writeFileSync(
    path.join(tenant, 'programs.yaml'),
    'programs:\n  - { id: p1, name: Path, courses: [branching] }\n',
  );
  writeFileSync(
    path.join(tenant, 'classes.yaml'),
    'classes:\n  - id: c1\n    name: Class\n    startAt: -1d\n    expireAt: +30d\n    programs: [{ program: p1, steps: [branching] }]\n    users: [{ user: ann, role: STUDENT }, { user: bob, role: STUDENT }, { user: cy, role: STUDENT }]\n',
  );
  return root;
}

let t: TestDb;
let app: FastifyInstance;
let filesDir: string;
const clock = new TestClock();

beforeAll(async () => {
  t = await createTestDb();
  const root = tenantFolder(course());
  filesDir = mkdtempSync(path.join(tmpdir(), 'parcours-branch-files-'));
  const report = await importFolder(t.db, root, { filesDir, now: clock.now() });
  rmSync(root, { recursive: true, force: true });
  expect(report.errors).toEqual([]);
  app = await buildApp({ env: testEnv(), db: t.db, dbKind: t.kind, filesDir, logger: false, now: clock.now });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await t?.close();
  if (filesDir) rmSync(filesDir, { recursive: true, force: true });
});

interface PageDoc {
  data: { id: string; attributes: { nodeId: string; block: { title: string } | null } };
}

async function learner(name: string) {
  const login = await app.inject({
    method: 'POST',
    url: '/api/users/login',
    headers: { host: HOST },
    payload: { email: `${name}@branch.test`, password: PASSWORD },
  });
  const token = (login.json() as { access_token: string }).access_token;
  const user = await t.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', `${name}@branch.test`)
    .executeTakeFirstOrThrow();
  const lessonId = (
    await t.db.selectFrom('lessons').select('id').where('userId', '=', user.id).executeTakeFirstOrThrow()
  ).id;
  const send = (method: 'GET' | 'PATCH' | 'POST', url: string, payload?: object) =>
    app.inject({
      method,
      url: `/api/lessons/${lessonId}${url}`,
      headers: { host: HOST, authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    });
  return { send, lessonId };
}

const ok = (res: LightMyRequestResponse): PageDoc => {
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as PageDoc;
};
const title = (doc: PageDoc) => doc.data.attributes.block?.title;

/** Answers the quiz, then reads on to the end; returns the titles of the pages seen. */
async function walk(
  name: string,
  answer: number,
): Promise<{ seen: string[]; send: Awaited<ReturnType<typeof learner>>['send']; last: PageDoc }> {
  const { send } = await learner(name);
  let page = ok(await send('GET', '/pages/current'));
  expect(title(page)).toBe('Quiz');
  ok(await send('PATCH', '/pages/current', { pageId: page.data.id, inputs: { answers: [answer] } }));
  const seen = ['Quiz'];
  for (;;) {
    const res = await send('POST', '/pages/next', { fromPageId: page.data.id });
    if (res.statusCode === 409) {
      expect(res.json()).toMatchObject({ errors: [{ code: 'NO_LESSON_PAGE_AVAILABLE' }] });
      break;
    }
    page = ok(res);
    seen.push(title(page)!);
    expect(seen.length).toBeLessThan(10);
  }
  return { seen, send, last: page };
}

const progressOf = async (name: string) => {
  const { lessonId } = await learner(name);
  return t.db
    .selectFrom('lessons')
    .select(['progress', 'state'])
    .where('id', '=', lessonId)
    .executeTakeFirstOrThrow();
};

describe('node conditions', () => {
  it('a learner right on the quiz goes further and reads the bonus section; the lesson completes', async () => {
    const { seen } = await walk('ann', 0);
    expect(seen).toEqual(['Quiz', 'Going further', 'Bonus', 'The end']);
    expect(await progressOf('ann')).toEqual({ progress: 'COMPLETED', state: 'DONE' });
  });

  it('a learner wrong on it reads the help, skips the bonus section, and completes too', async () => {
    const { seen, send, last } = await walk('bob', 1);
    expect(seen).toEqual(['Quiz', 'Help', 'The end']);
    expect(await progressOf('bob')).toEqual({ progress: 'COMPLETED', state: 'DONE' });
    // Previous passes over the pages this learner never saw, too.
    const back = ok(await send('POST', '/pages/previous', { fromPageId: last.data.id }));
    expect(title(back)).toBe('Help');
    const pages = await t.db
      .selectFrom('lessonPages as p')
      .innerJoin('lessons as l', 'l.id', 'p.lessonId')
      .innerJoin('users as u', 'u.id', 'l.userId')
      .select('p.nodeId')
      .where('u.email', '=', 'bob@branch.test')
      .execute();
    expect(pages).toHaveLength(3);
  });

  it('offline, a page with conditions needs the network: only the server decides it (decision 0013)', async () => {
    const { lessonId } = await learner('cy');
    const login = await app.inject({
      method: 'POST',
      url: '/api/users/login',
      headers: { host: HOST },
      payload: { email: 'cy@branch.test', password: PASSWORD },
    });
    const token = (login.json() as { access_token: string }).access_token;
    const res = await app.inject({
      method: 'GET',
      url: `/api/offline/lessons/${lessonId}/pages`,
      headers: { host: HOST, authorization: `Bearer ${token}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const pages = (
      res.json() as { data: { attributes: { node: { title: string }; needsNetwork: string | null } }[] }
    ).data;
    expect(pages.map((p) => [p.attributes.node.title, p.attributes.needsNetwork])).toEqual([
      ['Quiz', null],
      ['Help', 'conditions'],
      ['Going further', 'conditions'],
      ['Bonus', 'conditions'],
      ['The end', null],
    ]);
  });

  it('refuses a condition on a node read later, with its path', async () => {
    const root = tenantFolder(course(', conditions: [{ node: n-end }]'));
    const report = await importFolder(t.db, root, { filesDir, now: clock.now() });
    rmSync(root, { recursive: true, force: true });
    expect(report.errors).toEqual([
      expect.objectContaining({
        path: 'tree.children[0].children[0].conditions[0].node',
        message: expect.stringContaining('n-end'),
      }),
    ]);
  });
});
