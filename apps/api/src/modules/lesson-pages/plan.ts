import { conditionsVerdict, parseConditions } from '@parcours/domain/node-conditions';
import type { NodeCondition, PageOutcome } from '@parcours/domain/node-conditions';
import { scoreRatio } from '@parcours/domain/progress';

/**
 * The pages of a lesson, in the server's order (docs/api.md "Lesson player"): the block and
 * multiblock children of its enabled sections (container nodes), sections in `order`, children
 * in `order`, ties on id — the same order as the lesson `tree`. A multiblock is one slot whose
 * child blocks the learner chooses from. Pure: the caller loads the nodes.
 */
export interface PlanNode {
  id: string;
  parentId: string | null;
  type: string;
  order: number;
  title: string | null;
  blockId: string | null;
  settings: string;
  tools: string;
  attachmentIds: string;
  /** JSON text of the node's conditions (decision 0051); absent: none. */
  conditions?: string;
}

export interface Slot {
  index: number;
  node: PlanNode;
  sectionId: string;
  /** Multiblock: its block children, in order; empty for a block slot. */
  children: PlanNode[];
  /** Its section's conditions and its own (decision 0051): all must hold for the learner to see it. */
  conditions: NodeCondition[];
}

export interface LessonPlan {
  slots: Slot[];
  /** Enabled section ids, in order. */
  sections: string[];
  nodes: Map<string, PlanNode>;
  /** The slot a node belongs to: itself, or its multiblock parent. */
  slotOfNode(nodeId: string): Slot | undefined;
}

const byOrder = (a: PlanNode, b: PlanNode) => a.order - b.order || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export function buildPlan(nodes: readonly PlanNode[], enabledSectionIds: readonly string[]): LessonPlan {
  const children = new Map<string, PlanNode[]>();
  for (const n of nodes) if (n.parentId) children.set(n.parentId, [...(children.get(n.parentId) ?? []), n]);
  const enabled = new Set(enabledSectionIds);
  const sections = nodes
    .filter((n) => n.type === 'container' && (enabled.size === 0 || enabled.has(n.id)))
    .sort(byOrder);
  const slots: Slot[] = [];
  const slotByNode = new Map<string, Slot>();
  for (const section of sections) {
    for (const n of [...(children.get(section.id) ?? [])].sort(byOrder)) {
      if (n.type !== 'block' && n.type !== 'multiblock') continue;
      const kids =
        n.type === 'multiblock'
          ? [...(children.get(n.id) ?? [])].filter((c) => c.type === 'block').sort(byOrder)
          : [];
      const conditions = [...parseConditions(section.conditions), ...parseConditions(n.conditions)];
      const slot: Slot = { index: slots.length, node: n, sectionId: section.id, children: kids, conditions };
      slots.push(slot);
      slotByNode.set(n.id, slot);
      for (const k of kids) slotByNode.set(k.id, slot);
    }
  }
  return {
    slots,
    sections: sections.map((s) => s.id),
    nodes: new Map(nodes.map((n) => [n.id, n])),
    slotOfNode: (nodeId) => slotByNode.get(nodeId),
  };
}

/** A slot is done when its block page (or, for a multiblock, one of its children's pages) is COMPLETED. */
export function slotDone(slot: Slot, completedNodeIds: ReadonlySet<string>): boolean {
  return slot.node.type === 'multiblock'
    ? slot.children.some((c) => completedNodeIds.has(c.id))
    : completedNodeIds.has(slot.node.id);
}

/** What a plan's rules read of a page. */
export interface PageMark {
  nodeId: string;
  progress: string | null;
  scoreActual: number;
  scoreMax: number;
}

/**
 * The slots passed over (decision 0051): those whose conditions do not hold, given the pages the
 * learner completed. Decided slot by slot in reading order, since a condition may name a page that
 * was itself passed over; a slot the learner already has a page for is never passed over.
 */
export function passedOverSlots(plan: LessonPlan, pages: readonly PageMark[]): Set<number> {
  const passed = new Set<number>();
  if (!plan.slots.some((s) => s.conditions.length > 0)) return passed;
  const completed = new Map<string, PageMark>();
  const reached = new Set<string>();
  for (const p of pages) {
    reached.add(p.nodeId);
    if (p.progress === 'COMPLETED') completed.set(p.nodeId, p);
  }
  const outcomeOf = (nodeId: string): PageOutcome => {
    const page = completed.get(nodeId);
    if (page)
      return {
        kind: 'done',
        ratio: scoreRatio({ actual: Number(page.scoreActual), max: Number(page.scoreMax) }),
      };
    const slot = plan.slotOfNode(nodeId);
    if (!slot) return { kind: 'passed' };
    if (passed.has(slot.index)) return { kind: 'passed' };
    // Another block of the same choice was taken: this one will never be seen.
    if (slot.children.some((c) => c.id !== nodeId && completed.has(c.id))) return { kind: 'passed' };
    return { kind: 'pending' };
  };
  for (const slot of plan.slots) {
    if (slot.conditions.length === 0) continue;
    if (reached.has(slot.node.id) || slot.children.some((c) => reached.has(c.id))) continue;
    if (conditionsVerdict(slot.conditions, outcomeOf) === 'unmet') passed.add(slot.index);
  }
  return passed;
}

/** Whether every slot is done or passed over: the lesson is complete. */
export function everySlotDone(plan: LessonPlan, pages: readonly PageMark[]): boolean {
  const done = new Set(pages.filter((p) => p.progress === 'COMPLETED').map((p) => p.nodeId));
  const passed = passedOverSlots(plan, pages);
  return plan.slots.length > 0 && plan.slots.every((s) => passed.has(s.index) || slotDone(s, done));
}

/** The first slot from `from` on (stepping by `step`) that is not passed over. */
export function nextShownSlot(
  plan: LessonPlan,
  pages: readonly PageMark[],
  from: number,
  step: 1 | -1,
): Slot | undefined {
  const passed = passedOverSlots(plan, pages);
  for (let i = from; i >= 0 && i < plan.slots.length; i += step) if (!passed.has(i)) return plan.slots[i];
  return undefined;
}
