import { DASHBOARD_PAGE_SIZE } from './constants';

// Re-exported so pagination callers need one import; the values live with the other docs/product.md §9 constants.
export { DASHBOARD_PAGE_SIZE, LIMITS } from './constants';

function assertPageSize(size: number): void {
  if (!Number.isInteger(size) || size < 1)
    throw new RangeError(`page size must be a positive integer, got ${size}`);
}

/** Number of pages needed for `total` items; 0 when there is nothing to show. */
export function pageCount(total: number, size: number = DASHBOARD_PAGE_SIZE): number {
  assertPageSize(size);
  if (!Number.isFinite(total) || total <= 0) return 0;
  return Math.ceil(Math.floor(total) / size);
}

/**
 * 1-based page holding the 0-based `index`. A negative index (findIndex found nothing, e.g.
 * the last active class is gone) gives page 1 so the home restores a valid page.
 */
export function pageOf(index: number, size: number = DASHBOARD_PAGE_SIZE): number {
  assertPageSize(size);
  if (!Number.isFinite(index) || index < 0) return 1;
  return Math.floor(index / size) + 1;
}

/** Items of the 1-based `page`; empty for a page outside the list. */
export function slicePage<T>(items: readonly T[], page: number, size: number = DASHBOARD_PAGE_SIZE): T[] {
  assertPageSize(size);
  if (!Number.isInteger(page) || page < 1) return [];
  return items.slice((page - 1) * size, page * size);
}

/** Brings a page back into 1..pageCount after the list shrank (or grew from empty). */
export function clampPage(page: number, total: number, size: number = DASHBOARD_PAGE_SIZE): number {
  const last = Math.max(1, pageCount(total, size));
  if (!Number.isFinite(page) || page < 1) return 1;
  return Math.min(Math.floor(page), last);
}
