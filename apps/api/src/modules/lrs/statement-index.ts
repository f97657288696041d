import type { Tx } from '../../db/tx';
import { actorKey } from './statement-schema';
import type { StoredStatement } from './store';

/**
 * What GET statements filters `agent` and `activity` on (xAPI-Communication.md §2.1.3): the
 * agents and activities each statement names, `direct` for its actor or object, the others for
 * `related_agents` (authority, instructor, team, and these in a SubStatement) and
 * `related_activities` (context activities, a SubStatement's object and context). Written in
 * the statements' transaction.
 */
type Json = Record<string, unknown>;
type Ifi = Parameters<typeof actorKey>[0];

const isActivity = (o: Json) => o.objectType === undefined || o.objectType === 'Activity';
const isActor = (o: Json) => o.objectType === 'Agent' || o.objectType === 'Group';

function collect(s: Json, direct: boolean, agents: Map<string, boolean>, activities: Map<string, boolean>) {
  const addAgent = (a: unknown, d: boolean) => {
    if (!a || typeof a !== 'object') return;
    const key = actorKey(a as Ifi);
    if (key) agents.set(key, (agents.get(key) ?? false) || d);
  };
  const addActivity = (a: unknown, d: boolean) => {
    const id = (a as { id?: unknown } | undefined)?.id;
    if (typeof id === 'string') activities.set(id, (activities.get(id) ?? false) || d);
  };
  addAgent(s.actor, direct);
  const o = (s.object ?? {}) as Json;
  if (isActor(o)) addAgent(o, direct);
  else if (isActivity(o)) addActivity(o, direct);
  else if (o.objectType === 'SubStatement') collect(o, false, agents, activities);
  addAgent(s.authority, false);
  const c = (s.context ?? {}) as Json;
  addAgent(c.instructor, false);
  addAgent(c.team, false);
  for (const list of Object.values((c.contextActivities ?? {}) as Record<string, unknown[]>))
    for (const a of list ?? []) addActivity(a, false);
}

export async function indexStatements(trx: Tx, contextId: string, inserted: StoredStatement[]) {
  const agentRows = [];
  const activityRows = [];
  for (const s of inserted) {
    const agents = new Map<string, boolean>();
    const activities = new Map<string, boolean>();
    collect(s.body as unknown as Json, true, agents, activities);
    for (const [agentKey, d] of agents)
      agentRows.push({ contextId, agentKey, statementId: s.id, direct: d ? 1 : 0 });
    for (const [activityId, d] of activities)
      activityRows.push({ contextId, activityId, statementId: s.id, direct: d ? 1 : 0 });
  }
  // Batches well under the 999 bound variables of older SQLite builds (4 per row).
  for (let i = 0; i < agentRows.length; i += 200)
    await trx
      .insertInto('xapiStatementAgents')
      .values(agentRows.slice(i, i + 200))
      .execute();
  for (let i = 0; i < activityRows.length; i += 200)
    await trx
      .insertInto('xapiStatementActivities')
      .values(activityRows.slice(i, i + 200))
      .execute();
}
