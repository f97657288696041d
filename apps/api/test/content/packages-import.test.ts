import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFolder } from '../../src/content/importer';
import { checkPackage } from '../../src/content/packages/check';
import { DEFAULT_PACKAGE_LIMITS } from '../../src/content/packages/zip';
import type { PackageLimits } from '../../src/content/packages/zip';
import { diskStore } from '../../src/files/store';
import type { FileStore } from '../../src/files/store';
import {
  cmi5Entries,
  lieAboutSize,
  renameEntry,
  scorm12Entries,
  scorm2004Entries,
  writePackageContent,
  xapiEntries,
  zipOf,
} from '../helpers/packages';
import type { Entries } from '../helpers/packages';
import type { TestDb } from './helpers';
import { openTestDb } from './helpers';

/**
 * Issue 31 item 1: the importer reads a package zip whole and refuses a bad one with the reason;
 * good ones are stored content-addressed, once. Every zip is made here (helpers/packages.ts).
 */
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'parcours-pkg-check-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
async function check(zip: Buffer, limits: PackageLimits = DEFAULT_PACKAGE_LIMITS) {
  const file = path.join(dir, `p${++n}.zip`);
  writeFileSync(file, zip);
  return checkPackage(file, limits);
}

const manifest12 = (body: string) => ({
  ...scorm12Entries(),
  'imsmanifest.xml': body,
});

describe('package manifests', () => {
  const good: [string, () => Promise<Buffer>, Record<string, unknown>][] = [
    [
      'SCORM 1.2 by schemaversion',
      () => zipOf(scorm12Entries({ masteryScore: 70 })),
      {
        kind: 'scorm12',
        title: 'Fire quiz (SCORM 1.2)',
        entry: 'sco/index.html',
        scorm: expect.objectContaining({
          item: 'sco-1',
          masteryScore: 70,
          launchData: 'level=2',
          schemaVersion: '1.2',
        }),
      },
    ],
    [
      'SCORM 1.2 by its namespace when schemaversion is missing',
      () => zipOf(scorm12Entries({ schemaVersion: null })),
      { kind: 'scorm12', entry: 'sco/index.html' },
    ],
    [
      'SCORM 2004 4th edition: xml:base, parameters, passing score and completion threshold',
      () => zipOf(scorm2004Entries()),
      {
        kind: 'scorm2004',
        title: 'Fire quiz (SCORM 2004)',
        entry: 'content/index.html?start=1',
        scorm: expect.objectContaining({
          scaledPassingScore: 0.7,
          completionThreshold: 0.8,
          schemaVersion: '2004 4th Edition',
        }),
      },
    ],
    [
      'cmi5: the first AU, moveOn, masteryScore, launch parameters',
      () => zipOf(cmi5Entries()),
      {
        kind: 'cmi5',
        title: 'Fire course (cmi5)',
        entry: 'au/index.html?lang=en',
        cmi5: expect.objectContaining({
          courseId: 'https://example.org/courses/fire',
          auId: 'https://example.org/courses/fire/au/1',
          moveOn: 'Passed',
          masteryScore: 0.7,
          launchParameters: 'mode=quiz',
          auCount: 1,
        }),
      },
    ],
    [
      'xAPI tincan.xml: the activity with a launch',
      () => zipOf(xapiEntries()),
      {
        kind: 'xapi',
        title: 'Fire module (xAPI)',
        entry: 'index.html',
        xapi: { activityId: 'https://example.org/activities/fire-module' },
      },
    ],
  ];
  it.each(good)('reads %s', async (_name, make, expected) => {
    const result = await check(await make());
    expect(result).toMatchObject({ ok: true, summary: expected });
    if (result.ok) expect(result.summary.id).toMatch(/^[0-9a-f]{32}$/);
  });

  const small: PackageLimits = { maxBytes: 64 * 1024, maxFiles: 4, maxRatio: 100 };
  const bad: [string, () => Promise<Buffer>, RegExp, PackageLimits?][] = [
    [
      'no manifest',
      () => zipOf({ 'index.html': '<p>hi</p>' }),
      /^no manifest \(imsmanifest\.xml, cmi5\.xml or tincan\.xml\)$/,
    ],
    [
      'a manifest inside a folder',
      () =>
        zipOf({
          'course/imsmanifest.xml': scorm12Entries()['imsmanifest.xml'] as string,
          'course/sco/index.html': 'x',
        }),
      /no manifest at the package's root \(found "course\/imsmanifest\.xml"/,
    ],
    [
      'an unknown schema version',
      async () => zipOf(scorm12Entries({ schemaVersion: '2.0' })),
      /unknown schema version "2\.0"/,
    ],
    [
      'no schema version and no ADL namespace',
      () =>
        zipOf(
          manifest12(
            '<manifest identifier="m"><organizations default="o"><organization identifier="o"><item identifier="i" identifierref="r"/></organization></organizations><resources><resource identifier="r" href="sco/index.html"/></resources></manifest>',
          ),
        ),
      /unknown schema version: imsmanifest\.xml has no schemaversion and no ADL namespace/,
    ],
    [
      'a launch file missing',
      () =>
        zipOf({
          ...scorm12Entries(),
          'imsmanifest.xml': (scorm12Entries()['imsmanifest.xml'] as string).replace(
            'href="sco/index.html"',
            'href="sco/start.html"',
          ),
        }),
      /launch file missing: "sco\/start\.html" \(resource "res-1"\) is not in the package/,
    ],
    [
      // An AU elsewhere is accepted (issue 39, decision 0062); one whose URL already holds a
      // launch parameter is not (cmi5 §8.1).
      'a cmi5 AU whose URL already holds endpoint',
      () =>
        zipOf({
          ...cmi5Entries(),
          'cmi5.xml': (cmi5Entries()['cmi5.xml'] as string).replace(
            'au/index.html?lang=en',
            'au/index.html?endpoint=https://lrs.example',
          ),
        }),
      /the URL of AU ".*" already has "endpoint" in its query/,
    ],
    [
      'a launch escaping the package through xml:base',
      () =>
        zipOf({
          ...scorm2004Entries(),
          'imsmanifest.xml': (scorm2004Entries()['imsmanifest.xml'] as string).replace(
            'xml:base="content/"',
            'xml:base="../"',
          ),
        }),
      /a path escaping the package in the launch/,
    ],
    [
      'an entry named ../',
      async () =>
        renameEntry(await zipOf({ ...xapiEntries(), 'aa/evil.html': 'x' }), 'aa/evil.html', '../evil.html'),
      /a path escaping the package/,
    ],
    [
      'an absolute entry name',
      async () =>
        renameEntry(await zipOf({ ...xapiEntries(), xetc_passwd: 'x' }), 'xetc_passwd', '/etc_passwd'),
      /a path escaping the package \(absolute path/,
    ],
    [
      'a backslash in an entry name',
      async () =>
        renameEntry(await zipOf({ ...xapiEntries(), 'a_evil.html': 'x' }), 'a_evil.html', 'a\\evil.html'),
      /a path escaping the package/,
    ],
    [
      'more files than allowed',
      () => zipOf({ ...xapiEntries(), 'a.txt': 'a', 'b.txt': 'b', 'c.txt': 'c' }),
      /more than 4 files/,
      small,
    ],
    [
      'more bytes than allowed',
      () => zipOf({ ...xapiEntries(), 'big.bin': Buffer.alloc(100 * 1024, 7) }, false),
      /more than 0\.1 MB/,
      small,
    ],
    [
      'a zip bomb: far more inflated than compressed',
      () => zipOf({ ...xapiEntries(), 'zeros.bin': Buffer.alloc(3 * 1024 * 1024) }),
      /a zip bomb: "zeros\.bin" inflates \d+ times \(at most 100\)/,
    ],
    [
      'a zip bomb: an entry larger than its headers declare',
      async () =>
        lieAboutSize(await zipOf({ ...xapiEntries(), 'data.txt': 'x'.repeat(5000) }), 'data.txt', 10),
      /a zip bomb/,
    ],
    [
      'not a zip at all',
      async () => Buffer.from('this is not a zip file, only text'),
      /not a readable zip file/,
    ],
    [
      'XML entities in the manifest',
      () =>
        zipOf(
          manifest12('<?xml version="1.0"?><!DOCTYPE m [<!ENTITY a "aaaaaaaaaa">]><manifest>&a;</manifest>'),
        ),
      /imsmanifest\.xml declares XML entities/,
    ],
    [
      'a manifest that is not XML',
      () => zipOf(manifest12('<manifest><organizations></manifest>')),
      /imsmanifest\.xml is not well-formed XML/,
    ],
    ['an unknown cmi5 moveOn', () => zipOf(cmi5Entries('Whenever')), /cmi5\.xml: unknown moveOn "Whenever"/],
  ];
  it.each(bad)('refuses %s', async (_name, make, message, limits) => {
    const result = await check(await make(), limits);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });
});

describe('importing packages', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await openTestDb();
  });
  afterAll(async () => t?.close());

  it('refuses a folder with a bad package, saying where and why, and writes nothing', async () => {
    const content = await writePackageContent({ cmi5: await zipOf({ 'index.html': 'x' } satisfies Entries) });
    try {
      const report = await importFolder(t.db, content, { filesDir: t.filesDir });
      expect(report.ok).toBe(false);
      expect(report.errors).toEqual([
        {
          file: path.join('tenants', 'pk', 'courses', 'cmi5.yaml'),
          path: 'blocks[1].package',
          message: 'package packages/cmi5.zip: no manifest (imsmanifest.xml, cmi5.xml or tincan.xml)',
        },
      ]);
      expect(await t.db.selectFrom('contexts').select('id').execute()).toEqual([]);
    } finally {
      rmSync(content, { recursive: true, force: true });
    }
  });

  it('stores each package once, content-addressed, and imports the same folder again without a change', async () => {
    const content = await writePackageContent();
    const puts: string[] = [];
    const disk = diskStore(t.filesDir);
    const counting: FileStore = {
      ...disk,
      put: (key, body, type) => (puts.push(key), disk.put(key, body, type)),
    };
    try {
      const first = await importFolder(t.db, content, { filesDir: t.filesDir, store: counting });
      expect(first.errors).toEqual([]);
      const blocks = await t.db
        .selectFrom('courseBlocks')
        .select(['type', 'content', 'solution'])
        .where('type', '=', 'tincan')
        .execute();
      const pkgs = blocks
        .map((b) => JSON.parse(b.content).package)
        .sort((a, b) => a.kind.localeCompare(b.kind));
      expect(pkgs.map((p) => [p.kind, p.width, p.height])).toEqual([
        ['cmi5', null, null],
        ['scorm12', null, null],
        ['scorm2004', 1024, 700],
        ['xapi', null, null],
      ]);
      // Nothing of the manifest that a learner does not need: no launch path, no settings.
      // A cmi5 course's units (their titles and windows, issue 39) are what the player lists.
      for (const p of pkgs)
        expect(Object.keys(p).sort()).toEqual(
          p.kind === 'cmi5'
            ? ['height', 'id', 'kind', 'title', 'units', 'width']
            : ['height', 'id', 'kind', 'title', 'width'],
        );
      expect(pkgs.find((p) => p.kind === 'cmi5').units).toEqual([{ title: 'Fire quiz', ownWindow: false }]);
      const scorm = pkgs.find((p) => p.kind === 'scorm12');
      const context = (await t.db.selectFrom('contexts').select('id').executeTakeFirstOrThrow()).id;
      const folder = `packages/${context}/${scorm.id}`;
      expect(puts).toContain(`${folder}/sco/index.html`);
      // The summary is written last: its presence says the package is whole.
      const own = puts.filter((k) => k.startsWith(folder));
      expect(own.at(-1)).toBe(`${folder}.json`);
      expect(JSON.parse((await disk.read(`${folder}.json`))!.toString())).toMatchObject({
        id: scorm.id,
        kind: 'scorm12',
        entry: 'sco/index.html',
        files: 3,
      });

      puts.length = 0;
      const second = await importFolder(t.db, content, { filesDir: t.filesDir, store: counting });
      expect(second.errors).toEqual([]);
      expect(puts.filter((k) => k.startsWith('packages/'))).toEqual([]);
      for (const [table, c] of Object.entries(second.changes))
        expect({ table, created: c.created, updated: c.updated }).toEqual({ table, created: 0, updated: 0 });
    } finally {
      rmSync(content, { recursive: true, force: true });
    }
  });
});
