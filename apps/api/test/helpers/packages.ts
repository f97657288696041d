import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import yazl from 'yazl';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app';
import { importFolder } from '../../src/content/importer';
import { diskStore } from '../../src/files/store';
import { buildPackagesApp } from '../../src/modules/packages/origin';
import { testEnv } from './app';
import { createTestDb } from './test-db';
import type { TestDb } from './test-db';
import { tenantSettingsYaml } from '../content/helpers';

/**
 * Package zips made in the tests (issue 31): no binary fixture, every byte written here. A fixed
 * modification time keeps a zip's bytes, so its content address, the same from run to run.
 */
export type Entries = Record<string, string | Buffer>;

export function zipOf(entries: Entries, compress = true): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, data] of Object.entries(entries))
    zip.addBuffer(Buffer.isBuffer(data) ? data : Buffer.from(data), name, {
      compress,
      mtime: new Date('2026-01-01T00:00:00Z'),
    });
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

/** Renames an entry in the zip's bytes (local header and central directory): names no zip writer would write. */
export function renameEntry(zip: Buffer, from: string, to: string): Buffer {
  if (from.length !== to.length) throw new Error('same length only');
  const out = Buffer.from(zip);
  const a = Buffer.from(from);
  let at = out.indexOf(a);
  let n = 0;
  while (at !== -1) {
    Buffer.from(to).copy(out, at);
    n++;
    at = out.indexOf(a, at + 1);
  }
  if (n < 2) throw new Error(`${from} not found twice`);
  return out;
}

/** Makes every header of the zip declare `size` bytes for `name`, whatever it really inflates to. */
export function lieAboutSize(zip: Buffer, name: string, size: number): Buffer {
  const out = Buffer.from(zip);
  const nameBytes = Buffer.from(name);
  for (let i = 0; i < out.length - 4; i++) {
    const sig = out.readUInt32LE(i);
    if (sig === 0x04034b50 && out.subarray(i + 30, i + 30 + nameBytes.length).equals(nameBytes))
      out.writeUInt32LE(size, i + 22);
    if (sig === 0x02014b50 && out.subarray(i + 46, i + 46 + nameBytes.length).equals(nameBytes))
      out.writeUInt32LE(size, i + 24);
  }
  return out;
}

const page = (title: string, script = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><script>${script}</script></body></html>`;

export function scorm12Entries(opts: { masteryScore?: number; schemaVersion?: string | null } = {}): Entries {
  const version = opts.schemaVersion === undefined ? '1.2' : opts.schemaVersion;
  return {
    'imsmanifest.xml': `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="quiz12" version="1" xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  ${version === null ? '' : `<metadata><schema>ADL SCORM</schema><schemaversion>${version}</schemaversion></metadata>`}
  <organizations default="org">
    <organization identifier="org">
      <title>Fire quiz (SCORM 1.2)</title>
      <item identifier="sco-1" identifierref="res-1">
        <title>Quiz</title>
        ${opts.masteryScore === undefined ? '' : `<adlcp:masteryscore>${opts.masteryScore}</adlcp:masteryscore>`}
        <adlcp:datafromlms>level=2</adlcp:datafromlms>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="res-1" type="webcontent" adlcp:scormtype="sco" href="sco/index.html">
      <file href="sco/index.html"/>
    </resource>
  </resources>
</manifest>`,
    'sco/index.html': page('Quiz 1.2'),
    'sco/style.css': 'body { font-family: sans-serif }',
  };
}

export function scorm2004Entries(): Entries {
  return {
    'imsmanifest.xml': `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="quiz2004" version="1" xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3" xmlns:imsss="http://www.imsglobal.org/xsd/imsss" xml:base="content/">
  <metadata><schema>ADL SCORM</schema><schemaversion>2004 4th Edition</schemaversion></metadata>
  <organizations default="org">
    <organization identifier="org">
      <title>Fire quiz (SCORM 2004)</title>
      <item identifier="sco-1" identifierref="res-1" parameters="?start=1">
        <title>Quiz</title>
        <adlcp:completionThreshold completedByMeasure="true" minProgressMeasure="0.8"/>
        <imsss:sequencing>
          <imsss:objectives>
            <imsss:primaryObjective objectiveID="pass" satisfiedByMeasure="true">
              <imsss:minNormalizedMeasure>0.7</imsss:minNormalizedMeasure>
            </imsss:primaryObjective>
          </imsss:objectives>
        </imsss:sequencing>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="res-1" type="webcontent" adlcp:scormType="sco" href="index.html">
      <file href="index.html"/>
    </resource>
  </resources>
</manifest>`,
    'content/index.html': page('Quiz 2004'),
  };
}

export function cmi5Entries(moveOn = 'Passed', masteryScore: string | null = '0.7'): Entries {
  return {
    'cmi5.xml': `<?xml version="1.0" encoding="utf-8"?>
<courseStructure xmlns="https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd">
  <course id="https://example.org/courses/fire">
    <title><langstring lang="en-US">Fire course (cmi5)</langstring></title>
    <description><langstring lang="en-US">A cmi5 course.</langstring></description>
  </course>
  <au id="https://example.org/courses/fire/au/1" moveOn="${moveOn}"${masteryScore === null ? '' : ` masteryScore="${masteryScore}"`}>
    <title><langstring lang="en-US">Fire quiz</langstring></title>
    <description><langstring lang="en-US">The quiz.</langstring></description>
    <url>au/index.html?lang=en</url>
    <launchParameters>mode=quiz</launchParameters>
  </au>
</courseStructure>`,
    'au/index.html': page('cmi5 AU'),
  };
}

export function xapiEntries(): Entries {
  return {
    'tincan.xml': `<?xml version="1.0" encoding="utf-8"?>
<tincan xmlns="http://projecttincan.com/tincan.xsd">
  <activities>
    <activity id="https://example.org/activities/fire-module" type="http://adlnet.gov/expapi/activities/course">
      <name>Fire module (xAPI)</name>
      <description lang="en-US">An xAPI module.</description>
      <launch lang="en-us">index.html</launch>
    </activity>
  </activities>
</tincan>`,
    'index.html': page('xAPI module'),
  };
}

export const PK_HOST = 'pk.test';
export const PK_PASSWORD = 'Learner#2026';
export const PACKAGES_ORIGIN = 'http://packages.pk.test';

const TENANT = `
alias: pk
name: Package School
hostnames: [${PK_HOST}]
hosts: { app: 'http://${PK_HOST}' }
categories: [{ id: safety, title: Safety }]
${tenantSettingsYaml({ defaultLocale: 'en', certification: 'attestation' })}`;

/** One course per package kind; its only page plays the package. */
export const PACKAGE_COURSES = {
  scorm12: 'packages/scorm12.zip',
  scorm2004: 'packages/scorm2004.zip',
  cmi5: 'packages/cmi5.zip',
  xapi: 'packages/xapi.zip',
} as const;
export type Kind = keyof typeof PACKAGE_COURSES;

export async function writePackageContent(zips: Partial<Record<Kind, Buffer>> = {}): Promise<string> {
  const root = mkdtempSync(path.join(tmpdir(), 'parcours-pk-'));
  const t = path.join(root, 'tenants', 'pk');
  mkdirSync(path.join(t, 'courses'), { recursive: true });
  mkdirSync(path.join(root, 'packages'), { recursive: true });
  writeFileSync(path.join(t, 'tenant.yaml'), TENANT);
  writeFileSync(
    path.join(t, 'users.yaml'),
    `users:
  - { id: ann, email: ann@pk.test, password: '${PK_PASSWORD}', firstname: Ann, lastname: Lee }
  - { id: ben, email: ben@pk.test, password: '${PK_PASSWORD}', firstname: Ben, lastname: Roy }
  - { id: ada, email: ada@pk.test, password: '${PK_PASSWORD}', firstname: Ada, lastname: Admin, roles: [admin] }
  - { id: tom, email: tom@pk.test, password: '${PK_PASSWORD}', firstname: Tom, lastname: Teacher }
  - { id: tia, email: tia@pk.test, password: '${PK_PASSWORD}', firstname: Tia, lastname: Elsewhere }
`,
  );
  const made: Record<Kind, Buffer> = {
    scorm12: zips.scorm12 ?? (await zipOf(scorm12Entries({ masteryScore: 70 }))),
    scorm2004: zips.scorm2004 ?? (await zipOf(scorm2004Entries())),
    cmi5: zips.cmi5 ?? (await zipOf(cmi5Entries())),
    xapi: zips.xapi ?? (await zipOf(xapiEntries())),
  };
  for (const [kind, rel] of Object.entries(PACKAGE_COURSES)) {
    writeFileSync(path.join(root, rel), made[kind as Kind]);
    writeFileSync(
      path.join(t, 'courses', `${kind}.yaml`),
      `id: ${kind}-course
title: ${kind} course
category: safety
blocks:
  - { id: ${kind}-intro, title: Intro, type: slide, sections: [{ rows: [{ type: wysiwyg, html: '<p>Hi</p>' }] }] }
  - id: ${kind}-pkg
    title: The ${kind} package
    type: tincan
    package: ${kind === 'scorm2004' ? `{ path: ${rel}, width: 1024, height: 700 }` : rel}
tree:
  children:
    - { id: s1, title: Section, children: [{ id: p-pkg, block: ${kind}-pkg }, { id: p-intro, block: ${kind}-intro }] }
`,
    );
  }
  writeFileSync(
    path.join(t, 'programs.yaml'),
    `programs:\n  - { id: all, name: All, courses: [${Object.keys(PACKAGE_COURSES)
      .map((k) => `${k}-course`)
      .join(', ')}] }\n`,
  );
  writeFileSync(
    path.join(t, 'classes.yaml'),
    `classes:
  - id: c1
    name: Class one
    startAt: -1d
    expireAt: +30d
    programs: [{ program: all }]
    users: [{ user: ann, role: STUDENT }, { user: ben, role: STUDENT }, { user: tom, role: TEACHER }]
  - id: c2
    name: Class two
    startAt: -1d
    expireAt: +30d
    programs: [{ program: all }]
    users: [{ user: tia, role: TEACHER }]
`,
  );
  return root;
}

export interface PackageWorld {
  t: TestDb;
  app: FastifyInstance;
  packages: FastifyInstance;
  filesDir: string;
  contentDir: string;
  users: { ann: string; ben: string };
  login(who: 'ann' | 'ben' | 'ada' | 'tom' | 'tia'): Promise<string>;
  /** A fresh lesson of the kind's course for `who`, at its package page, with the page's launch. */
  toPackage(
    kind: Kind,
    who?: 'ann' | 'ben',
  ): Promise<{ lessonId: string; pageId: string; launch: string; token: string; page: PageData }>;
  api(
    token: string,
  ): (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) => Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface PageData {
  id: string;
  attributes: {
    answeredAt: string | null;
    timeSpent: number;
    tincanLaunch: string | null;
    results: { score: { actual: number; max: number }; tincan?: { scaled: number } } | null;
    block: { type: string; content: { package?: Record<string, unknown> | null } } | null;
  };
}

export async function startPackageWorld(
  prefix: string,
  now?: () => Date,
  envOverrides: Record<string, string> = {},
  zips: Partial<Record<Kind, Buffer>> = {},
): Promise<PackageWorld> {
  const t = await createTestDb();
  const contentDir = await writePackageContent(zips);
  const filesDir = mkdtempSync(path.join(tmpdir(), `parcours-${prefix}-files-`));
  const report = await importFolder(t.db, contentDir, { filesDir });
  if (!report.ok) throw new Error(`import failed: ${JSON.stringify(report.errors)}`);
  const app = await buildApp({
    env: testEnv({ PACKAGES_ORIGIN: PACKAGES_ORIGIN, ...envOverrides }),
    db: t.db,
    dbKind: t.kind,
    filesDir,
    logger: false,
    ...(now ? { now } : {}),
  });
  await app.ready();
  const packages = await buildPackagesApp({
    db: t.db,
    dbKind: t.kind,
    files: diskStore(filesDir),
    origin: PACKAGES_ORIGIN,
    ...(now ? { now } : {}),
  });
  await packages.ready();
  const userId = async (email: string) =>
    (await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
  const users = { ann: await userId('ann@pk.test'), ben: await userId('ben@pk.test') };
  const tokens = new Map<string, string>();
  const login = async (who: 'ann' | 'ben' | 'ada' | 'tom' | 'tia') => {
    const known = tokens.get(who);
    if (known) return known;
    const res = await app.inject({
      method: 'POST',
      url: '/api/users/login',
      headers: { host: PK_HOST },
      payload: { email: `${who}@pk.test`, password: PK_PASSWORD },
    });
    if (res.statusCode !== 200) throw new Error(res.body);
    const token = (res.json() as { access_token: string }).access_token;
    tokens.set(who, token);
    return token;
  };
  const api =
    (token: string) =>
    (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown): Promise<LightMyRequestResponse> =>
      app.inject({
        method,
        url,
        headers: { host: PK_HOST, authorization: `Bearer ${token}` },
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
  let count = 0;
  const toPackage: PackageWorld['toPackage'] = async (kind, who = 'ann') => {
    const base = await t.db
      .selectFrom('lessons as l')
      .innerJoin('courses as c', 'c.id', 'l.courseId')
      .selectAll('l')
      .where('c.title', '=', `${kind} course`)
      .where('l.userId', '=', users[who])
      .executeTakeFirstOrThrow();
    const id = `${prefix}-${kind}-${++count}`;
    const iso = new Date().toISOString();
    await t.db
      .insertInto('lessons')
      .values({
        id,
        contextId: base.contextId,
        userId: base.userId,
        classId: base.classId,
        classProgramId: null,
        classStepProgramId: null,
        courseId: base.courseId,
        programCourseId: null,
        currentNodeId: null,
        enabledSectionIds: '[]',
        timeLimit: null,
        state: 'AVAILABLE',
        progress: null,
        certificationRef: null,
        startAt: null,
        startedAt: null,
        endedAt: null,
        createdAt: iso,
        updatedAt: iso,
      })
      .execute();
    const token = await login(who);
    const res = await api(token)('GET', `/api/lessons/${id}/pages/current`);
    if (res.statusCode !== 200) throw new Error(res.body);
    const page = (res.json() as { data: PageData }).data;
    const launch = page.attributes.tincanLaunch;
    if (!launch) throw new Error('the package page came without a launch');
    return { lessonId: id, pageId: page.id, launch, token, page };
  };
  return {
    t,
    app,
    packages,
    filesDir,
    contentDir,
    users,
    login,
    toPackage,
    api,
    async close() {
      await packages.close();
      await app.close();
      await t.close();
      rmSync(filesDir, { recursive: true, force: true });
      rmSync(contentDir, { recursive: true, force: true });
    },
  };
}

/** POST /api/packages/launches, then the bridge's key and secret from the URL. */
export async function launchOf(
  w: PackageWorld,
  p: { lessonId: string; pageId: string; launch: string; token: string },
): Promise<{ key: string; secret: string; url: string }> {
  const res = await w.api(p.token)('POST', '/api/packages/launches', {
    lessonId: p.lessonId,
    pageId: p.pageId,
    launch: p.launch,
  });
  if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
  const { url } = res.json() as { url: string };
  const m = /\/launch\/([0-9a-f]{32})#(.+)$/.exec(url);
  if (!m) throw new Error(url);
  return { key: m[1] as string, secret: m[2] as string, url };
}

/** A bridge call on the packages origin. */
export function bridge(w: PackageWorld, key: string, secret: string) {
  return (method: 'GET' | 'POST', path: string, payload?: unknown) =>
    w.packages.inject({
      method,
      url: `/runtime/${key}${path}`,
      headers: { authorization: `Bearer ${secret}` },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
}
