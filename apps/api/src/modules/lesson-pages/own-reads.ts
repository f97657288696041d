import type { FastifyInstance, FastifyRequest } from 'fastify';
import { scopeOf } from '../scope';

/**
 * How the player's two reads (`GET …/pages/current`, `GET /pages/{id}/resources`) ask the answer
 * cache (decision 0068): as the viewer's own answer, at `now` (the clock their time rules use),
 * with the stamps read from the database on PostgreSQL. There the process's copy of the stamps
 * hears other writers by notification, within its delay, and a package's runtime writes a page
 * with no signed-in user: the copy could serve an unanswered page right after its finish.
 * SQLite's copy is exact (lib/viewer-copy.ts).
 */
export function ownPlayerRead(app: FastifyInstance, request: FastifyRequest, now: number) {
  return { viewer: scopeOf(app.db, request).viewer, own: true, now, exact: app.dbKind === 'postgres' };
}
