/**
 * A SCORM package with several SCOs (issue 39 item 2): its table of contents, each SCO's own
 * data in the page's runtime row, which SCO the learner was in, the sequencing state of a SCORM
 * 2004 course (scorm-again's engine runs in the bridge and hands its state back with each
 * commit), and the course's result. A package with one SCO keeps the single-SCO row of issue 31.
 */
import type { PackageSummary } from '../../content/packages/store';
import type { ScormNode, ScoSettings } from '../../content/packages/scorm-tree';
import { scosOf } from '../../content/packages/scorm-tree';
import { parseJson } from '../../db/schema';
import { ApiError } from '../../plugins/errors';
import type { LaunchRow } from './launches';
import { summaryOfLaunch, userOf } from './runtime';
import type { RuntimeDeps, StartAnswer, StoredRuntime } from './runtime';
import { initialCmi, isFinal, scormFraction, scormState } from './scorm';
import type { ScormKind } from './scorm';

/** One SCO's saved data in a multi-SCO row. */
export interface StoredSco {
  cmi: Record<string, unknown>;
  terminated: boolean;
  /** The launch that last committed it (a new launch of the page resumes it). */
  launchKey: string;
  /** cmi total_time: the SCO's sessions summed. */
  seconds: number;
}

/** What a course's result is, as the sequencing engine rolled it up to the organization. */
export interface CourseResult {
  completion: 'completed' | 'incomplete' | 'unknown';
  success: 'passed' | 'failed' | 'unknown';
  scaled: number | null;
}

/** The page's runtime row for a SCORM package: one SCO's data (issue 31) or the course's. */
export interface StoredScorm extends StoredRuntime {
  /** The SCO the learner was in last. */
  sco?: string;
  scos?: Record<string, StoredSco>;
  /** scorm-again's serialized sequencing state (SCORM 2004 courses). */
  state?: string;
  course?: CourseResult;
}

/** The table of contents the bridge and the player show: no package paths for clusters. */
export interface TocNode {
  id: string;
  title: string;
  sco: boolean;
  hidden?: boolean;
  children?: TocNode[];
}

export interface CourseAnswer {
  toc: TocNode;
  /** Each SCO's launch, by item id. */
  entries: Record<string, string>;
  /** The SCO to deliver first: where the learner was, else the first. */
  current: string;
  /** SCORM 2004: scorm-again's sequencing settings; null for SCORM 1.2 (the bridge's own flow). */
  sequencing: Record<string, unknown> | null;
  /** The engine's state saved with the last commit, null before. */
  state: string | null;
  /** Each SCO's status for the table of contents (SCORM 1.2; 2004 reads the engine's). */
  statuses: Record<string, { completion: string; success: string }>;
}

export const treeOf = (summary: PackageSummary): ScormNode | null => summary.scorm?.tree ?? null;

function tocOf(node: ScormNode): TocNode {
  return {
    id: node.id,
    title: node.title,
    sco: !!node.entry,
    ...(node.hidden ? { hidden: true } : {}),
    ...(node.children ? { children: node.children.map(tocOf) } : {}),
  };
}

const NO_SETTINGS: ScoSettings = {
  masteryScore: null,
  scaledPassingScore: null,
  completionThreshold: null,
  launchData: null,
  maxTimeAllowed: null,
  timeLimitAction: null,
};

export async function storedRuntimeOf(d: RuntimeDeps, pageId: string) {
  const row = await d.db
    .selectFrom('packageRuntime')
    .select(['cmi', 'totalSeconds'])
    .where('pageId', '=', pageId)
    .executeTakeFirst();
  return { stored: parseJson<StoredScorm | null>(row?.cmi, null), totalSeconds: row?.totalSeconds ?? 0 };
}

/** The cmi one SCO of a course starts with: its own saved data, with `entry` resume when there are some. */
export async function scoStart(
  d: RuntimeDeps,
  launch: LaunchRow,
  summary: PackageSummary,
  scoId: string,
  stored: StoredScorm | null,
) {
  const tree = treeOf(summary);
  const sco = tree ? scosOf(tree).find((s) => s.id === scoId) : undefined;
  if (!sco?.entry)
    throw new ApiError(404, 'MODEL_NOT_FOUND', 'This SCO is not in the package.', { pointer: '/sco' });
  const user = await userOf(d.db, launch.userId);
  const saved = stored?.scos?.[scoId];
  const kind = summary.kind as ScormKind;
  const cmi = initialCmi(kind, saved?.cmi ?? null, {
    learnerId: user.id,
    learnerName: [user.lastname, user.firstname].filter(Boolean).join(', ') || (user.username ?? ''),
    totalSeconds: saved?.seconds ?? 0,
    ...(sco.settings ?? NO_SETTINGS),
  });
  const resumed =
    kind === 'scorm12' ? (cmi.core as { entry: string }).entry === 'resume' : cmi.entry === 'resume';
  return { sco: scoId, entry: `/p/${launch.contextId}/${launch.packageId}/${sco.entry}`, cmi, resumed };
}

/** GET /runtime/:key/sco/:id: the cmi and launch of one SCO of the course, read only. */
export async function scoLaunch(d: RuntimeDeps, launch: LaunchRow, scoId: string) {
  const summary = await summaryOfLaunch(d, launch);
  if (!treeOf(summary))
    throw new ApiError(404, 'MODEL_NOT_FOUND', 'This package has a single SCO.', { pointer: '/sco' });
  const { stored } = await storedRuntimeOf(d, launch.pageId);
  return scoStart(d, launch, summary, scoId, stored);
}

/** What POST /start adds for a course: its table of contents, where the learner was, the engine's state. */
export function courseAnswer(
  launch: LaunchRow,
  summary: PackageSummary,
  stored: StoredScorm | null,
): CourseAnswer {
  const tree = treeOf(summary) as ScormNode;
  const scos = scosOf(tree);
  const kind = summary.kind as ScormKind;
  const statuses: CourseAnswer['statuses'] = {};
  for (const [id, s] of Object.entries(stored?.scos ?? {})) {
    const st = scormState(kind, s.cmi);
    statuses[id] = { completion: st.completion, success: st.success };
  }
  const current = stored?.sco && scos.some((s) => s.id === stored.sco) ? stored.sco : (scos[0]?.id ?? '');
  return {
    toc: tocOf(tree),
    entries: Object.fromEntries(
      scos.map((s) => [s.id, `/p/${launch.contextId}/${launch.packageId}/${s.entry as string}`]),
    ),
    current,
    sequencing: summary.kind === 'scorm2004' ? (summary.scorm?.sequencing ?? null) : null,
    state: stored?.state ?? null,
    statuses,
  };
}

/**
 * The fraction a course earned, or null while it is not done. SCORM 2004: the organization's
 * rollup (the engine's): its scaled measure, else satisfied 1, not satisfied 0, completed 1
 * (a measure of 0 beside "satisfied" is no measure: every weight was 0).
 * SCORM 1.2 (no rollup in the standard): every SCO done, the mean of their fractions.
 */
export function courseFraction(
  kind: ScormKind,
  summary: PackageSummary,
  scos: Record<string, StoredSco>,
  course: CourseResult | undefined,
): number | null {
  if (kind === 'scorm2004') {
    if (!course) return null;
    if (course.completion !== 'completed' && course.success === 'unknown') return null;
    const scaled =
      course.scaled !== null && Number.isFinite(course.scaled)
        ? Math.min(1, Math.max(0, course.scaled))
        : null;
    // A measure of 0 beside "passed" is a rollup whose weights are all 0 (no measure to roll up).
    if (course.success === 'passed') return scaled !== null && scaled > 0 ? scaled : 1;
    if (course.success === 'failed') return scaled ?? 0;
    return scaled ?? 1;
  }
  const tree = treeOf(summary);
  if (!tree) return null;
  const fractions = scosOf(tree).map((s) => {
    const saved = scos[s.id];
    if (!saved) return null;
    const st = scormState(kind, saved.cmi);
    return isFinal(st) ? scormFraction(kind, st) : null;
  });
  if (fractions.some((f) => f === null)) return null;
  return (fractions as number[]).reduce((a, b) => a + b, 0) / fractions.length;
}

/**
 * POST /runtime/:key/start for SCORM: the saved `cmi`, as often as asked (a reload of the bridge
 * resumes). One SCO: its data (issue 31). A course: the SCO where the learner was, with the
 * table of contents and the sequencing state (issue 39).
 */
export async function startScorm(
  d: RuntimeDeps,
  launch: LaunchRow,
): Promise<StartAnswer & { course?: CourseAnswer; sco?: string }> {
  const summary = await summaryOfLaunch(d, launch);
  const base = { kind: summary.kind, title: summary.title };
  const { stored, totalSeconds } = await storedRuntimeOf(d, launch.pageId);
  if (treeOf(summary)) {
    const course = courseAnswer(launch, summary, stored);
    const first = await scoStart(d, launch, summary, course.current, stored);
    return { ...base, entry: first.entry, cmi: first.cmi, resumed: first.resumed, sco: first.sco, course };
  }
  const user = await userOf(d.db, launch.userId);
  const s = summary.scorm;
  const kind = summary.kind as ScormKind;
  const cmi = initialCmi(kind, stored?.cmi ?? null, {
    learnerId: user.id,
    learnerName: [user.lastname, user.firstname].filter(Boolean).join(', ') || (user.username ?? ''),
    totalSeconds,
    masteryScore: s?.masteryScore ?? null,
    scaledPassingScore: s?.scaledPassingScore ?? null,
    completionThreshold: s?.completionThreshold ?? null,
    launchData: s?.launchData ?? null,
    maxTimeAllowed: s?.maxTimeAllowed ?? null,
    timeLimitAction: s?.timeLimitAction ?? null,
  });
  const resumed =
    kind === 'scorm12' ? (cmi.core as { entry: string }).entry === 'resume' : cmi.entry === 'resume';
  return { ...base, entry: `/p/${launch.contextId}/${launch.packageId}/${summary.entry}`, cmi, resumed };
}
