import { LESSON_STATES } from '@parcours/domain/entities';
import type {
  LessonActions,
  LessonAttributes,
  LessonState,
  LessonTreeNode,
  PageProgress,
  Scoring,
} from '@parcours/domain/entities';
import { progressionPercent } from '@parcours/domain/progress';
import { accommodatedLimit, accommodationOf } from '@parcours/domain/time-accommodation';
import { parseJson } from '../../db/schema';
import type { Resource } from '../../plugins/jsonapi';
import { jsonStrings } from '../programs/serializer';
import type { LessonRow, PageProgressRow, TreeNodeRow } from './repository';

const STATES = new Set<string>(LESSON_STATES);

function pageProgress(value: string | null | undefined): PageProgress | null {
  return value === 'COMPLETED' || value === 'ONGOING' ? value : null;
}

const RANK = { COMPLETED: 2, ONGOING: 1 } as const;
function best(a: PageProgress | null, b: PageProgress | null): PageProgress | null {
  return (b ? RANK[b] : 0) > (a ? RANK[a] : 0) ? b : a;
}

/** The latest attempt of each node's non-archived pages, by node id. */
export function latestProgressByNode(pages: PageProgressRow[]): Map<string, PageProgress | null> {
  const latest = new Map<string, PageProgressRow>();
  for (const page of pages) {
    const seen = latest.get(page.nodeId);
    if (!seen || page.attempt > seen.attempt) latest.set(page.nodeId, page);
  }
  return new Map([...latest].map(([nodeId, page]) => [nodeId, pageProgress(page.progress)]));
}

/**
 * The lesson's sections (container nodes, in order; only the enabled ones when the lesson
 * names some) with one page per block. A multiblock counts as one page — the learner follows
 * one of its children — whose progress is the best among its children's pages.
 */
export function buildTree(
  nodes: TreeNodeRow[],
  progress: Map<string, PageProgress | null>,
  enabledSectionIds: string[],
): LessonTreeNode[] {
  const children = new Map<string, TreeNodeRow[]>();
  for (const node of nodes) {
    if (node.parentId) children.set(node.parentId, [...(children.get(node.parentId) ?? []), node]);
  }
  const byOrder = (a: TreeNodeRow, b: TreeNodeRow) =>
    a.order - b.order || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const enabled = new Set(enabledSectionIds);
  return nodes
    .filter((n) => n.type === 'container' && (enabled.size === 0 || enabled.has(n.id)))
    .sort(byOrder)
    .map((section) => ({
      nodeId: section.id,
      title: section.title,
      order: section.order,
      pages: (children.get(section.id) ?? [])
        .filter((n) => n.type === 'block' || n.type === 'multiblock')
        .sort(byOrder)
        .map((n) => ({
          nodeId: n.id,
          progress:
            n.type === 'block'
              ? (progress.get(n.id) ?? null)
              : (children.get(n.id) ?? []).reduce<PageProgress | null>(
                  (acc, c) => best(acc, progress.get(c.id) ?? null),
                  null,
                ),
        })),
    }));
}

/** The tree's pages in reading order (tree sections and pages are already sorted by order). */
export function sortedTreeOf(tree: LessonTreeNode[]): LessonAttributes['sortedTree'] {
  return tree
    .flatMap((section) =>
      section.pages.map((p) => ({ nodeId: p.nodeId, sectionId: section.nodeId, progress: p.progress })),
    )
    .map((p, index) => ({ ...p, index }));
}

/** A lesson's stored scoring, `global` always present (a lesson not scored yet: 0 of 0). */
export function scoringOf(text: string): Scoring {
  const v = parseJson<{ global?: { actual?: unknown; max?: unknown } }>(text, {});
  const actual = Number(v?.global?.actual ?? 0);
  const max = Number(v?.global?.max ?? 0);
  return { global: { actual: Number.isFinite(actual) ? actual : 0, max: Number.isFinite(max) ? max : 0 } };
}

function actionsOf(text: string): LessonActions {
  const v = parseJson<Partial<LessonActions> | null>(text, null);
  return {
    interactive: Array.isArray(v?.interactive) ? v.interactive : [],
    unlockedLessons: Array.isArray(v?.unlockedLessons) ? v.unlockedLessons : [],
  };
}

export function toLessonResource(row: LessonRow, tree: LessonTreeNode[], actions?: LessonActions): Resource {
  const attributes: LessonAttributes = {
    userId: row.userId,
    classId: row.classId,
    classProgramId: row.classProgramId,
    classStepProgramId: row.classStepProgramId,
    courseId: row.courseId,
    programCourseId: row.programCourseId,
    contextId: row.contextId,
    currentNodeId: row.currentNodeId,
    enabledSectionIds: jsonStrings(row.enabledSectionIds),
    // Decision 0019: the lesson's own limit as this learner has it (no limit: null).
    timeLimit: accommodatedLimit(row.timeLimit, accommodationOf(row)),
    timeSpent: row.timeSpent,
    timeAlive: row.timeAlive,
    state: (STATES.has(row.state) ? row.state : 'LOCKED') as LessonState,
    progress: pageProgress(row.progress),
    certificationRef: row.certificationRef,
    isEndOfProgram: row.isEndOfProgram === 1,
    tree,
    percentProgression: progressionPercent(tree),
    sortedTree: sortedTreeOf(tree),
    // Computed from content by the progression rules; the column keeps the learner's answers.
    actions: actions ?? actionsOf(row.actions),
    scoring: scoringOf(row.scoring),
    startAt: row.startAt,
    startedAt: row.startedAt,
    createdAt: row.createdAt,
  };
  return {
    type: 'lessons',
    id: row.id,
    attributes: { ...attributes },
    relationships: {
      course: { data: { type: 'courses', id: row.courseId } },
      class: { data: { type: 'classes', id: row.classId } },
    },
  };
}
