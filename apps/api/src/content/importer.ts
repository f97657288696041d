/**
 * Imports a content folder (docs/content-format.md) into the database: every file is parsed and
 * validated first (zod, then cross-references), ALL problems are reported with file and path,
 * and nothing is written unless there are none. Writes run in one transaction and compare
 * before writing, so importing the same folder twice on the same day changes nothing.
 */
import path from 'node:path';
import type { Db } from '../db/db';
import { installationSecret } from '../db/secrets';
import { stableId } from '../lib/ids';
import type { FileUse } from './files';
import { diskStore } from '../files/store';
import type { FileStore } from '../files/store';
import { checkFiles, copyFiles } from './files';
import { checkPackages } from './packages/check';
import type { CheckedPackage } from './packages/check';
import { storePackage } from './packages/store';
import { DEFAULT_PACKAGE_LIMITS } from './packages/zip';
import type { PackageLimits } from './packages/zip';
import type { ImportIssue } from './issues';
import { checkDuplicates } from './issues';
import type { TenantBundle } from './load';
import { loadFolder } from './load';
import { validateTenant } from './validate/tenant';
import { writeCatalogue } from './write/catalogue';
import { writeClasses } from './write/classes';
import type { WriteCtx } from './write/context';
import { tenantWrite, writeContext } from './write/context';
import { writeCourses } from './write/courses';
import { writeHistory } from './write/history';
import { writeLogbook } from './write/logbook';
import { writePrograms } from './write/programs';
import { writeUsers } from './write/users';
import type { TableChanges } from './writer';
import { Writer } from './writer';

export type { ImportIssue } from './issues';
export { formatPath } from './load';

export interface ImportReport {
  ok: boolean;
  errors: ImportIssue[];
  changes: Record<string, TableChanges>;
}

export async function importFolder(
  db: Db,
  folder: string,
  /**
   * `store`: where files go (S3, issue 30); by default the folder `filesDir`. `packageLimits`:
   * what a package zip may hold (env PACKAGE_MAX_*), by default DEFAULT_PACKAGE_LIMITS.
   * `appPort`: the port the app is served on (env PORT), given to the tenants' loopback hosts
   * (write/local-origins.ts); without it hosts are written as the files give them.
   */
  opts: { filesDir: string; store?: FileStore; now?: Date; packageLimits?: PackageLimits; appPort?: number },
): Promise<ImportReport> {
  const root = path.resolve(folder);
  const now = opts.now ?? new Date();
  const issues: ImportIssue[] = [];
  const bundles = loadFolder(root, issues);

  // Tenant-wide uniqueness: aliases, host names, one generic tenant.
  checkDuplicates(
    bundles.map((b) => ({ id: b.tenant.data.alias, file: b.tenant.file, path: 'alias' })),
    'tenant alias',
    issues,
  );
  checkDuplicates(
    bundles.flatMap((b) =>
      b.tenant.data.hostnames.map((h, i) => ({
        id: h.toLowerCase(),
        file: b.tenant.file,
        path: `hostnames[${i}]`,
      })),
    ),
    'host name',
    issues,
  );
  const generics = bundles.filter((b) => b.tenant.data.isGeneric);
  for (const g of generics.slice(1))
    issues.push({ file: g.tenant.file, path: 'isGeneric', message: 'only one tenant may be generic' });

  const usesByTenant = new Map<TenantBundle, FileUse[]>();
  for (const b of bundles) {
    const uses: FileUse[] = [];
    validateTenant(b, issues, uses);
    usesByTenant.set(b, uses);
  }

  const checked = checkFiles(root, usesByTenant, issues);
  const limits = opts.packageLimits ?? DEFAULT_PACKAGE_LIMITS;
  const packageUses = [...usesByTenant.values()].flat().filter((u) => u.kind === 'package');
  // Only a folder that is otherwise right is worth inflating its packages for.
  const packages: Map<string, CheckedPackage> = issues.length
    ? new Map()
    : await checkPackages(root, packageUses, issues, limits);
  if (issues.length) return { ok: false, errors: issues, changes: {} };

  // Files first (content-addressed, so leftovers from a failed transaction are harmless).
  const store = opts.store ?? diskStore(opts.filesDir);
  await copyFiles(root, store, usesByTenant, checked, (alias) => stableId('context', alias));
  for (const [b, uses] of usesByTenant) {
    const contextId = stableId('context', b.tenant.data.alias);
    for (const u of uses) {
      const p = u.kind === 'package' ? packages.get(path.posix.normalize(u.rel.replace(/\\/g, '/'))) : null;
      if (p) await storePackage(store, contextId, p.file, p.summary, limits);
    }
  }

  const { resolved, tincanDirs } = checked;
  try {
    // File ids mix in this installation's secret, so nobody can compute them (issue 10).
    const fileIdSalt = await installationSecret(db, 'file-ids');
    const changes = await db.transaction().execute(async (trx) => {
      const w = new Writer(trx, now.toISOString());
      for (const b of bundles)
        await writeTenant(trx, w, b, {
          root,
          now,
          resolved,
          tincanDirs,
          packages,
          usesByTenant,
          fileIdSalt,
          appPort: opts.appPort,
        });
      return w.changes;
    });
    return { ok: true, errors: [], changes };
  } catch (e) {
    return {
      ok: false,
      errors: [{ file: '(database)', path: '(root)', message: (e as Error).message }],
      changes: {},
    };
  }
}

/** One tenant, in foreign-key order: each step's rows exist before the next refers to them. */
async function writeTenant(db: Db, w: Writer, b: TenantBundle, ctx: WriteCtx): Promise<void> {
  const tw = tenantWrite(db, w, b, ctx);
  await writeContext(tw);
  await writeUsers(tw);
  await writeCatalogue(tw);
  await writeCourses(tw);
  await writePrograms(tw);
  await writeClasses(tw);
  await writeHistory(tw);
  await writeLogbook(tw);
}
