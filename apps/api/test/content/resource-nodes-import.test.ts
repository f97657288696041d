import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFolder } from '../../src/content/importer';
import { stableId } from '../../src/lib/ids';
import type { TestDb } from './helpers';
import { openTestDb, TENANT_SETTINGS_YAML } from './helpers';

/** Resource nodes under a block (docs/product.md §3): what the importer accepts and what it refuses, and where. */
let t: TestDb;
let dir: string;

const TENANT = `alias: res
name: Resources
hostnames: [res.test]
categories: [{ id: cat, title: Cat }]
${TENANT_SETTINGS_YAML}`;

const BLOCKS = `blocks:
  - { id: page, title: Page, type: slide }
  - { id: sheet, title: Sheet, type: slide }
  - id: quiz
    title: Quiz
    type: exercice
    sections: [{ rows: [{ type: combined-choice, choices: [{ value: a }, { value: b }], expected: 0 }] }]
`;

function course(resource: string): string {
  return `id: c\ntitle: C\ncategory: cat\n${BLOCKS}tree:\n  children:\n    - id: s1\n      children:\n        - id: n1\n          block: page\n          children:\n            - ${resource}\n`;
}

async function importWith(resource: string) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, 'tenants/res/courses'), { recursive: true });
  writeFileSync(path.join(dir, 'tenants/res/tenant.yaml'), TENANT);
  writeFileSync(path.join(dir, 'tenants/res/courses/c.yaml'), course(resource));
  return importFolder(t.db, dir, { filesDir: t.filesDir });
}

beforeAll(async () => {
  t = await openTestDb();
  dir = mkdtempSync(path.join(tmpdir(), 'parcours-resources-'));
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const AT = 'tree.children[0].children[0].children[0]';

describe('resource nodes under a block node', () => {
  it.each([
    ['no block', '{ id: r1, title: Loose }', `${AT}.block`, /needs a block id/],
    ['an unknown block', '{ id: r1, block: ghost }', `${AT}.block`, /unknown block "ghost"/],
    [
      'an exercise block',
      '{ id: r1, block: quiz }',
      `${AT}.block`,
      /a resource is a slide block, not exercice/,
    ],
    ['a multiblock type', '{ id: r1, type: multiblock, block: sheet }', `${AT}.type`, /is a block node/],
    [
      'children of its own',
      '{ id: r1, block: sheet, children: [{ id: r2, block: sheet }] }',
      `${AT}.children`,
      /has no children/,
    ],
    [
      'a time limit',
      '{ id: r1, block: sheet, settings: { timeLimit: 30 } }',
      `${AT}.settings.timeLimit`,
      /no time limit/,
    ],
    ['a duplicate node id', '{ id: n1, block: sheet }', `${AT}.id`, /duplicate node id "n1"/],
  ])('refuses a resource with %s, naming the path', async (_case, resource, at, message) => {
    const report = await importWith(resource);
    expect(report.ok).toBe(false);
    const issue = report.errors.find((e) => e.path === at);
    expect(issue, JSON.stringify(report.errors)).toBeDefined();
    expect(issue!.message).toMatch(message);
  });

  it('imports a slide resource as a block node under the block node, not a page of its section', async () => {
    const report = await importWith('{ id: r1, block: sheet, attachments: [] }');
    expect(report.errors).toEqual([]);
    const nodes = await t.db
      .selectFrom('courseNodes')
      .select(['id', 'parentId', 'type', 'blockId'])
      .execute();
    const page = nodes.find((n) => n.id === stableId('res', 'node', 'c', 'n1'))!;
    const resource = nodes.find((n) => n.parentId === page.id)!;
    expect(resource).toMatchObject({ type: 'block', blockId: stableId('res', 'block', 'sheet') });
    expect(nodes.filter((n) => n.parentId === page.parentId).map((n) => n.id)).toEqual([page.id]);
  });
});
