import { CLASS_CURRENT_LEAD_MS } from '@parcours/domain/constants';
import type { DrawnRead } from '../lib/drawn-reads';

/**
 * Drawn pages kept in this process (decision 0061): the home and a player page drawn for a
 * learner, kept under everything the page depends on, so the next request for it sends bytes
 * instead of drawing again (a draw is ~10 ms of React, one page at a time per process).
 *
 * The key (`drawnPageKey`) names the inputs of the renderer and of the reads it makes: the web
 * build, the tenant's context document (its name, colours and settings), the Host and scheme the
 * reads are made with, the learner, administrator or not, the address, the Accept-Language the
 * page and its reads were asked with, and the learner's two version stamps (decision 0059) —
 * the key of the answer cache the page's covered reads came from (lib/drawn-reads.ts). What the
 * stamps do not cover is kept with the entry and checked on every use:
 * - `reads`: the page's uncovered reads (none for the home and the player page since decision
 *   0068; a read added to a drawn screen until its route is cached, or staff's correction of a
 *   learner's page), made again and compared byte for byte; any difference (a 401 included)
 *   draws the page again;
 * - `validUntil`: the first instant the page could read differently — the covered reads' own
 *   time rules, and every instant the page's data names still ahead, and that instant less the
 *   home's one-day lead (`pageTimeLimit`), since the home judges a class's period at the time
 *   of its reads.
 * Bounded by bytes, least recently used first out.
 */
export interface KeptPage<P> {
  page: P;
  /** Uncovered reads, in the order the renderer made them. */
  reads: DrawnRead[];
  /** ms since the epoch; Infinity when only a write can change the page. */
  validUntil: number;
  /** What the entry holds: page bytes, read bytes, key. */
  bytes: number;
}

export interface DrawnPageKeyParts {
  build: string;
  tenant: string;
  host: string;
  proto: string;
  userId: string;
  isAdmin: boolean;
  url: string;
  acceptLanguage: string;
  stamps: { user: string; content: string };
}

/** One string for the parts: JSON, so no part's text can pass for another's. */
export function drawnPageKey(p: DrawnPageKeyParts): string {
  return JSON.stringify([
    p.build,
    p.tenant,
    p.host,
    p.proto,
    p.userId,
    p.isAdmin,
    p.url,
    p.acceptLanguage,
    p.stamps.user,
    p.stamps.content,
  ]);
}

/** ISO 8601 date-times as the API writes them (with a zone: `Z` or an offset). */
const INSTANT = /"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2}))"/g;

/**
 * The first instant after `now` at which a screen drawn from `data` (the page's data block) at
 * `now` could be drawn differently by the clock alone: each instant the data names that is still
 * ahead — a window's start or end — and that instant less one day (a class starting within a day
 * is "current": packages/domain class-timing.ts). Infinity when the data names no future instant.
 * Over-cautious on purpose: a date that changes nothing only shortens the entry's life.
 */
export function pageTimeLimit(data: string, now: number): number {
  let limit = Infinity;
  for (const match of data.matchAll(INSTANT)) {
    const at = Date.parse(match[1]!);
    if (!Number.isFinite(at)) continue;
    for (const edge of [at - CLASS_CURRENT_LEAD_MS, at]) if (edge > now && edge < limit) limit = edge;
  }
  return limit;
}

/** Least recently used first out, bounded by the bytes the entries hold. */
export class DrawnPageCache<P> {
  private readonly entries = new Map<string, KeptPage<P>>();
  private held = 0;
  /** Pages served from here, drawn, and dropped for room (tests and the bench read them). */
  readonly counts = { kept: 0, drawn: 0, evicted: 0 };

  constructor(readonly maxBytes: number) {}

  get bytes(): number {
    return this.held;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The entry, if any and still in its time (an entry past it is dropped); it becomes the newest. */
  get(key: string, now: number): KeptPage<P> | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (now >= entry.validUntil) {
      this.held -= entry.bytes;
      return undefined;
    }
    this.entries.set(key, entry);
    return entry;
  }

  /** Keeps `entry` (not one bigger than the whole cache), dropping the least recently used for room. */
  set(key: string, entry: KeptPage<P>): void {
    this.delete(key);
    if (entry.bytes > this.maxBytes) return;
    this.entries.set(key, entry);
    this.held += entry.bytes;
    for (const [oldKey, old] of this.entries) {
      if (this.held <= this.maxBytes) break;
      this.entries.delete(oldKey);
      this.held -= old.bytes;
      this.counts.evicted++;
    }
  }

  /** Each entry's uncovered reads (addresses without their query), newest last: what a use makes again. */
  uncoveredReads(): string[][] {
    return [...this.entries.values()].map((e) => e.reads.map((r) => r.url.split('?')[0]!));
  }

  delete(key: string): void {
    const old = this.entries.get(key);
    if (!old) return;
    this.entries.delete(key);
    this.held -= old.bytes;
  }
}
