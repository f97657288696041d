import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NAMES_A_PERSON,
  NOT_ABOUT_A_LEARNER,
  REGISTER,
  unlisted,
} from '../../../src/modules/privacy/register';
import { createTestDb } from '../../helpers/test-db';
import type { TestDb } from '../../helpers/test-db';
import { liveTables } from './schema-scan';

/**
 * Issue 36 item 3 (decision 0056): the register of a learner's data is checked against the live
 * schema of the database the test runs on (SQLite, or PostgreSQL with DATABASE_URL) — never
 * against schema.ts, which a migration can outgrow. A table with a column that can name a person
 * (`NAMES_A_PERSON`) must be in the register or listed as not about a learner with its reason;
 * every other table must be classified too; what the register names must exist.
 */
let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  await t?.close();
});

describe('the register of a learner’s data', () => {
  it('lists every table with a column that can name a person', async () => {
    const live = await liveTables(t);
    expect(live.length).toBeGreaterThan(40);
    expect(unlisted(live)).toEqual([]);
    // The rule does find the tables it is for: the account, notes about her, agent-keyed rows.
    const flagged = live.filter((x) => x.columns.some((c) => NAMES_A_PERSON.test(c))).map((x) => x.table);
    for (const table of [
      'users',
      'log_book_records',
      'xapi_documents',
      'xapi_statement_agents',
      'quota_usage',
    ])
      expect(flagged).toContain(table);
  });

  it('classifies every table of the schema, and names only tables and columns that exist', async () => {
    const live = await liveTables(t);
    const columns = new Map(live.map((x) => [x.table, new Set(x.columns)]));
    const classified = new Set([...REGISTER.map((e) => e.table), ...Object.keys(NOT_ABOUT_A_LEARNER)]);
    expect(live.map((x) => x.table).filter((table) => !classified.has(table))).toEqual([]);
    for (const entry of REGISTER) {
      expect(columns.has(entry.table), entry.table).toBe(true);
      for (const c of entry.columns)
        expect(columns.get(entry.table)?.has(c), `${entry.table}.${c}`).toBe(true);
    }
    for (const table of Object.keys(NOT_ABOUT_A_LEARNER)) expect(columns.has(table), table).toBe(true);
  });

  it('says for every entry how her rows are found, what the export shows or why not, what erasure does', () => {
    const tables = REGISTER.map((e) => e.table);
    expect(new Set(tables).size).toBe(tables.length);
    const sections = REGISTER.flatMap((e) => ('section' in e.export ? [e.export.section] : []));
    expect(new Set(sections).size).toBe(sections.length);
    for (const e of REGISTER) {
      expect(e.find.length, e.table).toBeGreaterThan(5);
      if ('leftOut' in e.export) expect(e.export.leftOut.length, e.table).toBeGreaterThan(5);
      if (e.erase.action === 'keep') expect(e.erase.reason.length, e.table).toBeGreaterThan(5);
      expect(tables.filter((x) => x in NOT_ABOUT_A_LEARNER)).toEqual([]);
    }
    for (const [table, reason] of Object.entries(NOT_ABOUT_A_LEARNER)) expect(reason, table).not.toBe('');
  });

  it('fails when a new table naming a person is added to the schema', async () => {
    await sql`create table scratch_notes (id text primary key, author_id text, body text)`.execute(t.db);
    await sql`create table scratch_sent (id text primary key, recipient_email text)`.execute(t.db);
    await sql`create table scratch_plain (id text primary key, title text)`.execute(t.db);
    try {
      const live = await liveTables(t);
      expect(unlisted(live).sort()).toEqual(['scratch_notes', 'scratch_sent']);
      // A table that names nobody still has to be classified.
      const classified = new Set([...REGISTER.map((e) => e.table), ...Object.keys(NOT_ABOUT_A_LEARNER)]);
      expect(
        live
          .map((x) => x.table)
          .filter((table) => !classified.has(table))
          .sort(),
      ).toEqual(['scratch_notes', 'scratch_plain', 'scratch_sent']);
    } finally {
      for (const table of ['scratch_notes', 'scratch_sent', 'scratch_plain'])
        await sql`drop table ${sql.table(table)}`.execute(t.db);
    }
  });
});
