import type {
  BlockType,
  BlockView,
  HintsView,
  LessonPageAttributes,
  NodeType,
  NodeView,
  PackageKind,
  PackageView,
  PageProgress,
  PageResults,
  Scoring,
} from '@parcours/domain/entities';
import { BLOCK_TYPES, NODE_TYPES, PACKAGE_KINDS } from '@parcours/domain/entities';
import { DEFAULT_GRADING_SETTINGS } from '@parcours/domain/exercises/grade-page';
import type { GradingSettings } from '@parcours/domain/exercises/grade-page';
import { parseJson } from '../../db/schema';
import type { Resource } from '../../plugins/jsonapi';
import { jsonObject, jsonStrings } from '../programs/serializer';
import type { PlanNode } from './plan';
import type { BlockRow, PageRow, TermRow } from './repository';
import { shownResults } from './disclosure';
import { timeLimitOf } from './limits';

/**
 * Page documents (docs/api.md "Lesson player"). Built only from a block's public columns
 * (`content`, `settings.template`, the UNLOCKED hint messages) and the learner's own recorded
 * answer: `course_blocks.solution` never reaches this file, so nothing sent before an answer can
 * carry an expected answer, a validator or an answer-tied feedback. After an answer, the stored
 * correction's key is sent only once no retry of the page can be graded (`keyShown`, decision 0009).
 */

export interface Hint {
  message: string;
  cost: number;
}

/** The block's hints, in order (`settings.hints` as the importer writes it). */
export function hintsOf(settingsText: string): Hint[] {
  const list = jsonObject(settingsText).hints;
  if (!Array.isArray(list)) return [];
  return list.flatMap((h: unknown) => {
    if (!h || typeof h !== 'object') return [];
    const { message, cost } = h as { message?: unknown; cost?: unknown };
    return typeof message === 'string'
      ? [{ message, cost: typeof cost === 'number' && cost > 0 ? cost : 0 }]
      : [];
  });
}

/** The course type's grading settings (JSON text, null without a type), defaults filled in. */
export function gradingSettings(text: string | null): GradingSettings {
  if (text === null) return DEFAULT_GRADING_SETTINGS;
  const s = jsonObject(text);
  const flag = (v: unknown, d: boolean) => (typeof v === 'boolean' ? v : d);
  return {
    hints: flag(s.hints, DEFAULT_GRADING_SETTINGS.hints),
    feedbacks: flag(s.feedbacks, DEFAULT_GRADING_SETTINGS.feedbacks),
    retry: flag(s.retry, DEFAULT_GRADING_SETTINGS.retry),
  };
}

const BLOCKS = new Set<string>(BLOCK_TYPES);
const NODES = new Set<string>(NODE_TYPES);

/** Public view of a block: template settings and the hint count, never the hint texts or the solution. */
export function blockView(block: BlockRow, terms: TermRow[]): BlockView {
  const settings = jsonObject(block.settings);
  const content = jsonObject(block.content);
  const template =
    settings.template && typeof settings.template === 'object'
      ? (settings.template as BlockView['settings']['template'])
      : {};
  const sections = Array.isArray(content.sections)
    ? (content.sections as BlockView['content']['sections'])
    : [];
  return {
    id: block.id,
    title: block.title,
    type: (BLOCKS.has(block.type) ? block.type : 'slide') as BlockType,
    settings: { template: template ?? {}, hintCount: hintsOf(block.settings).length },
    content: {
      statement: (content.statement as BlockView['content']['statement']) ?? null,
      sections,
      tincan: (content.tincan as BlockView['content']['tincan']) ?? null,
      ...(content.package ? { package: packageView(content.package) } : {}),
      ...(content.table ? { table: content.table as BlockView['content']['table'] } : {}),
      ...(content.interactiveImage
        ? { interactiveImage: content.interactiveImage as BlockView['content']['interactiveImage'] }
        : {}),
      ...(Array.isArray(content.datasetNames)
        ? { datasetNames: content.datasetNames.filter((n): n is string => typeof n === 'string') }
        : {}),
    },
    terms: terms
      .filter((t) => t.blockId === block.id)
      .map((t) => ({ id: t.id, title: t.title, words: jsonStrings(t.words), definition: t.definition })),
  };
}

/**
 * A package as learners see it (issue 31): its kind, title and size; the folder it is stored in
 * stays on the server (the launch gives a URL). `launch` is set per page (pageResource).
 */
function packageView(stored: unknown): PackageView {
  const p = (stored && typeof stored === 'object' ? stored : {}) as Record<string, unknown>;
  const side = (v: unknown) => (typeof v === 'number' && v > 0 ? v : null);
  return {
    kind: (PACKAGE_KINDS as readonly unknown[]).includes(p.kind) ? (p.kind as PackageKind) : 'xapi',
    title: typeof p.title === 'string' ? p.title : '',
    width: side(p.width),
    height: side(p.height),
    launch: null,
    // A cmi5 course's units (issue 39), as the importer stored them.
    units: Array.isArray(p.units)
      ? p.units
          .filter((u): u is { title?: unknown; ownWindow?: unknown } => !!u && typeof u === 'object')
          .map((u) => ({
            title: typeof u.title === 'string' ? u.title : '',
            ownWindow: u.ownWindow === true,
          }))
      : [],
  };
}

export function nodeView(node: PlanNode): NodeView {
  const settings = jsonObject(node.settings);
  return {
    id: node.id,
    type: (NODES.has(node.type) ? node.type : 'block') as NodeType,
    title: node.title,
    parentId: node.parentId,
    settings: { ...settings, timeLimit: timeLimitOf(node) },
    tools: jsonObject(node.tools),
    attachmentIds: jsonStrings(node.attachmentIds),
  };
}

function withTimeLimit(view: NodeView, timeLimit: number | null): NodeView {
  return { ...view, settings: { ...view.settings, timeLimit } };
}

function progressOf(value: string | null): PageProgress | null {
  return value === 'COMPLETED' || value === 'ONGOING' ? value : null;
}

export interface PageDocInput {
  page: PageRow;
  /** `page.results` parsed (null: unanswered or unreadable). */
  stored: PageResults | null;
  node: PlanNode;
  /** `blockView` of the page's block, null for a multiblock chooser. */
  block: BlockView | null;
  /** Multiblock chooser: the child blocks and whether each is done. */
  children: { nodeId: string; title: string | null; done: boolean }[];
  index: number;
  count: number;
  current: boolean;
  hints: HintsView;
  settings: GradingSettings;
  lessonScoring: Scoring;
  /** The page's limit for this learner (decision 0019: accommodated), null: none. */
  timeLimit: number | null;
  remainingSeconds: number | null;
  lessonTimeLimit: number | null;
  lessonRemainingSeconds: number | null;
  /** False while a retry of the answered page can still be graded: results without the expected answers. */
  keyShown: boolean;
  /** The launch issued for an unanswered learning-module page, else null. */
  tincanLaunch: string | null;
  /** The page's sheet as the learner may see it now (datasets.ts sheetView). */
  sheet: { datasetComputed: Record<string, number> };
}

/** docs/product.md §3 `results.sections`: each block section's mean answer ratio, from the page's ratios in reading order. */
export function sectionResults(
  block: BlockView | null,
  ratios: readonly (number | null)[] | undefined,
): NonNullable<PageResults['sections']> {
  if (!block || !Array.isArray(ratios)) return [];
  let at = 0;
  return block.content.sections.map((section) => {
    const own = ratios
      .slice(at, (at += section.rows.length))
      .filter((r): r is number => typeof r === 'number');
    const ratio = own.length ? Math.round((own.reduce((a, b) => a + b, 0) / own.length) * 1000) / 1000 : null;
    return { title: section.title ?? null, ratio };
  });
}

export function pageResource(d: PageDocInput): Resource {
  const { page } = d;
  const answered = page.answeredAt !== null;
  const stored = answered ? d.stored : null;
  const inputs = answered ? parseJson<{ answers?: unknown[] } | null>(page.inputs, null) : null;
  const attributes: LessonPageAttributes = {
    lessonId: page.lessonId,
    nodeId: page.nodeId,
    index: d.index,
    count: d.count,
    state: page.state === 'ARCHIVED' ? 'ARCHIVED' : 'ACTIVE',
    progress: progressOf(page.progress),
    // The node's limit is the learner's too: the browser falls back to it (decision 0019).
    node: withTimeLimit(nodeView(d.node), d.timeLimit),
    // A package page carries its launch in its content too (docs/api.md "Packages").
    block: d.block?.content.package
      ? {
          ...d.block,
          content: { ...d.block.content, package: { ...d.block.content.package, launch: d.tincanLaunch } },
        }
      : d.block,
    children: d.children,
    hints: d.hints,
    inputs: answered ? { answers: Array.isArray(inputs?.answers) ? inputs.answers : [] } : null,
    // Results exist only once the answer is recorded; the hints part follows later unlocks.
    results: stored
      ? {
          ...shownResults(stored, d.keyShown),
          hints: d.hints,
          sections: sectionResults(d.block, stored.answerRatios),
        }
      : null,
    timeLimit: d.timeLimit,
    remainingSeconds: d.remainingSeconds,
    startedAt: page.startedAt,
    timeSpent: page.timeSpent,
    timeAlive: page.timeAlive,
    answeredAt: page.answeredAt,
    lessonScoring: d.lessonScoring,
    courseTypeSettings: d.settings,
    sectionId: page.sectionId,
    attempt: page.attempt,
    current: d.current,
    lessonTimeLimit: d.lessonTimeLimit,
    lessonRemainingSeconds: d.lessonRemainingSeconds,
    tincanLaunch: d.tincanLaunch,
    sheet: d.sheet,
  };
  return {
    type: 'lesson-pages',
    id: page.id,
    attributes: { ...attributes },
    relationships: { lesson: { data: { type: 'lessons', id: page.lessonId } } },
  };
}
