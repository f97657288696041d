/**
 * Packages in the files store (issue 31, decision 0048): a package's files under
 * `packages/<contextId>/<id>/...`, where `<id>` is the zip's SHA-256 (32 hex characters), and
 * beside the folder its summary `packages/<contextId>/<id>.json` — written last, so its presence
 * says the whole package is there (a re-import skips it; an interrupted one writes it again).
 * The packages origin serves the folder; the runtime reads the summary.
 */
import type { PackageKind } from '@parcours/domain/entities';
import { contentTypeOf } from '../../files/content-types';
import type { FileStore } from '../../files/store';
import type { Cmi5Settings, PackageManifest, ScormSettings } from './manifest';
import { walkZip } from './zip';
import type { PackageLimits } from './zip';

export interface PackageSummary {
  version: 1;
  id: string;
  kind: PackageKind;
  title: string;
  entry: string;
  files: number;
  bytes: number;
  scorm?: ScormSettings;
  cmi5?: Cmi5Settings;
  xapi?: { activityId: string };
}

export const packageFolder = (contextId: string, id: string) => `packages/${contextId}/${id}`;
const summaryKey = (contextId: string, id: string) => `packages/${contextId}/${id}.json`;

export function summaryOf(
  id: string,
  manifest: PackageManifest,
  files: number,
  bytes: number,
): PackageSummary {
  return { version: 1, id, files, bytes, ...manifest };
}

/** Copies a checked package into the store for one tenant, unless it is there already. */
export async function storePackage(
  store: FileStore,
  contextId: string,
  zipFile: string,
  summary: PackageSummary,
  limits: PackageLimits,
): Promise<void> {
  if ((await store.size(summaryKey(contextId, summary.id))) !== null) return;
  const folder = packageFolder(contextId, summary.id);
  // A cmi5 course structure alone (cmi5 §14.2) has no files: its AUs are at absolute URLs.
  if (!/\.xml$/i.test(zipFile))
    await walkZip(zipFile, limits, (name, data) => store.put(`${folder}/${name}`, data, contentTypeOf(name)));
  await store.put(
    summaryKey(contextId, summary.id),
    Buffer.from(JSON.stringify(summary)),
    'application/json',
  );
}

const cache = new Map<string, PackageSummary>();
const CACHE_SIZE = 500;

/** A stored package's summary (content-addressed, so kept in memory once read), or null. */
export async function readSummary(
  store: FileStore,
  contextId: string,
  id: string,
): Promise<PackageSummary | null> {
  const key = summaryKey(contextId, id);
  const hit = cache.get(key);
  if (hit) return hit;
  const raw = await store.read(key);
  if (!raw) return null;
  let summary: PackageSummary;
  try {
    summary = JSON.parse(raw.toString('utf8')) as PackageSummary;
  } catch {
    return null;
  }
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(key, summary);
  return summary;
}
