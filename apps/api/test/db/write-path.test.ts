import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDb } from '../../src/db/db';
import type { Db } from '../../src/db/db';
import { countSqliteStatements, prepared, sqliteDatabaseOf } from '../../src/db/prepared';
import { MAX_BATCH, writeTx } from '../../src/db/tx';
import { createTestDb } from '../helpers/test-db';
import type { TestDb } from '../helpers/test-db';

/**
 * The write path of decision 0007: prepared queries (the same rows whichever way they run) and
 * writeTx's guarantees (on SQLite, several writes share one commit), on both databases.
 */

const insertTenant = prepared((db: Db, id: string, name: string) =>
  db.insertInto('contexts').values({
    id,
    alias: id,
    name,
    hosts: '[]',
    assets: '{}',
    metas: '{}',
    settings: '{}',
    createdAt: '2026-01-01',
    updatedAt: '2026-01-01',
  }),
);
const tenantById = prepared((db: Db, id: string) =>
  db.selectFrom('contexts').select(['id', 'name', 'isGeneric']).where('id', '=', id),
);
const tenantsNamed = prepared((db: Db, name: string) =>
  db.selectFrom('contexts').select(['id', 'name']).where('name', '=', name).orderBy('id'),
);
const rename = prepared((db: Db, id: string, name: string) =>
  db.updateTable('contexts').set({ name }).where('id', '=', id),
);

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  await t.close();
});

describe('prepared queries', () => {
  it('return camelCase rows like Kysely, count changed rows, and bind each call its own arguments', async () => {
    expect(await insertTenant.run(t.db, 'p-1', 'Prepared one')).toBe(1);
    expect(await insertTenant.run(t.db, 'p-2', 'Prepared two')).toBe(1);
    expect(await tenantById.first(t.db, 'p-1')).toEqual({ id: 'p-1', name: 'Prepared one', isGeneric: 0 });
    expect(await tenantById.first(t.db, 'p-2')).toEqual(
      await t.db
        .selectFrom('contexts')
        .select(['id', 'name', 'isGeneric'])
        .where('id', '=', 'p-2')
        .executeTakeFirst(),
    );
    expect(await tenantById.first(t.db, 'nope')).toBeUndefined();
    expect(await rename.run(t.db, 'nope', 'x')).toBe(0);
    expect(await rename.run(t.db, 'p-2', 'Prepared one')).toBe(1);
    expect(await tenantsNamed.all(t.db, 'Prepared one')).toEqual([
      { id: 'p-1', name: 'Prepared one' },
      { id: 'p-2', name: 'Prepared one' },
    ]);
  });

  it('refuses a builder that does not bind an argument as a value', async () => {
    const bad = prepared((db: Db, _unused: string) => db.selectFrom('contexts').select('id'));
    await expect(bad.all(t.db, 'x')).rejects.toThrow(/argument 0 is not a bound value/);
  });

  it('see the writes of their own transaction, and never another one still open', async () => {
    await insertTenant.run(t.db, 'p-3', 'Before');
    let releaseTx!: () => void;
    const held = new Promise<void>((r) => (releaseTx = r));
    let wrote!: () => void;
    const written = new Promise<void>((r) => (wrote = r));
    let inside: unknown;
    const tx = writeTx(t.db, t.kind, async (trx) => {
      await rename.run(trx, 'p-3', 'Uncommitted');
      inside = (await tenantById.first(trx, 'p-3'))?.name;
      wrote();
      await held;
    });
    // Once the transaction has written (it says so), read from outside while it is open.
    await written;
    const outside = tenantById.first(t.db, 'p-3');
    releaseTx();
    await tx;
    expect(inside).toBe('Uncommitted');
    // SQLite: the read waited for the connection (after the commit); PostgreSQL: it read the committed row.
    expect(['Before', 'Uncommitted']).toContain((await outside)?.name);
    expect((await tenantById.first(t.db, 'p-3'))?.name).toBe('Uncommitted');
  });
});

describe('writeTx', () => {
  it('commits each concurrent write alone: one that fails is rolled back and rejects, the others commit', async () => {
    const ids = ['w-1', 'w-2', 'w-3', 'w-4', 'w-5'];
    const outcomes = await Promise.allSettled(
      ids.map((id, i) =>
        writeTx(t.db, t.kind, async (trx) => {
          await insertTenant.run(trx, id, `Write ${i}`);
          if (id === 'w-3') throw new Error('refused after writing');
          return id;
        }),
      ),
    );
    expect(outcomes.map((o) => o.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    expect(outcomes[2]).toMatchObject({ reason: { message: 'refused after writing' } });
    const rows = await t.db
      .selectFrom('contexts')
      .select('id')
      .where('id', 'in', ids)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => r.id)).toEqual(['w-1', 'w-2', 'w-4', 'w-5']);
  });

  it('a failing statement (a duplicate key) spoils only its own write', async () => {
    const outcomes = await Promise.allSettled([
      writeTx(t.db, t.kind, (trx) => insertTenant.run(trx, 'd-1', 'First')),
      writeTx(t.db, t.kind, (trx) => insertTenant.run(trx, 'd-1', 'Duplicate')),
      writeTx(t.db, t.kind, (trx) => insertTenant.run(trx, 'd-2', 'Second')),
    ]);
    // The unrelated write always lands, and exactly one of the two same-key writes does.
    expect(outcomes[2]?.status).toBe('fulfilled');
    expect((await tenantById.first(t.db, 'd-2'))?.name).toBe('Second');
    const winner = outcomes[0]?.status === 'fulfilled' ? 'First' : 'Duplicate';
    expect(
      outcomes
        .slice(0, 2)
        .map((o) => o.status)
        .sort(),
    ).toEqual(['fulfilled', 'rejected']);
    expect((await tenantById.first(t.db, 'd-1'))?.name).toBe(winner);
    // SQLite batches the writes of one turn in order, so there the first one wins. PostgreSQL
    // runs them on separate pooled connections: whichever inserts first wins, the other waits on
    // the key and fails.
    if (t.kind === 'sqlite') expect(winner).toBe('First');
  });
});

describe.skipIf(Boolean(process.env.DATABASE_URL))('writeTx on SQLite: group commit', () => {
  it.each([
    { writes: 1, commits: 1 },
    { writes: 100, commits: 1 },
    { writes: MAX_BATCH, commits: 1 },
    { writes: MAX_BATCH + 1, commits: 2 },
  ])('$writes writes submitted in one turn take $commits commit(s)', async ({ writes, commits }) => {
    const counter = countSqliteStatements(sqliteDatabaseOf(t.db)!);
    let seen: string[];
    try {
      await Promise.all(
        Array.from({ length: writes }, (_, i) =>
          writeTx(t.db, t.kind, (trx) => insertTenant.run(trx, `g-${writes}-${i}`, `Batch ${i}`), {
            oneStatement: true,
          }),
        ),
      );
    } finally {
      seen = counter.stop();
    }
    expect(seen.filter((s) => s === 'begin immediate')).toHaveLength(commits);
    expect(seen.filter((s) => s === 'commit')).toHaveLength(commits);
  });
});

describe.skipIf(Boolean(process.env.DATABASE_URL))('writeTx on an SQLite file', () => {
  it('answers each caller only once its write is committed: another connection already sees it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'parcours-batch-'));
    const file = path.join(dir, 'db.sqlite');
    const writer = openDb({ sqliteFile: file });
    await migrateToLatest(writer.db);
    const reader = openDb({ sqliteFile: file });
    try {
      const seen = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          await writeTx(writer.db, 'sqlite', (trx) => insertTenant.run(trx, `c-${i}`, `Committed ${i}`));
          return (await tenantById.first(reader.db, `c-${i}`))?.name;
        }),
      );
      expect(seen).toEqual(Array.from({ length: 20 }, (_, i) => `Committed ${i}`));
    } finally {
      await reader.close();
      await writer.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
