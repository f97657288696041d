import type { FastifyInstance } from 'fastify';
import type { Env } from '../../env';
import { quotasFrom } from './config';
import type { Quotas } from './config';
import { startQuotaJanitor } from './orphans';

declare module 'fastify' {
  interface FastifyInstance {
    /** What one learner, launch and tenant may write (issue 29; modules/quotas/config.ts). */
    quotas: Quotas;
  }
}

/** Decorates the quotas and runs the janitor (orphan uploads, ended periods) with the app. */
export function registerQuotas(app: FastifyInstance, env: Env, opts: { janitor?: boolean } = {}): void {
  const quotas = quotasFrom(env);
  app.decorate('quotas', quotas);
  if (opts.janitor === false) return;
  const stop = startQuotaJanitor(app.db, app.dbKind, app.filesDir, quotas.orphanGraceMs);
  app.addHook('onClose', async () => stop());
}
