import { createHash, randomUUID } from 'node:crypto';

/** A new random string id. */
export function newId(): string {
  return randomUUID();
}

/**
 * A deterministic id from stable parts (importer: the same content gives the same ids, so a
 * second import changes nothing; lessons: one per learner, class program and program course).
 */
export function stableId(...parts: string[]): string {
  const hex = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  // Shaped like a UUID so every id in the system looks alike.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** UTC ISO timestamp, the format of every timestamp column. */
export function isoNow(now: Date = new Date()): string {
  return now.toISOString();
}
