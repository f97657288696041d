import type { Db } from '../../db/db';
import type { PlanNode } from './plan';
import type { BlockRow, TermRow } from './repository';
import { blocksByIds, courseTypeSettingsText, planNodes, solutionOf, termsOfBlocks } from './repository';

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

/**
 * Course structure and blocks change only when content is imported, yet every player call needs
 * them: each API process keeps them a short while (like the tenant cache), which takes most of
 * the queries off the hot path (`GET …/pages/current`, `PATCH`). After an import, a process may
 * serve the previous version for up to `ttlMs`. Bounded so a long-running process cannot grow it
 * without limit. Lessons and pages — the learner's own state — are never cached.
 */
export class ContentCache {
  private readonly courses = new Map<string, { at: number; value: CourseContent }>();
  private readonly blocks = new Map<string, { at: number; value: BlockContent | null }>();

  constructor(
    private readonly ttlMs = 30_000,
    private readonly maxEntries = 5_000,
  ) {}

  async course(db: Db, courseId: string): Promise<CourseContent> {
    const hit = this.courses.get(courseId);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.value;
    const [nodes, typeSettings] = await Promise.all([planNodes(db, courseId), courseTypeSettingsText(db, courseId)]);
    const value = { nodes, typeSettings };
    this.put(this.courses, courseId, value);
    return value;
  }

  async block(db: Db, contextId: string, blockId: string): Promise<BlockContent | null> {
    const key = `${contextId}\u0000${blockId}`;
    const hit = this.blocks.get(key);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.value;
    const [[block], terms, solution] = await Promise.all([blocksByIds(db, contextId, [blockId]), termsOfBlocks(db, [blockId]), solutionOf(db, blockId)]);
    const value = block ? { block, terms, solution: solution ?? '{}' } : null;
    this.put(this.blocks, key, value);
    return value;
  }

  private put<V>(map: Map<string, { at: number; value: V }>, key: string, value: V): void {
    if (map.size >= this.maxEntries) map.clear();
    map.set(key, { at: Date.now(), value });
  }
}
