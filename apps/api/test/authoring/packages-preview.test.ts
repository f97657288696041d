import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAuthoringServer } from '../../src/authoring/server';
import { writePackageContent, zipOf } from '../helpers/packages';

/** Issue 31: the content preview tool reads packages as the importer does. */
let dir: string;
let app: Awaited<ReturnType<typeof buildAuthoringServer>>;

beforeAll(async () => {
  dir = await writePackageContent();
  app = await buildAuthoringServer({ contentDir: dir, appUrl: 'http://localhost:3000' });
});
afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('packages in the content preview tool', () => {
  it("shows a package block's kind and title, and reports a bad package with the importer's words", async () => {
    const list = (await app.inject({ url: '/api/blocks' })).json() as {
      issues: unknown[];
      blocks: { key: string; id: string; course: string }[];
    };
    expect(list.issues).toEqual([]);
    const key = list.blocks.find((b) => b.course === 'scorm2004-course' && b.id === 'scorm2004-pkg')!.key;
    const payload = (await app.inject({ url: `/api/blocks/${encodeURIComponent(key)}` })).json() as {
      block: { type: string; content: { package: unknown } };
    };
    expect(payload.block.type).toBe('tincan');
    expect(payload.block.content.package).toEqual({
      id: '',
      kind: 'scorm2004',
      title: 'Fire quiz (SCORM 2004)',
      width: 1024,
      height: 700,
    });

    writeFileSync(path.join(dir, 'packages', 'xapi.zip'), await zipOf({ 'index.html': 'no manifest here' }));
    const after = (await app.inject({ url: '/api/blocks' })).json() as { issues: unknown[] };
    expect(after.issues).toEqual([
      {
        file: path.join('tenants', 'pk', 'courses', 'xapi.yaml'),
        path: 'blocks[1].package',
        message: 'package packages/xapi.zip: no manifest (imsmanifest.xml, cmi5.xml or tincan.xml)',
      },
    ]);
  });
});
