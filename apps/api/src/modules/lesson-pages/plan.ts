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
}

export interface Slot {
  index: number;
  node: PlanNode;
  sectionId: string;
  /** Multiblock: its block children, in order; empty for a block slot. */
  children: PlanNode[];
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
      const slot: Slot = { index: slots.length, node: n, sectionId: section.id, children: kids };
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
