import type { BlockView } from '@parcours/domain/entities';
import { pageContentSchema, pageRows } from '@parcours/domain/exercises/grade-page';
import type { GradingSettings, PageRow } from '@parcours/domain/exercises/grade-page';
import { blockSolutionSchema } from '@parcours/domain/exercises/solution';
import type { BlockSolution } from '@parcours/domain/exercises/solution';
import type { Db } from '../../db/db';
import { parseJson } from '../../db/schema';
import { loadProgramContexts } from '../progression/rules';
import type { ProgramContext } from '../progression/rules';
import { jsonObject, jsonStrings } from '../programs/serializer';
import { buildPlan } from './plan';
import type { LessonPlan, PlanNode } from './plan';
import type { BlockRow, TermRow } from './repository';
import { blocksByIds, courseTypeSettingsText, planNodes, solutionOf, termsOfBlocks } from './repository';
import { blockView, gradingSettings, hintsOf } from './serializer';
import type { Hint } from './serializer';

export interface CourseContent {
  nodes: PlanNode[];
  /** The course type's settings (JSON text), null without a type. */
  typeSettings: string | null;
}

export interface BlockContent {
  block: BlockRow;
  terms: TermRow[];
  /** Server-only; read by grading, never by the serializer. */
  solution: string;
}

/** What grading needs of a block, parsed from its documents. */
export interface BlockGrading {
  rows: PageRow[];
  solution: BlockSolution;
}

interface Entry<V> {
  at: number;
  value: V;
}

/**
 * Course structure, blocks and class programs change only when content is imported, yet every
 * player call needs them: each API process keeps them a short while (like the tenant cache),
 * which takes most of the queries off the hot path (`GET …/pages/current`, `PATCH`). After an
 * import, a process may serve the previous version for up to `ttlMs`. Bounded so a long-running
 * process cannot grow it without limit. Lessons and pages — the learner's own state — are never
 * cached.
 *
 * What is derived from a cached value (a lesson plan, a block's public view, its parsed
 * solution) is computed once per cached value rather than per request: the WeakMaps below are
 * keyed by the cached objects, so a derived value lives exactly as long as its source.
 * Derived values are shared between requests and must be treated as read-only.
 */
export class ContentCache {
  private readonly courses = new Map<string, Entry<CourseContent>>();
  private readonly blocks = new Map<string, Entry<BlockContent | null>>();
  private readonly programs = new Map<string, Entry<ProgramContext>>();
  private readonly plans = new WeakMap<CourseContent, Map<string, LessonPlan>>();
  private readonly settings = new WeakMap<CourseContent, GradingSettings>();
  private readonly views = new WeakMap<BlockContent, BlockView>();
  private readonly hintLists = new WeakMap<BlockContent, Hint[]>();
  private readonly gradings = new WeakMap<BlockContent, BlockGrading>();

  /**
   * `ttlMs`: how long an entry is served. The player and the offline pages keep their caches under
   * the content stamp instead (VersionedContentCache, unbounded lifetime); the LRS scoring reads
   * afresh (0).
   */
  constructor(
    private readonly ttlMs = 30_000,
    private readonly maxEntries = 5_000,
  ) {}

  async course(db: Db, courseId: string): Promise<CourseContent> {
    const hit = this.fresh(this.courses.get(courseId));
    if (hit) return hit.value;
    const [nodes, typeSettings] = await Promise.all([
      planNodes(db, courseId),
      courseTypeSettingsText(db, courseId),
    ]);
    const value = { nodes, typeSettings };
    this.put(this.courses, courseId, value);
    return value;
  }

  async block(db: Db, contextId: string, blockId: string): Promise<BlockContent | null> {
    const key = `${contextId}\u0000${blockId}`;
    const hit = this.fresh(this.blocks.get(key));
    if (hit) return hit.value;
    const [[block], terms, solution] = await Promise.all([
      blocksByIds(db, contextId, [blockId]),
      termsOfBlocks(db, [blockId]),
      solutionOf(db, blockId),
    ]);
    const value = block ? { block, terms, solution: solution ?? '{}' } : null;
    this.put(this.blocks, key, value);
    return value;
  }

  /** Windows, unlock mode and steps of class programs (progression/rules `loadProgramContexts`). */
  async programContexts(db: Db, classProgramIds: string[]): Promise<Map<string, ProgramContext>> {
    const out = new Map<string, ProgramContext>();
    const missing: string[] = [];
    for (const id of classProgramIds) {
      const hit = this.fresh(this.programs.get(id));
      if (hit) out.set(id, hit.value);
      else missing.push(id);
    }
    if (missing.length === 0) return out;
    for (const [id, value] of await loadProgramContexts(db, missing)) {
      this.put(this.programs, id, value);
      out.set(id, value);
    }
    return out;
  }

  /** The lesson's plan: its course with the lesson's enabled sections (`enabledSectionIds` JSON text). */
  plan(course: CourseContent, enabledSectionIds: string): LessonPlan {
    let bySections = this.plans.get(course);
    if (!bySections) this.plans.set(course, (bySections = new Map()));
    let plan = bySections.get(enabledSectionIds);
    if (!plan)
      bySections.set(enabledSectionIds, (plan = buildPlan(course.nodes, jsonStrings(enabledSectionIds))));
    return plan;
  }

  gradingSettings(course: CourseContent): GradingSettings {
    return memo(this.settings, course, () => gradingSettings(course.typeSettings));
  }

  /** The block as a page document shows it (never the solution, nor the hint texts). */
  view(content: BlockContent): BlockView {
    return memo(this.views, content, () => blockView(content.block, content.terms));
  }

  hints(content: BlockContent): Hint[] {
    return memo(this.hintLists, content, () => hintsOf(content.block.settings));
  }

  /** Parsed on first use, not on load: a malformed block fails only the requests that grade it. */
  grading(content: BlockContent): BlockGrading {
    return memo(this.gradings, content, () => ({
      rows: pageRows(pageContentSchema.parse(jsonObject(content.block.content))),
      solution: blockSolutionSchema.parse(parseJson(content.solution, { feedbacks: [], validators: [] })),
    }));
  }

  private fresh<V>(entry: Entry<V> | undefined): Entry<V> | undefined {
    return entry && Date.now() - entry.at < this.ttlMs ? entry : undefined;
  }

  private put<V>(map: Map<string, Entry<V>>, key: string, value: V): void {
    if (map.size >= this.maxEntries) map.clear();
    map.set(key, { at: Date.now(), value });
  }
}

/**
 * The player's content cache kept under the database's `content` stamp (migrations 0014 and 0016,
 * decisions 0015 and 0025) instead of a lifetime: every write to courses, nodes, blocks, terms,
 * programs or classes — the importer in another process included — moves the stamp in its own
 * transaction, and the request that reads a newer stamp (with the viewer, one statement:
 * `requireHomeUser`) starts a new cache. A re-import is therefore served at once by every process.
 *
 * Stamps only grow, so a request that read an older stamp than the cache's (it arrived before a
 * re-import committed, and answers after a newer request) gets a cache of its own for that request:
 * what it loads may be older than the current stamp and must not be kept under it. Whatever a
 * request loads after reading its stamp is at least as new as that stamp, so the current cache never
 * holds content older than its stamp.
 */
export class VersionedContentCache {
  private current: { version: bigint; cache: ContentCache } | undefined;

  /** The cache for content stamp `version` (text of a bigint, as the viewer read returns it). */
  at(version: string | undefined): ContentCache {
    const v = version === undefined ? undefined : BigInt(version);
    if (v === undefined) return new ContentCache(0);
    if (!this.current || v > this.current.version)
      this.current = { version: v, cache: new ContentCache(Number.POSITIVE_INFINITY) };
    return v === this.current.version ? this.current.cache : new ContentCache(0);
  }
}

function memo<K extends object, V>(map: WeakMap<K, V>, key: K, compute: () => V): V {
  let value = map.get(key);
  if (value === undefined) map.set(key, (value = compute()));
  return value;
}
