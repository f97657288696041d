import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findContextByHostname } from '../../src/modules/contexts/repository';
import { contextSettings, toContextAttributes } from '../../src/modules/contexts/service';
import { createTestDb, type TestDb } from '../helpers/test-db';
import { hosts, seedWorld } from '../helpers/fixtures';

/**
 * A tenant's JSON columns are parsed once per row object (issue 38): the resolver hands every
 * request of a host the same row while it keeps it. Shared by every request, what is parsed is
 * frozen; a new row object (the tenant read again, after an import) is parsed anew.
 */
let tdb: TestDb;

beforeAll(async () => {
  tdb = await createTestDb();
  await seedWorld(tdb.db);
});
afterAll(async () => tdb.close());

describe("a tenant's parsed attributes", () => {
  it('are parsed once per row object, frozen, and anew for a new row object', async () => {
    const row = await findContextByHostname(tdb.db, hosts.alpha);
    expect(row).toBeDefined();
    const first = toContextAttributes(row!);
    expect(toContextAttributes(row!)).toBe(first);
    expect(contextSettings(row!)).toBe(first.settings);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.settings)).toBe(true);
    expect(() => {
      (first.settings as { defaultLocale: string }).defaultLocale = 'xx';
    }).toThrow(TypeError);

    const again = await findContextByHostname(tdb.db, hosts.alpha);
    const changed = { ...again!, name: `${again!.name} (renamed)` };
    expect(toContextAttributes(changed)).not.toBe(first);
    expect(toContextAttributes(changed).name).toBe(`${row!.name} (renamed)`);
    expect(toContextAttributes(again!)).toEqual(first);
  });
});
