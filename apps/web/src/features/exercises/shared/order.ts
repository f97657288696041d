/**
 * Display order of choices. Answers always use the content's indexes; only what the learner sees
 * moves. Shuffling happens only when the row asks for it (`keepOrder: false`), and is seeded by
 * the row so a re-render or a return to the page shows the same order.
 */
export function displayOrder(count: number, keepOrder: unknown, seed: string): number[] {
  const order = Array.from({ length: count }, (_, i) => i);
  if (keepOrder !== false) return order;
  let h = 2166136261;
  for (const ch of seed) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  for (let i = count - 1; i > 0; i--) {
    h = Math.imul(h ^ (h >>> 15), 2246822507) >>> 0;
    const j = h % (i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

/** CSS grid columns from the row's `columns` setting, bounded to what a phone can show. */
export function columnsOf(settings: Record<string, unknown> | undefined): number {
  const value = Number(settings?.columns);
  return Number.isInteger(value) && value > 0 ? Math.min(value, 6) : 1;
}
