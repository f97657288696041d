import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFolder } from '../../src/content/importer';
import type { ImportReport } from '../../src/content/importer';
import type { TestDb } from './helpers';
import { openTestDb } from './helpers';

let t: TestDb;
let dir: string;
let report: ImportReport;

function write(rel: string, text: string): void {
  const full = path.join(dir, rel);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, text);
}

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

beforeAll(async () => {
  t = await openTestDb();
  dir = mkdtempSync(path.join(tmpdir(), 'parcours-broken-'));
  // A valid tenant, so that its rows would be written if the importer did not stop on errors.
  write(
    'tenants/ok/tenant.yaml',
    `alias: ok\nname: Valid\nhostnames: [ok.test]\ncategories: [{ id: cat, title: Cat }]\n${SETTINGS}`,
  );
  write(
    'tenants/ok/courses/c.yaml',
    `
id: c1
title: Course
category: nope
blocks:
  - id: b1
    title: Q
    type: exercice
    sections:
      - rows:
          - type: multiple-choice
            choices: [{ value: a }, { value: b }]
            expected: [0, 5]
          - type: drag-n-drop
            choices: [{ value: a }]
            targets: [{ value: x }, { value: y }]
            expected: [[0]]
          - type: image-cliquable
            image: media/missing.png
            viewBox: { width: 808, height: 100 }
            zones: [{ shape: circle, cx: 10, cy: 10, r: 5, label: a }, { shape: circle, cx: 900, cy: 10, r: 5, label: b }]
            expected: [1]
          - type: pick-words
            text: nothing marked here
  - id: b1
    title: Duplicate
    type: slide
tree:
  children:
    - id: s1
      children:
        - { id: n1, block: b1 }
        - { id: n2, block: ghost }
`,
  );
  write('tenants/ok/programs.yaml', 'programs:\n  - { id: p1, name: P, courses: [c1, unknown-course] }\n');
  write(
    'tenants/ok/classes.yaml',
    'classes:\n  - id: k1\n    name: K\n    startAt: yesterday\n    programs: [{ program: p1 }]\n    users: [{ user: nobody, role: STUDENT }]\n',
  );
  write(
    'tenants/bad/tenant.yaml',
    `alias: Bad Alias\nname: ''\nhostnames: [ok.test]\n${SETTINGS.replace('defaultLocale: fr', 'defaultLocale: de')}`,
  );
  write('tenants/yaml/tenant.yaml', 'alias: [unclosed\n');
  report = await importFolder(t.db, dir, { filesDir: t.filesDir });
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a broken content folder', () => {
  it('reports every error with its file and path', () => {
    expect(report.ok).toBe(false);
    const lines = report.errors.map((e) => `${e.file}: ${e.path}`);
    const c = 'tenants/ok/courses/c.yaml';
    expect(lines).toEqual(
      expect.arrayContaining([
        `${c}: category`,
        `${c}: blocks[0].sections[0].rows[0].expected[1]`,
        `${c}: blocks[0].sections[0].rows[1].expected`,
        `${c}: blocks[0].sections[0].rows[2].zones[1]`,
        `${c}: blocks[0].sections[0].rows[2].image`,
        `${c}: blocks[0].sections[0].rows[3].text`,
        `${c}: blocks[1].id`,
        `${c}: tree.children[0].children[1].block`,
        'tenants/ok/programs.yaml: programs[0].courses[1]',
        'tenants/ok/classes.yaml: classes[0].startAt',
        'tenants/bad/tenant.yaml: alias',
        'tenants/bad/tenant.yaml: name',
        'tenants/bad/tenant.yaml: settings.defaultLocale',
      ]),
    );
    expect(
      report.errors.find((e) => e.path === 'blocks[0].sections[0].rows[0].expected[1]')?.message,
    ).toMatch(/out of range/);
    expect(report.errors.find((e) => e.path === 'blocks[0].sections[0].rows[2].image')?.message).toMatch(
      /not found: media\/missing\.png/,
    );
    expect(report.errors.some((e) => e.file === 'tenants/yaml/tenant.yaml' && /line \d+/.test(e.path))).toBe(
      true,
    );
  });

  it('reports the cross-file errors once the files themselves are valid', async () => {
    // classes.yaml failed its schema (bad date), so the unknown user is only found on a second pass.
    write(
      'tenants/ok/classes.yaml',
      'classes:\n  - id: k1\n    name: K\n    programs: [{ program: p1 }]\n    users: [{ user: nobody, role: STUDENT }]\n',
    );
    const again = await importFolder(t.db, dir, { filesDir: t.filesDir });
    expect(again.errors).toContainEqual({
      file: 'tenants/ok/classes.yaml',
      path: 'classes[0].users[0].user',
      message: 'unknown user "nobody"',
    });
  });

  it('writes nothing at all', async () => {
    for (const table of [
      'contexts',
      'contextHostnames',
      'courses',
      'courseBlocks',
      'programs',
      'classes',
      'files',
    ] as const) {
      const rows = await t.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect({ table, n: Number(rows.n) }).toEqual({ table, n: 0 });
    }
    expect(report.changes).toEqual({});
  });
});
