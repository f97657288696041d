/**
 * Files referenced by content: each must exist, be an allowed type and really be what its name
 * says; they are copied, content-addressed, under the files folder before the transaction.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { contentTypeOf } from '../files/content-types';
import type { FileStore } from '../files/store';
import type { ImportIssue } from './issues';
import type { TenantBundle } from './load';

const MIME: Record<
  string,
  { type: string; fileType: 'image' | 'pdf' | 'audio' | 'video'; magic?: number[] }
> = {
  png: { type: 'image/png', fileType: 'image', magic: [0x89, 0x50, 0x4e, 0x47] },
  jpg: { type: 'image/jpeg', fileType: 'image', magic: [0xff, 0xd8, 0xff] },
  jpeg: { type: 'image/jpeg', fileType: 'image', magic: [0xff, 0xd8, 0xff] },
  gif: { type: 'image/gif', fileType: 'image', magic: [0x47, 0x49, 0x46, 0x38] },
  pdf: { type: 'application/pdf', fileType: 'pdf', magic: [0x25, 0x50, 0x44, 0x46] },
  mp3: { type: 'audio/mpeg', fileType: 'audio' },
  mp4: { type: 'video/mp4', fileType: 'video' },
  webm: { type: 'video/webm', fileType: 'video' },
  ogv: { type: 'video/ogg', fileType: 'video' },
  ogg: { type: 'video/ogg', fileType: 'video' },
  avi: { type: 'video/x-msvideo', fileType: 'video' },
  mov: { type: 'video/quicktime', fileType: 'video' },
  wmv: { type: 'video/x-ms-wmv', fileType: 'video' },
  flv: { type: 'video/x-flv', fileType: 'video' },
};

export interface ResolvedFile {
  rel: string;
  ext: string;
  mime: string;
  fileType: string;
  size: number;
  sha256: string;
  data: Buffer;
}

function tincanHash(dir: string): string {
  const h = createHash('sha256');
  const walk = (d: string, prefix: string): void => {
    for (const f of readdirSync(d).sort()) {
      const full = path.join(d, f);
      if (statSync(full).isDirectory()) walk(full, `${prefix}${f}/`);
      else h.update(`${prefix}${f}\u0000`).update(readFileSync(full));
    }
  };
  walk(dir, '');
  return h.digest('hex').slice(0, 12);
}

export interface FileUse {
  file: string;
  path: string;
  rel: string;
  /** A package is checked and stored by content/packages (issue 31), not here. */
  kind: 'file' | 'tincan' | 'package';
}

export interface CheckedFiles {
  /** By normalised path relative to the content folder. */
  resolved: Map<string, ResolvedFile>;
  /** Tincan module folder → hash of its files (part of its served URL). */
  tincanDirs: Map<string, string>;
}

/** Every referenced file must exist, be an allowed type and really be what its name says. */
export function checkFiles(
  root: string,
  usesByTenant: Map<TenantBundle, FileUse[]>,
  issues: ImportIssue[],
): CheckedFiles {
  const resolved = new Map<string, ResolvedFile>();
  const tincanDirs = new Map<string, string>();
  for (const uses of usesByTenant.values()) {
    for (const u of uses) {
      if (u.kind === 'package') continue;
      const rel = path.posix.normalize(u.rel.replace(/\\/g, '/'));
      const full = path.join(root, rel);
      if (u.kind === 'tincan') {
        if (!existsSync(path.join(full, 'index.html')))
          issues.push({ file: u.file, path: u.path, message: `no index.html in folder "${rel}"` });
        else if (!tincanDirs.has(rel)) tincanDirs.set(rel, tincanHash(full));
        continue;
      }
      if (resolved.has(rel)) continue;
      if (!existsSync(full) || !statSync(full).isFile()) {
        issues.push({ file: u.file, path: u.path, message: `file not found: ${rel}` });
        continue;
      }
      const ext = path.extname(rel).slice(1).toLowerCase();
      const mime = MIME[ext];
      if (!mime) {
        issues.push({
          file: u.file,
          path: u.path,
          message: `unsupported file type .${ext} (jpeg, png, gif, pdf, mp3, mp4, webm, ogg, avi, mov, wmv, flv)`,
        });
        continue;
      }
      const data = readFileSync(full);
      if (mime.magic && !mime.magic.every((byte, i) => data[i] === byte)) {
        issues.push({ file: u.file, path: u.path, message: `${rel} is not a real ${ext} file` });
        continue;
      }
      resolved.set(rel, {
        rel,
        ext,
        mime: mime.type,
        fileType: mime.fileType,
        size: data.length,
        sha256: createHash('sha256').update(data).digest('hex'),
        data,
      });
    }
  }
  return { resolved, tincanDirs };
}

/**
 * Copies the files of every tenant into the store (content-addressed, so leftovers from a failed
 * transaction are harmless). A file or module already there is not written again.
 */
export async function copyFiles(
  root: string,
  store: FileStore,
  usesByTenant: Map<TenantBundle, FileUse[]>,
  { resolved, tincanDirs }: CheckedFiles,
  contextIdOf: (alias: string) => string,
): Promise<void> {
  for (const [b, uses] of usesByTenant) {
    const ctx = contextIdOf(b.tenant.data.alias);
    for (const u of uses) {
      if (u.kind === 'package') continue;
      const rel = path.posix.normalize(u.rel.replace(/\\/g, '/'));
      if (u.kind === 'tincan') {
        const folder = `tincan/${ctx}/${tincanFolderName(rel, tincanDirs.get(rel)!)}`;
        // index.html is written last: its presence says the whole module is there.
        if ((await store.size(`${folder}/index.html`)) !== null) continue;
        const files = listFolder(path.join(root, rel)).sort((a, b) =>
          a === 'index.html' ? 1 : b === 'index.html' ? -1 : a.localeCompare(b),
        );
        for (const f of files)
          await store.put(`${folder}/${f}`, readFileSync(path.join(root, rel, f)), contentTypeOf(f));
        continue;
      }
      const f = resolved.get(rel)!;
      const key = `${ctx}/${f.sha256}.${f.ext}`;
      if ((await store.size(key)) === null) await store.put(key, f.data, f.mime);
    }
  }
}

/** Files of a folder, as `/`-separated paths relative to it. */
function listFolder(dir: string, rel = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const key = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? listFolder(path.join(dir, e.name), key) : e.isFile() ? [key] : [];
  });
}

export function tincanFolderName(rel: string, hash: string): string {
  return `${path.posix.basename(rel)}-${hash}`;
}
