import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepared } from '../../src/db/prepared';
import { isReadOnlyRefusal, readOnly } from '../../src/db/read-only';
import type { Db } from '../../src/db/db';
import { writeTx } from '../../src/db/tx';
import { createTestDb, type TestDb } from '../helpers/test-db';

/**
 * The read-only scope (decision 0057) is the database's verdict, on each road SQL takes: a write
 * through any of them is refused in the scope and nothing of it is kept; reads pass; outside the
 * scope the same writes go through.
 */
let tdb: TestDb;
beforeAll(async () => {
  tdb = await createTestDb();
});
afterAll(async () => tdb?.close());

const bump = prepared((db: Db, key: string) =>
  db
    .insertInto('homeVersions')
    .values({ key, version: 1 })
    .onConflict((oc) => oc.doNothing()),
);
const readKey = prepared((db: Db, key: string) =>
  db.selectFrom('homeVersions').select('version').where('key', '=', key),
);

/** Each road a write can take to the database, writing the row `key`. */
const roads: Record<string, (db: Db, key: string) => Promise<unknown>> = {
  'a Kysely query': (db, key) => db.insertInto('homeVersions').values({ key, version: 1 }).execute(),
  'raw SQL': (db, key) => sql`insert into home_versions (key, version) values (${key}, 1)`.execute(db),
  'a prepared query': (db, key) => bump.run(db, key),
  'the write batcher': (db, key) =>
    writeTx(db, tdb.kind, (trx) => trx.insertInto('homeVersions').values({ key, version: 1 }).execute()),
  'a Kysely transaction': (db, key) =>
    db.transaction().execute((trx) => trx.insertInto('homeVersions').values({ key, version: 1 }).execute()),
  'an update hidden in a read': (db, key) =>
    tdb.kind === 'postgres'
      ? sql`with w as (insert into home_versions (key, version) values (${key}, 1) returning key) select * from w`.execute(
          db,
        )
      : sql`insert into home_versions (key, version) values (${key}, 1) returning key`.execute(db),
};

const stored = async (key: string) =>
  (await tdb.db.selectFrom('homeVersions').select('key').where('key', '=', key).execute()).length;

describe('the read-only scope', () => {
  it.each(Object.keys(roads))('refuses a write through %s, and keeps nothing of it', async (road) => {
    const key = `ro:${road}`;
    const error = await readOnly('a test', () => roads[road]!(tdb.db, key)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).not.toBeNull();
    expect(readOnly('a test', () => isReadOnlyRefusal(error))).toBe(true);
    expect(await stored(key)).toBe(0);
    // The same write outside the scope goes through.
    await roads[road]!(tdb.db, key);
    expect(await stored(key)).toBe(1);
  });

  it('lets reads through, prepared or not, and many at once', async () => {
    const reads = await readOnly('a test', () =>
      Promise.all([
        readKey.first(tdb.db, 'ro:a Kysely query'),
        tdb.db.selectFrom('homeVersions').select('key').where('key', 'like', 'ro:%').execute(),
        sql`select 1 as one`.execute(tdb.db),
      ]),
    );
    expect(reads[0]).toBeDefined();
    expect(reads[1].length).toBe(Object.keys(roads).length);
  });

  it('is the scope of the work started in it only: a write outside it, meanwhile, goes through', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const inScope = readOnly('a test', async () => {
      await held;
      return roads['a Kysely query']!(tdb.db, 'ro:late');
    });
    await roads['a Kysely query']!(tdb.db, 'ro:beside');
    release();
    await expect(inScope).rejects.toBeDefined();
    expect([await stored('ro:beside'), await stored('ro:late')]).toEqual([1, 0]);
  });
});
