/**
 * cmi5 satisfaction of a registration (issue 39 item 1; cmi5 spec §9.3.7, §9.3.9, §9.6.1): what
 * each AU recorded, its moveOn met (NotApplicable as soon as the registration exists, waived by
 * a teacher or an operator), and the `satisfied` statements of each block whose AUs are all
 * satisfied and of the course once every AU is — once per registration, in the session that
 * satisfied them, blocks first. The course satisfied scores the package page.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db, DbKind } from '../../db/db';
import { auSettings } from '../../content/packages/manifest';
import type { Cmi5Settings } from '../../content/packages/manifest';
import { storeEmittedNow } from '../lrs/emit';
import type { Agent, Statement } from '../lrs/statement-schema';
import type { LaunchRow } from './launches';
import { moveOnFraction } from './move-on';
import { auActivityId, auRecord } from './cmi5-record';
import { scorePage } from './score';
import { VERBS, satisfiedStatement } from './statements';
import type { Cmi5Session } from './statements';

export interface TenantFacts {
  id: string;
  alias: string;
  hosts: string;
  settings: string;
}

export interface Cmi5Deps {
  db: Db;
  kind: DbKind;
  now: Date;
  log: FastifyBaseLogger;
}

/** The course object of `satisfied` statements (§9.4): generated, never the publisher's id. */
export const courseObjectId = (blockId: string) => `urn:parcours:block:${blockId}/course`;
/** A cmi5 block's object of `satisfied` statements (§9.4): generated, never the publisher's id. */
export const cmi5BlockObjectId = (blockId: string, cmi5BlockId: string) =>
  `urn:parcours:block:${blockId}/cmi5-block/${encodeURIComponent(cmi5BlockId)}`;

/** The objects the LMS already said `satisfied` about in the registration. */
async function satisfiedObjects(db: Db, launch: LaunchRow): Promise<Set<string>> {
  const rows = await db
    .selectFrom('xapiStatements')
    .select('activityId')
    .where('contextId', '=', launch.contextId)
    .where('userId', '=', launch.userId)
    .where('registration', '=', launch.registration)
    .where('verbId', '=', VERBS.satisfied.id)
    .where('voided', '=', 0)
    .execute();
  return new Set(rows.map((r) => r.activityId).filter((a): a is string => !!a));
}

/** Each AU's fraction once satisfied (NotApplicable and waived: whole), null while not. */
async function auFractions(d: Cmi5Deps, launch: LaunchRow, course: Cmi5Settings): Promise<(number | null)[]> {
  const count = course.aus?.length ?? 1;
  const out: (number | null)[] = [];
  for (let i = 0; i < count; i++) {
    const au = auSettings(course, i);
    if (!au) break;
    if (au.moveOn === 'NotApplicable') {
      out.push(1);
      continue;
    }
    const record = await auRecord(d.db, launch, auActivityId(launch.blockId, au.auId));
    out.push(record.waived ? 1 : moveOnFraction(au.moveOn, record));
  }
  return out;
}

/** One satisfied statement about a block or the course, in the session given. */
function satisfied(
  session: Cmi5Session,
  object: string,
  type: 'block' | 'course',
  publisherId: string,
  at: Date,
): Statement {
  return satisfiedStatement(session, object, type, publisherId, at);
}

/**
 * Evaluates the registration: the blocks and the course newly satisfied get their `satisfied`
 * (blocks first, innermost first), in `session`; the course satisfied scores the page once.
 * True when the course is satisfied.
 */
export async function evaluateRegistration(
  d: Cmi5Deps,
  launch: LaunchRow,
  course: Cmi5Settings,
  tenant: TenantFacts,
  actor: Agent,
  sessionId: string,
): Promise<boolean> {
  const fractions = await auFractions(d, launch, course);
  const done = new Set(await satisfiedObjects(d.db, launch));
  const au0 = auSettings(course, launch.auIndex) ?? auSettings(course, 0);
  if (!au0) return false;
  const session: Cmi5Session = {
    actor,
    registration: launch.registration,
    sessionId,
    activityId: auActivityId(launch.blockId, au0.auId),
    settings: au0,
    launchMode: launch.launchMode,
  };
  const out: Statement[] = [];
  const aus = course.aus ?? [];
  // Innermost blocks first: a block is satisfied before the block that holds it.
  const blocks = [...(course.blocks ?? [])].reverse();
  for (const b of blocks) {
    const inside = aus.map((a, i) => (a.blocks.includes(b.id) ? i : -1)).filter((i) => i >= 0);
    if (!inside.length || !inside.every((i) => fractions[i] !== null && fractions[i] !== undefined)) continue;
    const object = cmi5BlockObjectId(launch.blockId, b.id);
    if (done.has(object)) continue;
    done.add(object);
    out.push(satisfied(session, object, 'block', b.id, d.now));
  }
  const all = fractions.length > 0 && fractions.every((f) => f !== null);
  const courseObject = courseObjectId(launch.blockId);
  if (all && !done.has(courseObject))
    out.push(satisfied(session, courseObject, 'course', course.courseId, d.now));
  if (out.length)
    await storeEmittedNow(
      d.db,
      d.kind,
      tenant,
      out.map((statement) => ({ userId: launch.userId, statement })),
    );
  if (!all) return false;
  const values = fractions as number[];
  const fraction = values.reduce((a, b) => a + b, 0) / values.length;
  await scorePage(d, launch, Math.min(1, Math.max(0, fraction)));
  return true;
}
