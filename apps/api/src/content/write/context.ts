/**
 * What every writer of one tenant shares: the transaction, the compare-then-write Writer, the
 * tenant's files, and the stable ids (docs/content-format.md "Ids"). Writes the tenant's own
 * rows: context, host names and files.
 */
import path from 'node:path';
import type { Db } from '../../db/db';
import { stableId } from '../../lib/ids';
import type { BlockRefs, FileRef } from '../blocks';
import type { FileUse, ResolvedFile } from '../files';
import type { CheckedPackage } from '../packages/check';
import { tincanFolderName } from '../files';
import type { TenantFile } from '../format';
import { resolveDate } from '../format';
import type { TenantBundle } from '../load';
import { sanitizeContentHtml } from '../sanitize';
import type { Writer } from '../writer';
import { hostsServedOn } from './local-origins';

export interface WriteCtx {
  root: string;
  now: Date;
  resolved: Map<string, ResolvedFile>;
  tincanDirs: Map<string, string>;
  /** Checked packages by their path in the content folder (issue 31). */
  packages: Map<string, CheckedPackage>;
  usesByTenant: Map<TenantBundle, FileUse[]>;
  /** The installation's secret mixed into file ids (db/secrets.ts): stable, yet not guessable. */
  fileIdSalt: string;
  /** The port the app is served on (env PORT): loopback hosts are written with it (local-origins.ts). */
  appPort?: number | undefined;
}

export const json = (v: unknown) => JSON.stringify(v);

export interface TenantWrite {
  db: Db;
  w: Writer;
  b: TenantBundle;
  t: TenantFile;
  ctx: WriteCtx;
  alias: string;
  contextId: string;
  /** `stableId(alias, kind, ...parts)`: the database id of a content entity. */
  id: (kind: string, ...parts: string[]) => string;
  /** A content date resolved against the import day, or null. */
  date: (v: string | null | undefined) => string | null;
  fileId: (rel: string) => string;
  fileUrl: (rel: string) => string;
  userId: (uid: string) => string;
  refs: BlockRefs;
}

export function tenantWrite(db: Db, w: Writer, b: TenantBundle, ctx: WriteCtx): TenantWrite {
  const t = b.tenant.data;
  const alias = t.alias;
  const contextId = stableId('context', alias);
  const id = (kind: string, ...parts: string[]) => stableId(alias, kind, ...parts);
  const date = (v: string | null | undefined) => (v == null ? null : resolveDate(v, ctx.now));

  const fileId = (rel: string) => id('file', ctx.fileIdSalt, path.posix.normalize(rel));
  const fileUrl = (rel: string) => `/api/files/${fileId(rel)}/download`;
  const refs: BlockRefs = {
    file(rel: string): FileRef {
      const f = ctx.resolved.get(path.posix.normalize(rel))!;
      return {
        id: fileId(rel),
        name: path.posix.basename(f.rel),
        type: f.mime,
        fileType: f.fileType,
        url: fileUrl(rel),
      };
    },
    tincanUrl(ref) {
      if ('url' in ref) return ref.url;
      const rel = path.posix.normalize(ref.path);
      return `/api/tincan/${contextId}/${tincanFolderName(rel, ctx.tincanDirs.get(rel)!)}/index.html`;
    },
    package(ref) {
      const rel = path.posix.normalize(typeof ref === 'string' ? ref : ref.path);
      const { summary } = ctx.packages.get(rel)!;
      return {
        id: summary.id,
        kind: summary.kind,
        title: summary.title,
        width: typeof ref === 'string' ? null : (ref.width ?? null),
        height: typeof ref === 'string' ? null : (ref.height ?? null),
        // A cmi5 course's AUs, listed by the player (issue 39).
        ...(summary.cmi5?.aus
          ? {
              units: summary.cmi5.aus.map((a) => ({
                title: a.title,
                ownWindow: a.launchMethod === 'OwnWindow',
              })),
            }
          : {}),
      };
    },
  };
  const userId = (uid: string) => id('user', uid);
  return { db, w, b, t, ctx, alias, contextId, id, date, fileId, fileUrl, userId, refs };
}

/** The context row, its host names, and the tenant's files (one library per tenant). */
export async function writeContext(tw: TenantWrite): Promise<void> {
  const { w, b, t, ctx, contextId, id, fileId, fileUrl } = tw;
  const alias = tw.alias;
  const legal = (l: { content: string; version: string; date: string } | null) =>
    l ? { ...l, content: sanitizeContentHtml(l.content) } : null;
  await w.upsert(
    'contexts',
    { id: contextId },
    {
      alias,
      name: t.name,
      description: t.description,
      hosts: json(hostsServedOn(t.hosts, tw.ctx.appPort)),
      assets: json({
        logo: t.assets.logo ? fileUrl(t.assets.logo) : null,
        favicon: t.assets.favicon ? fileUrl(t.assets.favicon) : null,
        colors: t.assets.colors,
        splashScreens: Object.fromEntries(
          Object.entries(t.assets.splashScreens).map(([k, v]) => [k, fileUrl(v)]),
        ),
        touchIcons: Object.fromEntries(Object.entries(t.assets.touchIcons).map(([k, v]) => [k, fileUrl(v)])),
      }),
      metas: json(t.metas),
      settings: json({
        ...t.settings,
        legal: { cgu: legal(t.settings.legal.cgu), rgpd: legal(t.settings.legal.rgpd) },
      }),
      isGeneric: t.isGeneric ? 1 : 0,
    },
  );
  for (const h of t.hostnames)
    await w.upsert('contextHostnames', { hostname: h.toLowerCase() }, { contextId });
  await w.prune(
    'contextHostnames',
    'contextId',
    contextId,
    'hostname',
    t.hostnames.map((h) => h.toLowerCase()),
  );

  // Files of this tenant, in one library per tenant.
  const libraryId = id('library', 'content');
  const uses = ctx.usesByTenant.get(b) ?? [];
  if (uses.some((u) => u.kind === 'file'))
    await w.upsert('libraries', { id: libraryId }, { contextId, ownerId: null, ownerType: 'CONTEXT' });
  const done = new Set<string>();
  for (const u of uses) {
    if (u.kind !== 'file') continue;
    const rel = path.posix.normalize(u.rel);
    if (done.has(rel)) continue;
    done.add(rel);
    const f = ctx.resolved.get(rel)!;
    await w.upsert(
      'files',
      { id: fileId(rel) },
      {
        contextId,
        libraryId,
        ownerId: null,
        name: path.posix.basename(rel),
        type: f.mime,
        fileType: f.fileType,
        icon: null,
        size: f.size,
        storagePath: `${contextId}/${f.sha256}.${f.ext}`,
        sha256: f.sha256,
      },
    );
  }
}
