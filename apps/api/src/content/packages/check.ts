/**
 * The importer's step for packages (issue 31): every `package:` a block names is read whole and
 * checked (zip.ts, manifest.ts) before anything is written; a refusal is reported with the
 * block's file and path and the reason. Checked packages are copied with the other files.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { MANIFEST_FILES, readCmi5Xml, readManifest } from './manifest';
import { summaryOf } from './store';
import type { PackageSummary } from './store';
import { PackageError, walkZip, zipHash } from './zip';
import type { PackageLimits } from './zip';

export interface CheckedPackage {
  /** Absolute path of the zip. */
  file: string;
  summary: PackageSummary;
}

/** One package zip, checked: its summary, or the reason it is refused. */
export async function checkPackage(
  file: string,
  limits: PackageLimits,
): Promise<{ ok: true; summary: PackageSummary } | { ok: false; message: string }> {
  if (!existsSync(file) || !statSync(file).isFile()) return { ok: false, message: 'file not found' };
  const xml = /\.xml$/i.test(file);
  if (!xml && !/\.zip$/i.test(file)) return { ok: false, message: 'a package is a .zip file' };
  try {
    // cmi5 §14.2: a course structure alone, its AUs elsewhere (checked absolute).
    if (xml)
      return { ok: true, summary: summaryOf(await zipHash(file), readCmi5Xml(readFileSync(file)), 0, 0) };
    const roots = new Map<string, Buffer>();
    const { files, bytes } = await walkZip(file, limits, (name, data) => {
      if ((MANIFEST_FILES as readonly string[]).includes(name)) roots.set(name, data);
    });
    const manifest = readManifest(files, (name) => roots.get(name));
    return { ok: true, summary: summaryOf(await zipHash(file), manifest, files.size, bytes) };
  } catch (err) {
    if (err instanceof PackageError) return { ok: false, message: err.message };
    return { ok: false, message: `unreadable package (${(err as Error).message})` };
  }
}

export interface PackageUse {
  file: string;
  path: string;
  rel: string;
}

/** Every package used, checked once by its path; problems go to `issues` with each use's place. */
export async function checkPackages(
  root: string,
  uses: PackageUse[],
  issues: { file: string; path: string; message: string }[],
  limits: PackageLimits,
): Promise<Map<string, CheckedPackage>> {
  const checked = new Map<string, CheckedPackage>();
  const refused = new Map<string, string>();
  for (const u of uses) {
    const rel = path.posix.normalize(u.rel.replace(/\\/g, '/'));
    if (!checked.has(rel) && !refused.has(rel)) {
      const file = path.join(root, rel);
      const result = await checkPackage(file, limits);
      if (result.ok) checked.set(rel, { file, summary: result.summary });
      else refused.set(rel, result.message);
    }
    const message = refused.get(rel);
    if (message) issues.push({ file: u.file, path: u.path, message: `package ${rel}: ${message}` });
  }
  return checked;
}
