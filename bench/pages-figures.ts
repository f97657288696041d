/**
 * The pure parts of the drawn pages' bench (pages-load.ts, issue 37 item 3, decision 0061): which
 * loads a round runs in which order, what a load's answer says, and the figures set against the
 * targets. Table-driven tests in pages-figures.test.ts.
 */
import { roundOrder } from './rounds';

/** Issue 37 item 3: ≥ 0.25 of the same learner's `GET /api/lessons`, p99 ≤ 50 ms at 10 connections. */
export const PAGES_TARGET = {
  ratio: { better: 'higher', limit: 0.25 },
  p99: { better: 'lower', limit: 50 },
} as const;

/** The connection counts every load runs at. */
export const CONNECTIONS = [1, 10] as const;

/** What a round loads: the JSON read the pages are set against, the drawn home, a drawn player page. */
export type Subject = 'lessons' | 'home' | 'player';
export const SUBJECTS: readonly Subject[] = ['lessons', 'home', 'player'];

export interface PlannedLoad {
  subject: Subject;
  connections: number;
}

/**
 * A round's loads in order: one group per connection count, each with the reference and the two
 * pages; groups and the loads within them alternate from round to round (rounds.ts), so what the
 * machine's neighbours do falls on each side in turn.
 */
export function roundPlan(round: number): PlannedLoad[] {
  return roundOrder(CONNECTIONS, round).flatMap((connections) =>
    roundOrder(SUBJECTS, round).map((subject) => ({ subject, connections })),
  );
}

/** The key of a load in a round's results. */
export const loadKey = (l: PlannedLoad): string => `${l.subject}@${l.connections}`;

/** What one load measured. */
export interface PageLoad {
  rps: number;
  p50: number;
  p99: number;
  /** Bytes on the wire per response, headers included (as transferred, compressed). */
  bytes: number;
  errors: number;
  non2xx: number;
}

/** Bytes per response from autocannon's totals; NaN when nothing was answered. */
export function bytesPerResponse(totalBytes: number, responses: number): number {
  return responses > 0 ? totalBytes / responses : NaN;
}

/** A page's rate over the reference's in the same round; NaN when either is missing or the reference served nothing. */
export function pageRatio(page: PageLoad | undefined, reference: PageLoad | undefined): number {
  return page && reference && reference.rps > 0 ? page.rps / reference.rps : NaN;
}

/**
 * Whether an HTML answer is a page drawn for the signed-in learner (decision 0046's mark on
 * `#root`), not the shell every browser gets: a bench of the shell would measure a static file.
 */
export function isDrawnPage(html: string): boolean {
  return html.includes('data-prerendered="signed-in"');
}

/** "12.3 kB" */
export function kilobytes(bytes: number): string {
  return Number.isFinite(bytes) ? `${(bytes / 1024).toFixed(1)} kB` : 'n/a';
}
