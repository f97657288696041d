import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';

/**
 * A cmi5 course's unit statuses in the player's page read (decision 0071) are built from the
 * learner's cmi5 defined statements of the page's registration; that read is served from the
 * answer cache under the learner's `u:{userId}` (decision 0068), so those statements move it.
 *
 * Only the verbs an AU's status is read from (cmi5-satisfaction.ts `CMI5_RECORD_VERBS`: launched,
 * completed, passed, failed, terminated, waived) and abandoned (a teacher's or an operator's act on
 * the session), with a registration and a learner: an AU's `experienced`, `answered` or
 * `progressed` statements, hundreds a session, move nothing. A statement of these verbs moves
 * the stamp when stored, when voided (`voided` set, store.ts) and when deleted (an erasure).
 * The verbs are written out here, not imported: a migration stays as it ran.
 *
 * On PostgreSQL the triggers are constraint triggers deferred to the commit like 0014's, calling
 * 0028's `home_bump_user_of('user_id')`; 0028's trigger on `home_versions` announces the move.
 */
const ADL = 'http://adlnet.gov/expapi/verbs/';
const ADL_W3ID = 'https://w3id.org/xapi/adl/verbs/';
export const STATUS_VERBS = [
  `${ADL}launched`,
  `${ADL}completed`,
  `${ADL}passed`,
  `${ADL}failed`,
  `${ADL}terminated`,
  `${ADL_W3ID}waived`,
  `${ADL_W3ID}abandoned`,
];

const verbs = STATUS_VERBS.map((v) => `'${v}'`).join(', ');
const of = (row: 'new' | 'old') =>
  `${row}.registration is not null and ${row}.user_id is not null and ${row}.verb_id in (${verbs})`;

/** [event, the row whose learner moves, condition]. */
const TRIGGERS: [string, 'new' | 'old', string][] = [
  ['insert', 'new', of('new')],
  ['update of voided', 'new', `new.voided <> old.voided and ${of('new')}`],
  ['delete', 'old', of('old')],
];

const name = (i: number) => `hv_xapi_statements_status_${i}`;

function upStatements(pg: boolean): string[] {
  return TRIGGERS.map(([event, row, when], i) =>
    pg
      ? `create constraint trigger ${name(i)} after ${event} on xapi_statements
         deferrable initially deferred for each row when (${when})
         execute function home_bump_user_of('user_id')`
      : `create trigger ${name(i)} after ${event} on xapi_statements for each row when ${when}
         begin insert into home_versions (key, version) select 'u:' || ${row}.user_id, 1 where true
         on conflict (key) do update set version = version + 1; end`,
  );
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const statement of upStatements(pg)) await sql.raw(statement).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const [i] of TRIGGERS.entries())
    await sql.raw(pg ? `drop trigger ${name(i)} on xapi_statements` : `drop trigger ${name(i)}`).execute(db);
}
