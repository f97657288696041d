import { z } from 'zod';

/**
 * Node conditions (docs/product.md §3 CourseNode `conditions`, decision 0051): a section or a page
 * of a lesson is shown to a learner only when each of its conditions holds. A condition names an
 * earlier block node of the same course and, optionally, a band of that page's score ratio
 * (actual / max, 0 when max is not positive): `minScore` (at least) and `belowScore` (strictly
 * below). Without a band, the condition asks that the learner went through that page. The server
 * decides, when the learner moves on; a page whose conditions fail is passed over and counts as
 * done. Pure: the caller says what became of each named page.
 */
export const nodeConditionSchema = z
  .strictObject({
    node: z.string().min(1),
    minScore: z.number().min(0).max(1).optional(),
    belowScore: z.number().min(0).max(1).optional(),
  })
  .refine((c) => c.minScore === undefined || c.belowScore === undefined || c.minScore < c.belowScore, {
    message: 'minScore must be below belowScore',
  });
export type NodeCondition = z.infer<typeof nodeConditionSchema>;

/** What became of a named page: graded (with its ratio), passed over, or not reached yet. */
export type PageOutcome = { kind: 'done'; ratio: number } | { kind: 'passed' } | { kind: 'pending' };

export type Verdict = 'met' | 'unmet' | 'pending';

export function conditionVerdict(c: NodeCondition, outcome: PageOutcome): Verdict {
  if (outcome.kind === 'pending') return 'pending';
  // A page the learner never saw has no score: a condition on it does not hold.
  if (outcome.kind === 'passed') return 'unmet';
  if (c.minScore !== undefined && outcome.ratio < c.minScore) return 'unmet';
  if (c.belowScore !== undefined && outcome.ratio >= c.belowScore) return 'unmet';
  return 'met';
}

/** All must hold: one unmet decides `unmet`; otherwise one not yet decided leaves it `pending`. */
export function conditionsVerdict(
  conditions: readonly NodeCondition[],
  outcomeOf: (nodeId: string) => PageOutcome,
): Verdict {
  let verdict: Verdict = 'met';
  for (const c of conditions) {
    const v = conditionVerdict(c, outcomeOf(c.node));
    if (v === 'unmet') return 'unmet';
    if (v === 'pending') verdict = 'pending';
  }
  return verdict;
}

/** Conditions as stored (JSON text or a parsed value): anything unreadable is left out, never a failure. */
export function parseConditions(value: unknown): NodeCondition[] {
  let v = value;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v) as unknown;
    } catch {
      return [];
    }
  }
  if (!Array.isArray(v)) return [];
  return v.flatMap((c) => {
    const parsed = nodeConditionSchema.safeParse(c);
    return parsed.success ? [parsed.data] : [];
  });
}
