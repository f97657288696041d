/**
 * The authoring tool's view of a content folder (issue 13): every block of every course, checked
 * with the importer's own schemas and built by the importer's own block builder, so what an author
 * previews is exactly what an import would store. Nothing is written to any database.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { buildBlock } from '../content/blocks';
import type { BlockRefs, FileRef } from '../content/blocks';
import type { ImportIssue } from '../content/issues';
import { loadFolder } from '../content/load';
import type { TenantBundle } from '../content/load';
import type { BlockFile } from '../content/format';
import { checkPackages } from '../content/packages/check';
import type { CheckedPackage, PackageUse } from '../content/packages/check';
import type { PackageLimits } from '../content/packages/zip';

export interface BlockEntry {
  /** `tenantDir|courseId|blockId`: stable while the author edits the file. */
  key: string;
  tenant: string;
  appUrl: string | null;
  course: string;
  courseTitle: string;
  file: string;
  id: string;
  title: string;
  type: string;
  rowTypes: string[];
}

export interface Catalogue {
  root: string;
  issues: ImportIssue[];
  blocks: BlockEntry[];
  bundles: TenantBundle[];
  /** The packages blocks name, once checked (checkCataloguePackages): by path in the folder. */
  packages?: Map<string, CheckedPackage>;
}

const packagePath = (ref: NonNullable<BlockFile['package']>) =>
  path.posix.normalize(typeof ref === 'string' ? ref : ref.path);

/**
 * Reads and checks every package the blocks name, as the importer would (issue 31): a refused
 * package is reported with its block's file and path. A preview shows the package's kind and
 * title; playing it needs an import (its files are served by the packages origin).
 */
export async function checkCataloguePackages(cat: Catalogue, limits: PackageLimits): Promise<void> {
  const uses: PackageUse[] = [];
  for (const b of cat.bundles)
    for (const c of b.courses)
      c.data.blocks.forEach((block, i) => {
        if (block.package)
          uses.push({ file: c.file, path: `blocks[${i}].package`, rel: packagePath(block.package) });
      });
  cat.packages = await checkPackages(cat.root, uses, cat.issues, limits);
}

export function readCatalogue(root: string): Catalogue {
  const issues: ImportIssue[] = [];
  const bundles = loadFolder(root, issues);
  const blocks: BlockEntry[] = [];
  for (const b of bundles) {
    for (const c of b.courses) {
      for (const block of c.data.blocks) {
        blocks.push({
          key: `${b.dir}|${c.data.id}|${block.id}`,
          tenant: b.tenant.data.alias,
          appUrl: b.tenant.data.hosts.app ?? null,
          course: c.data.id,
          courseTitle: c.data.title,
          file: c.file,
          id: block.id,
          title: block.title,
          type: block.type,
          rowTypes: block.sections.flatMap((s) => s.rows.map((r) => r.type)),
        });
      }
    }
  }
  return { root, issues, blocks, bundles };
}

const MIME: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
  '.mp3': 'audio/mpeg',
};

/**
 * Media go inline as data: URLs: the app's Content-Security-Policy accepts data: images and
 * audio, and a preview must not need an import. Large files are left out with a note.
 */
const MAX_INLINE_BYTES = 2_000_000;

function refsFor(root: string, packages: Map<string, CheckedPackage> | undefined): BlockRefs {
  const top = path.resolve(root);
  return {
    package(ref) {
      const rel = packagePath(ref);
      const summary = packages?.get(rel)?.summary;
      const size =
        typeof ref === 'string'
          ? { width: null, height: null }
          : { width: ref.width ?? null, height: ref.height ?? null };
      // No id: a preview never launches; a refused package keeps its path as its title.
      return { id: '', kind: summary?.kind ?? 'xapi', title: summary?.title ?? rel, ...size };
    },
    file(rel: string): FileRef {
      // Paths are relative to the content folder, as the importer reads them; never outside it.
      const abs = path.resolve(top, rel);
      const ext = path.extname(rel).toLowerCase();
      const type = MIME[ext] ?? 'application/octet-stream';
      const fileType = type.startsWith('image/')
        ? 'image'
        : type === 'application/pdf'
          ? 'pdf'
          : type.startsWith('audio/')
            ? 'audio'
            : 'file';
      let url = '';
      try {
        if (abs.startsWith(top + path.sep) && statSync(abs).size <= MAX_INLINE_BYTES)
          url = `data:${type};base64,${readFileSync(abs).toString('base64')}`;
      } catch {
        url = '';
      }
      return { id: `preview:${rel}`, name: path.basename(rel), type, fileType, url };
    },
    // A module runs only once imported (it is served by the API, same tenant only).
    tincanUrl: (ref) => ('url' in ref ? ref.url : ''),
  };
}

/** The window message /preview accepts (packages/domain/src/window-messages.ts). */
export function previewPayload(cat: Catalogue, key: string): Record<string, unknown> | null {
  const [tenantDir, courseId, blockId] = key.split('|');
  const bundle = cat.bundles.find((b) => b.dir === tenantDir);
  const course = bundle?.courses.find((c) => c.data.id === courseId);
  const block = course?.data.blocks.find((bl) => bl.id === blockId);
  if (!bundle || !course || !block) return null;
  const built = buildBlock(block, refsFor(cat.root, cat.packages));
  const type = bundle.tenant.data.courseTypes.find((t) => t.id === course.data.type);
  const terms = course.data.terms.filter((t) => block.terms.includes(t.id));
  return {
    block: { id: block.id, title: block.title, type: block.type, ...built, terms },
    settings: type
      ? { hints: type.settings.hints, feedbacks: type.settings.feedbacks, retry: type.settings.retry }
      : undefined,
  };
}
