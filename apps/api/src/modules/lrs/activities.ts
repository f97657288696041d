import type { z } from 'zod';
import type { Db } from '../../db/db';
import type { Tx } from '../../db/tx';
import type { activitySchema } from './statement-schema';
import type { StoredStatement } from './store';

type Activity = z.infer<typeof activitySchema>;

/**
 * The Activities resource's memory (xAPI-Communication.md §2.5): every activity a stored
 * statement names, with its definition merged across statements — names and descriptions keep
 * every language sent, other properties take the latest. Written in the statements' transaction.
 */
type Definition = Record<string, unknown>;
interface ActivityRef {
  id: string;
  definition?: Definition | undefined;
}

/** The activities of a statement: its object, context activities, and a SubStatement's. */
function activitiesOf(body: Record<string, unknown>, out: ActivityRef[]): void {
  const o = body.object as { objectType?: string; id?: string; definition?: Definition } | undefined;
  if (o && (o.objectType === undefined || o.objectType === 'Activity') && typeof o.id === 'string')
    out.push({ id: o.id, definition: o.definition });
  if (o?.objectType === 'SubStatement') activitiesOf(o as Record<string, unknown>, out);
  const ca = (body.context as { contextActivities?: Record<string, ActivityRef[] | undefined> } | undefined)
    ?.contextActivities;
  for (const list of Object.values(ca ?? {})) for (const a of list ?? []) out.push(a);
}

const LANGUAGE_MAPS = new Set(['name', 'description']);

export function mergeDefinition(old: Definition, next: Definition | undefined): Definition {
  if (!next) return old;
  const merged: Definition = { ...old };
  for (const [k, v] of Object.entries(next)) {
    merged[k] =
      LANGUAGE_MAPS.has(k) && old[k] && typeof old[k] === 'object'
        ? { ...(old[k] as object), ...(v as object) }
        : v;
  }
  return merged;
}

export async function recordActivities(trx: Tx, contextId: string, inserted: StoredStatement[]) {
  const refs: ActivityRef[] = [];
  for (const s of inserted) activitiesOf(s.body as unknown as Record<string, unknown>, refs);
  if (refs.length === 0) return;
  const ids = [...new Set(refs.map((r) => r.id))];
  const rows = await trx
    .selectFrom('xapiActivities')
    .select(['id', 'definition'])
    .where('contextId', '=', contextId)
    .where('id', 'in', ids)
    .execute();
  const known = new Map(rows.map((r) => [r.id, JSON.parse(r.definition) as Definition]));
  const next = new Map<string, Definition>();
  for (const r of refs)
    next.set(r.id, mergeDefinition(next.get(r.id) ?? known.get(r.id) ?? {}, r.definition));
  for (const [id, definition] of next) {
    const text = JSON.stringify(definition);
    if (known.has(id) && JSON.stringify(known.get(id)) === text) continue;
    await trx
      .insertInto('xapiActivities')
      .values({ contextId, id, definition: text })
      .onConflict((oc) => oc.columns(['contextId', 'id']).doUpdateSet({ definition: text }))
      .execute();
  }
}

/** The Activity object of an id: its merged definition when one was ever sent; null if never seen. */
export async function findActivity(db: Db, contextId: string, id: string) {
  const row = await db
    .selectFrom('xapiActivities')
    .select('definition')
    .where('contextId', '=', contextId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  // Merged from definitions that passed the statement schema, so one too.
  const definition = JSON.parse(row.definition) as NonNullable<Activity['definition']>;
  return {
    objectType: 'Activity' as const,
    id,
    ...(Object.keys(definition).length > 0 ? { definition } : {}),
  };
}
