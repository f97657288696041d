/**
 * Read-model rules of the dashboard's Levels and Jobs tabs (issue 9, decision 0008). The API sums
 * points per competency and per category in SQL; these functions turn those sums into the tree,
 * the ratios and the medals, and are shared with the web app.
 */
import { badgeLevel } from './badges';
import { GENERIC_COMPETENCY_REPORTING_LEVEL, LIMITS } from './constants';
import type { Medal, MedalColor } from './medal';
import { medalColor } from './medal';
import { scoreRatio } from './progress';
export type { CompetencyLevelAttributes, CategoryProgressAttributes } from './contract/dashboard';

export interface CompetencyNode {
  id: string;
  parentId: string | null;
  title: string;
  icon: string | null;
  order: number;
  isGeneric: boolean;
}

/** Points earned and possible on the learner's graded pages whose block names this competency. */
export interface PointSums {
  actual: number;
  max: number;
}

export interface CompetencyLevel extends CompetencyNode, PointSums {
  ratio: number;
  medal: Medal | null;
  /** docs/product.md §4 medal colour of the ratio: below 0.5 danger, below 0.75 warning, else success. */
  color: MedalColor;
  /** Depth in the tree, 0 for a root. */
  depth: number;
}

function finite(n: number | null | undefined): number {
  return typeof n === 'number' && Number.isFinite(n) ? n : 0;
}

function medalOfLevel(ratio: number): Medal | null {
  const level = badgeLevel('level', ratio);
  return level === 'bronze' || level === 'silver' || level === 'gold' ? level : null;
}

const byOrder = (a: CompetencyNode, b: CompetencyNode) =>
  a.order - b.order || a.title.localeCompare(b.title) || a.id.localeCompare(b.id);

/**
 * The competency tree in display order (each parent followed by its children), each node's
 * points being its own plus its descendants'. A parent missing from the list makes its child a
 * root; a cycle is broken where it is met. At most LIMITCOMPETENCY children under one parent and
 * LIMITGLOBAL rows in all (docs/product.md §9).
 */
export function competencyLevels(
  nodes: readonly CompetencyNode[],
  sums: ReadonlyMap<string, PointSums>,
  limits: { perParent: number; total: number } = { perParent: LIMITS.COMPETENCY, total: LIMITS.GLOBAL },
  genericReportingLevel: number = GENERIC_COMPETENCY_REPORTING_LEVEL,
): CompetencyLevel[] {
  const known = new Set(nodes.map((n) => n.id));
  const children = new Map<string | null, CompetencyNode[]>();
  for (const node of nodes) {
    const parent =
      node.parentId && known.has(node.parentId) && node.parentId !== node.id ? node.parentId : null;
    const list = children.get(parent) ?? [];
    list.push(node);
    children.set(parent, list);
  }
  for (const list of children.values()) list.sort(byOrder);

  const totals = new Map<string, PointSums>();
  const visiting = new Set<string>();
  // Post-order sum with a guard: a cycle (a → b → a) contributes each node once.
  const total = (node: CompetencyNode): PointSums => {
    const done = totals.get(node.id);
    if (done) return done;
    visiting.add(node.id);
    const own = sums.get(node.id);
    let actual = finite(own?.actual);
    let max = finite(own?.max);
    for (const child of children.get(node.id) ?? []) {
      if (visiting.has(child.id)) continue;
      const sub = total(child);
      actual += sub.actual;
      max += sub.max;
    }
    visiting.delete(node.id);
    const result = { actual, max };
    totals.set(node.id, result);
    return result;
  };

  const out: CompetencyLevel[] = [];
  const placed = new Set<string>();
  // `generic`: under a generic competency, rows stop at the reporting level (docs/product.md §9); a deeper
  // competency still counts in its ancestors' points (total() sums the whole subtree).
  const walk = (node: CompetencyNode, depth: number, generic: boolean) => {
    if (placed.has(node.id) || out.length >= limits.total) return;
    const inGeneric = generic || node.isGeneric;
    if (inGeneric && depth > genericReportingLevel) return;
    placed.add(node.id);
    const { actual, max } = total(node);
    const ratio = scoreRatio({ actual, max });
    out.push({ ...node, actual, max, ratio, medal: medalOfLevel(ratio), color: medalColor(ratio), depth });
    for (const child of (children.get(node.id) ?? []).slice(0, limits.perParent))
      walk(child, depth + 1, inGeneric);
  };
  for (const root of children.get(null) ?? []) walk(root, 0, false);
  return out;
}

export interface CategoryPoints extends PointSums {
  categoryId: string;
}

/**
 * A job's (course category's) percent out of 100: floor(100 × points earned / points possible)
 * on the learner's graded pages in that category's courses; 0 while nothing is graded yet.
 */
export function categoryPercent({ actual, max }: PointSums): number {
  const ratio = scoreRatio({ actual: finite(actual), max: finite(max) });
  return Math.floor(Number((ratio * 100).toFixed(9)));
}

/**
 * docs/product.md §9 competency widget padding: a row count that is a multiple of 4 gets 140px, of 3 200px,
 * anything else 80px (4 is checked first: 12 is a multiple of both).
 */
export function competencyWidgetPadding(count: number): '140px' | '200px' | '80px' {
  if (count > 0 && count % 4 === 0) return '140px';
  if (count > 0 && count % 3 === 0) return '200px';
  return '80px';
}
