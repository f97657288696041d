import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MIGRATION_NAMES } from '../db/db';
import type { Db } from '../db/db';

declare module 'fastify' {
  interface FastifyInstance {
    /** Set when a stop began (server.ts): readiness answers 503 from then on. */
    lifecycle: { draining: boolean };
  }
}

const body = z.object({
  status: z.enum(['ok', 'ready', 'draining', 'unavailable']),
  checks: z.record(z.string(), z.string()).optional(),
});

/**
 * Liveness and readiness for a load balancer or an orchestrator (issue 30, docs/operations.md).
 * Both sit outside the tenant-scoped `/api` plugin: a probe comes with any Host (an address, a
 * pod name). Never rate-limited (the limiter is off unless a route opts in) and logged only at
 * `warn`, so a probe every second does not fill the logs.
 */
export function registerHealth(app: FastifyInstance, db: Db): void {
  app.decorate('lifecycle', { draining: false });
  // Once every migration of this code is seen applied it stays so: later ones belong to newer code.
  let migrated = false;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const common = { logLevel: 'warn' as const };

  api.get(
    '/api/health/live',
    {
      ...common,
      schema: { tags: ['operations'], summary: 'Liveness: the process answers.', response: { 200: body } },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { status: 'ok' as const };
    },
  );

  api.get(
    '/api/health/ready',
    {
      ...common,
      schema: {
        tags: ['operations'],
        summary: 'Readiness: database reachable, migrations applied, not stopping (else 503).',
        response: { 200: body, 503: body },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      if (app.lifecycle.draining) return reply.code(503).send({ status: 'draining' });
      const checks: Record<string, string> = {};
      try {
        if (migrated) await sql`select 1`.execute(db);
        else {
          // Unqualified: the table of the schema on the search_path (PG_SCHEMA), or SQLite's.
          const rows = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
          const applied = new Set(rows.rows.map((r) => r.name));
          migrated = MIGRATION_NAMES.every((n) => applied.has(n));
        }
        checks.database = 'ok';
        checks.migrations = migrated ? 'ok' : 'pending';
      } catch {
        checks.database = 'unreachable';
      }
      const ok = checks.database === 'ok' && checks.migrations === 'ok';
      return reply.code(ok ? 200 : 503).send({ status: ok ? 'ready' : 'unavailable', checks });
    },
  );
}
