import type { FastifyInstance } from 'fastify';
import type { Env } from '../../env';
import { opsFigures } from '../../lib/ops-figures';
import { registerBudget } from './budget';
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
export function registerQuotas(app: FastifyInstance, env: Env): void {
  const quotas = quotasFrom(env);
  app.decorate('quotas', quotas);
  // A tenant's figure passed: the operator is told (metric, warn log); nobody is refused.
  registerBudget(app.db, quotas, (a) => {
    opsFigures.onTenantAlarm?.(a.road);
    app.log.warn(a, 'a tenant passed its write figure (decision 0055): look at its heaviest writers');
  });
  // Tests turn it off: a sweep's statements would mix with the statements a test counts.
  if (env.QUOTA_JANITOR_MINUTES === 0) return;
  const stop = startQuotaJanitor(
    app.db,
    app.dbKind,
    app.files,
    quotas.orphanGraceMs,
    env.QUOTA_JANITOR_MINUTES * 60 * 1000,
  );
  app.addHook('onClose', async () => stop());
}
