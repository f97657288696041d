import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlockSolution } from '../../src/content/format';
import { normaliseFreeAnswer } from '../../src/content/format';
import { importFolder } from '../../src/content/importer';
import { parseJson } from '../../src/db/schema';
import type { TestDb } from './helpers';
import { DEMO, openTestDb, walkJson } from './helpers';

// Keys that carry answers or answer-tied feedback: allowed in `solution` only.
const FORBIDDEN_KEYS = new Set([
  'expected',
  'correct',
  'incorrect',
  'isCorrect',
  'solution',
  'validators',
  'accept',
  'tolerance',
  'answers',
  'positions',
  'feedback',
  'feedbacks',
  'match',
  'when',
]);

let t: TestDb;
let blocks: {
  id: string;
  title: string;
  type: string;
  content: string;
  settings: string;
  solution: string;
}[];

beforeAll(async () => {
  t = await openTestDb();
  const report = await importFolder(t.db, DEMO, { filesDir: t.filesDir });
  expect(report.errors).toEqual([]);
  blocks = await t.db
    .selectFrom('courseBlocks')
    .select(['id', 'title', 'type', 'content', 'settings', 'solution'])
    .execute();
});
afterAll(async () => t.close());

describe('the expected answers stay in solution', () => {
  it('no imported demo block shows an answer key in content or settings', () => {
    expect(blocks.length).toBeGreaterThan(20);
    const leaks: string[] = [];
    for (const b of blocks) {
      for (const [col, text] of [
        ['content', b.content],
        ['settings', b.settings],
      ] as const) {
        walkJson(parseJson(text, {}), (key, _v, at) => {
          if (key !== null && FORBIDDEN_KEYS.has(key)) leaks.push(`${b.title} ${col}${at.slice(1)}`);
        });
      }
    }
    expect(leaks).toEqual([]);
  });

  it('no answer-tied feedback or accepted free answer appears in content or settings', () => {
    const leaks: string[] = [];
    for (const b of blocks) {
      const solution = parseJson<BlockSolution>(b.solution, { feedbacks: [], validators: [] });
      const secrets = new Set<string>();
      for (const v of solution.validators) {
        for (const m of Object.values(v.feedbacks.choices ?? {})) secrets.add(m);
        if (v.feedbacks.correct) secrets.add(v.feedbacks.correct);
        if (v.feedbacks.incorrect) secrets.add(v.feedbacks.incorrect);
        if (v.type === 'free-answer' && v.expected.kind === 'text')
          for (const a of v.expected.accept) secrets.add(a);
      }
      for (const f of solution.feedbacks) secrets.add(f.message);
      for (const text of [b.content, b.settings])
        walkJson(parseJson(text, {}), (_k, value, at) => {
          if (typeof value === 'string' && (secrets.has(value) || secrets.has(normaliseFreeAnswer(value))))
            leaks.push(`${b.title} ${at}`);
        });
    }
    expect(leaks).toEqual([]);
  });

  it('every exercise row has a validator with an expected answer, and only exercise rows do', () => {
    for (const b of blocks) {
      const content = parseJson<{ sections: { rows: { type: string }[] }[] }>(b.content, { sections: [] });
      const solution = parseJson<BlockSolution>(b.solution, { feedbacks: [], validators: [] });
      const exercises = content.sections.flatMap((s, si) =>
        s.rows
          .map((r, ri) => ({ si, ri, type: r.type }))
          .filter(
            (r) =>
              ![
                'wysiwyg',
                'wysiwyg-table',
                'media-internal',
                'media-tincan',
                'video-external',
                'medias-by-mail',
                'widgets',
              ].includes(r.type),
          ),
      );
      expect(solution.validators.map((v) => [v.section, v.row, v.type])).toEqual(
        exercises.map((e) => [e.si, e.ri, e.type]),
      );
      for (const v of solution.validators) expect(v.expected).toBeDefined();
      if (b.type === 'exercice') expect(exercises.length).toBeGreaterThan(0);
    }
  });

  it('stores the expected answer formats the graders read', () => {
    const byType = new Map<string, unknown>();
    for (const b of blocks)
      for (const v of parseJson<BlockSolution>(b.solution, { feedbacks: [], validators: [] }).validators)
        byType.set(`${b.title}/${v.type}`, v.expected);
    expect(byType.get('Des fractions égales/multiple-choice')).toEqual([0, 1, 3]);
    expect(byType.get('Le bon document/combined-choice')).toBe(0);
    expect(byType.get('Calculer un prix soldé/free-answer')).toEqual({
      kind: 'number',
      value: 60,
      tolerance: 0.01,
    });
    expect(byType.get("Donner l'alerte/free-answer")).toEqual({ kind: 'text', accept: ['112'] });
    expect(byType.get('Associer pourcentages et fractions/drag-n-drop')).toEqual([[1, 4], [0], [2], [3]]);
    expect(byType.get('Les parties prenantes/pick-words')).toEqual({
      positions: [6, 9, 13],
      words: ['clients', 'fournisseurs', 'banques'],
    });
    expect(byType.get("Les risques de l'atelier/image-cliquable")).toEqual([0, 1, 2]);
  });
});
