import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gradePage, pageRows } from '@parcours/domain/exercises/grade-page';
import { parsePreviewMessage } from '@parcours/domain/window-messages';
import { buildAuthoringServer, folderVersion } from '../../src/authoring/server';

/** The content preview tool on a copy of the demo folder: what it lists, builds and reports. */
const DEMO = path.resolve(import.meta.dirname, '../../../../content/demo');
let dir: string;
let app: Awaited<ReturnType<typeof buildAuthoringServer>>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'parcours-author-'));
  cpSync(DEMO, dir, { recursive: true });
  app = await buildAuthoringServer({ contentDir: dir, appUrl: 'http://localhost:3000' });
});
afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Entry {
  key: string;
  type: string;
  rowTypes: string[];
  title: string;
}

async function blocks(): Promise<{
  version: string;
  issues: { file: string; path: string; message: string }[];
  blocks: Entry[];
}> {
  return (await app.inject({ url: '/api/blocks' })).json();
}

describe('the content preview tool', () => {
  it('serves its page and lists every demo block with no import problem', async () => {
    const page = await app.inject({ url: '/' });
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('Aperçu des contenus');
    // In the browser's language, from the server's catalogues (issue 40 item 4).
    const english = await app.inject({ url: '/', headers: { 'accept-language': 'en-GB,en;q=0.8' } });
    expect(english.body).toContain('<html lang="en">');
    expect(english.body).toContain('Content preview');
    expect(english.body).not.toContain('Aperçu');
    const list = await blocks();
    expect(list.issues).toEqual([]);
    const rowTypes = new Set(list.blocks.flatMap((b) => b.rowTypes));
    for (const t of [
      'multiple-choice',
      'combined-choice',
      'free-answer',
      'drag-n-drop',
      'pick-words',
      'image-cliquable',
    ]) {
      expect(rowTypes.has(t)).toBe(true);
    }
  });

  it('builds a payload that /preview accepts and that the domain graders grade', async () => {
    const list = await blocks();
    const exercise = list.blocks.find((b) => b.rowTypes.includes('multiple-choice'))!;
    const res = await app.inject({ url: `/api/blocks/${encodeURIComponent(exercise.key)}` });
    expect(res.statusCode).toBe(200);
    const message = parsePreviewMessage({ origin: 'http://localhost:3300', data: res.json() }, [
      'http://localhost:3300',
    ]);
    expect(message.kind).toBe('block');
    if (message.kind !== 'block') return;
    expect(message.block.title).toBe(exercise.title);
    const rows = pageRows(message.block.content as Parameters<typeof pageRows>[0]);
    const grade = gradePage({
      rows,
      solution: message.block.solution,
      answers: rows.map(() => null),
      hintsUsed: 0,
      hintCosts: [],
      settings: message.settings,
    });
    expect(grade.score.max).toBeGreaterThan(0);
    expect((await app.inject({ url: '/api/blocks/nope%7Cnope%7Cnope' })).statusCode).toBe(404);
  });

  it('reports a broken block with its file and path, and changes version when a file changes', async () => {
    const before = folderVersion(dir);
    const file = path.join(dir, 'tenants/fr/courses/maths-fractions.yaml');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('type: slide', 'type: diaporama'));
    const after = await blocks();
    expect(after.version).not.toBe(before);
    expect(after.issues).toEqual([
      expect.objectContaining({
        file: 'tenants/fr/courses/maths-fractions.yaml',
        path: expect.stringMatching(/^blocks\[\d+\]\.type$/),
      }),
    ]);
    writeFileSync(file, text);
    expect((await blocks()).issues).toEqual([]);
  });
});
