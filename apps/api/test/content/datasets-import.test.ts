import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFolder } from '../../src/content/importer';
import type { TestDb } from './helpers';
import { openTestDb } from './helpers';

/**
 * Parametrised blocks at import (issue 27 item 2, decision 0042): a formula outside the safe
 * subset, an unknown name, a `{{name}}` that names nothing, a formula that divides by zero on
 * some draw or gives no choice index fail the import with the file and the path; nothing is
 * written. A good block is stored with its formulas on the server side only.
 */
let t: TestDb;
let dir: string;

const SETTINGS = `
settings:
  defaultLocale: fr
  login: { internal: true, oidc: null }
  invitationCodes: { enabled: false, simplePassword: false }
  certification: { allowed: false, type: certification }
  allowContactTeacher: true
  profile: { fields: { firstname: true, lastname: true, email: true, username: false, birthday: false } }
  requiredDatas: false
  emailNotifications: false
  demoVideoUrl: null
  legal: { cgu: null, rgpd: null }
`;

function folder(blocks: string): string {
  const root = mkdtempSync(path.join(tmpdir(), 'parcours-datasets-'));
  const t = path.join(root, 'tenants', 'ds');
  mkdirSync(path.join(t, 'courses'), { recursive: true });
  writeFileSync(
    path.join(t, 'tenant.yaml'),
    `alias: ds\nname: Datasets\nhostnames: [ds.test]\ncategories: [{ id: cat, title: Cat }]\n${SETTINGS}`,
  );
  writeFileSync(
    path.join(t, 'courses', 'c.yaml'),
    `id: c1\ntitle: Course\ncategory: cat\nblocks:\n${blocks}\ntree:\n  children:\n    - id: s1\n      children:\n        - { id: n1, block: b1 }\n`,
  );
  return root;
}

const block = (extra: string, rows: string, statement = '<p>{{a}} and {{b}}</p>') => `
  - id: b1
    title: Q
    type: exercice
${extra}
    statement: { html: '${statement}' }
    sections:
      - rows:
${rows}`;

const FREE = (formula: string) => `
          - type: free-answer
            expected: { formula: '${formula}', tolerance: 0.01 }`;
const CHOICE = (formula: string) => `
          - type: combined-choice
            choices: [{ value: 'x' }, { value: 'y' }]
            expected: { formula: '${formula}' }`;
const DATASETS = `    datasets:
      a: { values: [0, 1, 2] }
      b: { min: 1, max: 5 }`;

beforeAll(async () => {
  t = await openTestDb();
});
afterAll(async () => {
  await t.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('importing parametrised blocks', () => {
  it.each([
    [
      'code in a formula',
      DATASETS,
      FREE('evaluate("1")'),
      'blocks[0].sections[0].rows[0].expected.formula',
      /unknown function evaluate/,
    ],
    [
      'an assignment',
      DATASETS,
      FREE('a = 2'),
      'blocks[0].sections[0].rows[0].expected.formula',
      /assignment/,
    ],
    [
      'a property read',
      DATASETS,
      FREE('a.constructor'),
      'blocks[0].sections[0].rows[0].expected.formula',
      /accessor/,
    ],
    [
      'an unknown name',
      DATASETS,
      FREE('a + c'),
      'blocks[0].sections[0].rows[0].expected.formula',
      /unknown value c/,
    ],
    [
      'a division by zero on some draw',
      DATASETS,
      FREE('b / a'),
      'blocks[0].sections[0].rows[0].expected.formula',
      /Infinity|NaN/,
    ],
    [
      'no choice index',
      DATASETS,
      CHOICE('a + b'),
      'blocks[0].sections[0].rows[0].expected.formula',
      /not a choice index/,
    ],
    [
      'a bad computed value',
      `${DATASETS}\n    datasetsComputed: { s: 'a +' }`,
      FREE('a'),
      'blocks[0].datasetsComputed.s',
      /cannot read/,
    ],
    [
      'a formula without datasets',
      '',
      FREE('1'),
      'blocks[0].sections[0].rows[0].expected.formula',
      /needs the block to have datasets/,
    ],
    [
      'a placeholder that names nothing',
      DATASETS,
      FREE('a'),
      'blocks[0].statement.html',
      /\{\{zz\}\} names no variable/,
      '<p>{{zz}}</p>',
    ],
  ])('refuses %s, with its path', async (_what, extra, rows, where, message, statement?: string) => {
    dir = folder(block(extra, rows, statement));
    const report = await importFolder(t.db, dir, { filesDir: t.filesDir });
    rmSync(dir, { recursive: true, force: true });
    expect(report.ok).toBe(false);
    const issue = report.errors.find((e) => e.path === where);
    expect(issue, JSON.stringify(report.errors)).toBeDefined();
    expect(issue!.file).toBe('tenants/ds/courses/c.yaml');
    expect(issue!.message).toMatch(message);
    expect(await t.db.selectFrom('courseBlocks').select('id').execute()).toEqual([]);
  });

  it('stores a good block: value names in the content, formulas in the solution only', async () => {
    dir = folder(
      block(
        `${DATASETS}\n    datasetsComputed: { s: 'a + b' }`,
        `${FREE('s * 2')}${CHOICE('a > 1 ? 0 : 1')}`,
      ),
    );
    const report = await importFolder(t.db, dir, { filesDir: t.filesDir });
    expect(report.errors).toEqual([]);
    const row = await t.db
      .selectFrom('courseBlocks')
      .select(['content', 'solution'])
      .executeTakeFirstOrThrow();
    const content = JSON.parse(row.content) as { datasetNames: string[] };
    expect(content.datasetNames).toEqual(['a', 'b']);
    expect(row.content).not.toMatch(/formula|s \* 2|datasetsComputed/);
    expect(JSON.parse(row.solution)).toMatchObject({
      parameters: {
        datasets: { a: { values: [0, 1, 2] }, b: { min: 1, max: 5, step: 1 } },
        computed: { s: 'a + b' },
      },
      validators: [
        { type: 'free-answer', formula: 's * 2', expected: { kind: 'number', tolerance: 0.01 } },
        { type: 'combined-choice', formula: 'a > 1 ? 0 : 1' },
      ],
    });
  });
});
