/**
 * Figures the hot paths report for the metrics (plugins/metrics.ts), without depending on
 * prom-client: a path calls one of these, which does nothing until the metrics listener is on.
 * Process-wide, like the pools they describe (one group-commit batcher per database handle, one
 * password-hashing pool).
 */
export const opsFigures = {
  /** A group commit (SQLite, decision 0007) committed this many writes. */
  onBatch: null as ((writes: number) => void) | null,
  /** A statement could not be forwarded to a tenant's LRS (it will be retried). */
  onForwardFailure: null as (() => void) | null,
  /** A tenant's writes of one road passed its alarm figure (modules/quotas/budget.ts). */
  onTenantAlarm: null as ((road: string) => void) | null,
};
