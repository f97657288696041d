import type { PackageKind } from '@parcours/domain/entities';
import { placeholderNamesDeep } from '@parcours/domain/exercises/datasets/placeholders';
import type { BlockFile, BlockSolution, RowFeedbacks, RowFile, RowValidator } from './format';
import { normaliseFreeAnswer, parsePickWords } from './format';
import { sanitizeContentHtml as clean } from './sanitize';

/** A file as blocks reference it once imported. */
export interface FileRef {
  id: string;
  name: string;
  type: string;
  fileType: string;
  url: string;
}

/** A package as a block stores it (issue 31): `id` names its folder in the store, never shown to learners. */
export interface PackageRef {
  id: string;
  kind: PackageKind;
  title: string;
  width: number | null;
  height: number | null;
}

export interface BlockRefs {
  file(path: string): FileRef;
  tincanUrl(ref: { path: string } | { url: string }): string;
  package(
    ref: string | { path: string; width?: number | undefined; height?: number | undefined },
  ): PackageRef;
}

export interface BuiltBlock {
  /** What the learner sees: never an expected answer or an answer-tied feedback. */
  content: Record<string, unknown>;
  /** Template settings and hints (messages with their cost). */
  settings: Record<string, unknown>;
  /** Server-only: validators and every feedback. */
  solution: BlockSolution;
}

const appFile = (f: FileRef) => ({ id: f.id, name: f.name, type: f.type, fileType: f.fileType, url: f.url });

function cleanOpt(s: string | null | undefined): string | null {
  return s == null ? null : clean(s);
}

function rowFeedbacks(row: RowFile): RowFeedbacks {
  const fb: RowFeedbacks = {};
  if (row.feedback?.correct) fb.correct = clean(row.feedback.correct);
  if (row.feedback?.incorrect) fb.incorrect = clean(row.feedback.incorrect);
  const list = 'choices' in row ? row.choices : 'zones' in row ? row.zones : [];
  const byChoice: Record<string, string> = {};
  list.forEach((c, i) => {
    if (c.feedback) byChoice[String(i)] = clean(c.feedback);
  });
  if (Object.keys(byChoice).length) fb.choices = byChoice;
  if (row.type === 'free-answer' && row.answers.length)
    fb.answers = row.answers.map((a) => ({
      match: a.match.map(normaliseFreeAnswer),
      message: clean(a.feedback),
    }));
  return fb;
}

type Zone = Extract<RowFile, { type: 'image-cliquable' }>['zones'][number];
type OmitEach<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A zone's shape and label (its feedback, or a spot's text, stay out). */
type Shape = OmitEach<Zone, 'feedback'>;

function zoneShape(z: Shape): Record<string, unknown> {
  switch (z.shape) {
    case 'circle':
      return { shape: 'circle', cx: z.cx, cy: z.cy, r: z.r, label: z.label };
    case 'rectangle':
      return { shape: 'rectangle', x: z.x, y: z.y, width: z.width, height: z.height, label: z.label };
    case 'polygon':
      return { shape: 'polygon', points: z.points.map((p) => p.join(',')).join(' '), label: z.label };
  }
}

function buildRow(row: RowFile, order: number, refs: BlockRefs): Record<string, unknown> {
  const { audioFile, ...settings } = row.settings;
  const base: Record<string, unknown> = {
    type: row.type,
    order,
    title: row.title,
    message: cleanOpt(row.message),
    settings: audioFile ? { ...settings, audioFileId: refs.file(audioFile).id } : settings,
  };
  const choices = (list: { value: string; file?: string | undefined }[]) =>
    list.map((c) => ({ value: clean(c.value), appFile: c.file ? appFile(refs.file(c.file)) : null }));
  switch (row.type) {
    case 'multiple-choice':
    case 'combined-choice':
      return { ...base, choices: choices(row.choices) };
    case 'free-answer':
      return {
        ...base,
        placeholder: row.placeholder ?? null,
        inputMode: 'accept' in row.expected ? 'text' : 'decimal',
      };
    case 'drag-n-drop':
      return {
        ...base,
        choices: choices(row.choices),
        targets: row.targets.map((t) => ({ value: clean(t.value) })),
      };
    case 'pick-words': {
      const { plain, words } = parsePickWords(row.text);
      return { ...base, text: plain, words };
    }
    case 'image-cliquable':
      return {
        ...base,
        appFile: appFile(refs.file(row.image)),
        viewBox: `0 0 ${row.viewBox.width} ${row.viewBox.height}`,
        choices: row.zones.map(zoneShape),
      };
    case 'wysiwyg':
      return { ...base, html: clean(row.html) };
    case 'wysiwyg-table':
      return {
        ...base,
        table: {
          caption: row.table.caption ?? null,
          head: row.table.head.map(clean),
          rows: row.table.rows.map((r) => r.map(clean)),
        },
      };
    case 'media-internal':
      return { ...base, appFile: appFile(refs.file(row.file)), alt: row.alt ?? null };
    case 'media-tincan':
      return { ...base, tincan: { url: refs.tincanUrl(row.tincan) } };
    case 'video-external':
      return { ...base, url: row.url };
    case 'medias-by-mail':
      return { ...base, appFiles: row.files.map((f) => appFile(refs.file(f))) };
    case 'widgets':
      return {
        ...base,
        widgets: row.widgets.map((w) =>
          'file' in w && w.file !== undefined
            ? { kind: w.kind, appFile: appFile(refs.file(w.file)) }
            : w.kind === 'richtext'
              ? { kind: w.kind, html: clean(w.html) }
              : w,
        ),
      };
  }
}

function validator(row: RowFile, section: number, index: number): RowValidator | null {
  const at = { section, row: index, feedbacks: rowFeedbacks(row) };
  switch (row.type) {
    case 'multiple-choice':
      return { ...at, type: row.type, expected: [...row.expected].sort((a, b) => a - b) };
    case 'combined-choice':
      // A formula's index is the learner's (instantiateSolution); 0 stands in until then.
      return typeof row.expected === 'number'
        ? { ...at, type: row.type, expected: row.expected }
        : { ...at, type: row.type, expected: 0, formula: row.expected.formula };
    case 'free-answer':
      if ('formula' in row.expected)
        return {
          ...at,
          type: row.type,
          expected: { kind: 'number', value: 0, tolerance: row.expected.tolerance },
          formula: row.expected.formula,
        };
      return {
        ...at,
        type: row.type,
        expected:
          'accept' in row.expected
            ? { kind: 'text', accept: [...new Set(row.expected.accept.map(normaliseFreeAnswer))] }
            : { kind: 'number', value: row.expected.number, tolerance: row.expected.tolerance },
      };
    case 'drag-n-drop':
      return { ...at, type: row.type, expected: row.expected.map((l) => [...l].sort((a, b) => a - b)) };
    case 'pick-words': {
      const { words, positions } = parsePickWords(row.text);
      return { ...at, type: row.type, expected: { positions, words: positions.map((p) => words[p]!) } };
    }
    case 'image-cliquable':
      return { ...at, type: row.type, expected: [...row.expected].sort((a, b) => a - b) };
    default:
      return null;
  }
}

export function buildBlock(block: BlockFile, refs: BlockRefs): BuiltBlock {
  const validators: RowValidator[] = [];
  const sections = block.sections.map((s, si) => ({
    title: s.title,
    rows: s.rows.map((r, ri) => {
      const v = validator(r, si, ri);
      if (v) validators.push(v);
      return buildRow(r, ri, refs);
    }),
  }));
  const content: Record<string, unknown> = {
    statement: block.statement
      ? { html: clean(block.statement.html), settings: block.statement.settings }
      : null,
    sections,
  };
  if (block.tincan) content.tincan = { url: refs.tincanUrl(block.tincan) };
  if (block.package) content.package = refs.package(block.package);
  if (block.table)
    content.table = {
      caption: block.table.caption ?? null,
      head: block.table.head.map(clean),
      rows: block.table.rows.map((r) => r.map(clean)),
    };
  if (block.interactiveImage) {
    const ii = block.interactiveImage;
    content.interactiveImage = {
      appFile: appFile(refs.file(ii.image)),
      alt: ii.alt,
      viewBox: `0 0 ${ii.viewBox.width} ${ii.viewBox.height}`,
      spots: ii.spots.map((s) => ({ ...zoneShape(s), html: clean(s.html) })),
    };
  }
  // The names the statement and rows show: only these of the learner's values reach the browser
  // before the answer (the other computed values may be the expected answer itself).
  if (block.datasets) content.datasetNames = [...placeholderNamesDeep(content)];
  return {
    content,
    settings: {
      template: block.template,
      hints: block.hints.map((h) => ({ message: clean(h.message), cost: h.cost })),
    },
    solution: {
      feedbacks: block.feedbacks.map((f) => ({
        when: f.when,
        preset:
          f.preset ??
          (f.when === 'correct'
            ? 'success'
            : f.when === 'incorrect'
              ? 'danger'
              : f.when === 'partial'
                ? 'warning'
                : 'info'),
        message: clean(f.message),
      })),
      validators,
      ...(block.datasets
        ? { parameters: { datasets: block.datasets, computed: block.datasetsComputed } }
        : {}),
    },
  };
}
