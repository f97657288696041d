/**
 * Reading answers the player holds as `unknown` (they come from the server or from a previous
 * render) into each type's shape. The player starts every row at null (no answer), which each
 * reader turns into that type's empty answer (docs/grading.md).
 */
import type { RowCorrection } from '@parcours/domain/exercises/registry';

export function asIndexList(value: unknown): number[] {
  return Array.isArray(value) ? value.filter((v): v is number => typeof v === 'number') : [];
}

export function asIndex(value: unknown): number | null {
  return typeof value === 'number' ? value : null;
}

export function asText(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function asTargetLists(value: unknown, targets: number): number[][] {
  const lists = Array.isArray(value) ? value : [];
  return Array.from({ length: targets }, (_, t) => asIndexList(lists[t]));
}

/** Item statuses for the index-set types (multiple-choice, combined-choice, pick-words, image-cliquable). */
export function itemStatuses(correction: RowCorrection | null): readonly string[] {
  if (!correction || correction.type === 'free-answer') return [];
  const items = (correction.detail as { items?: unknown }).items;
  if (!Array.isArray(items)) return [];
  return items.map((item: unknown) =>
    typeof item === 'string'
      ? item
      : typeof item === 'object' && item !== null
        ? String((item as { status?: unknown }).status)
        : 'neutral',
  );
}
