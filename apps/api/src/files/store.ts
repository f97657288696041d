import { createReadStream } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Where stored files live (issue 30): a folder on disk (DATA_DIR/files, the default) or an
 * S3-compatible bucket (FILES_S3_BUCKET: files/s3-store.ts). Keys are the `storage_path` of the
 * `files` rows (and `tincan/<tenant>/<folder>/...` for learning modules): relative, `/`-separated.
 * Access rules stay in the routes; a store only keeps bytes.
 */
export interface StoredObject {
  body: Readable;
  /** Size of the whole object. */
  size: number;
  /** Bytes in `body` (the range's length for a range read). */
  length: number;
  /** Set for a range read: the first and last byte sent. */
  range?: { start: number; end: number };
  etag?: string | undefined;
  lastModified?: Date | undefined;
}

export interface FileStore {
  readonly kind: 'disk' | 's3';
  /** Size of the object, or null when there is none. */
  size(key: string): Promise<number | null>;
  /** Writes the whole object; readers never see half of it. */
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  remove(key: string): Promise<void>;
  /** The whole object in memory (small files: logos, mail attachments), or null. */
  read(key: string): Promise<Buffer | null>;
  /** A stream of the object or of `range` (inclusive; `end` past the size is cut), or null. */
  open(key: string, range?: { start: number; end?: number }): Promise<StoredObject | null>;
  /** Every key under `prefix` (files:migrate lists a disk store). */
  list(prefix?: string): AsyncIterable<string>;
}

/** A key of ours: relative, no `..`, no empty or dot segment, no backslash or control character. */
export function isSafeKey(key: string): boolean {
  if (key.length === 0 || key.length > 1024 || key.startsWith('/') || key.includes('\\')) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f]/.test(key)) return false;
  return key.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

function checked(key: string): string {
  if (!isSafeKey(key)) throw new Error(`not a stored file key: ${JSON.stringify(key)}`);
  return key;
}

export function diskStore(root: string): FileStore {
  const base = path.resolve(root);
  const full = (key: string) => path.join(base, ...checked(key).split('/'));
  return {
    kind: 'disk',
    async size(key) {
      const info = await stat(full(key)).catch(() => null);
      return info?.isFile() ? info.size : null;
    },
    async put(key, body) {
      const target = full(key);
      await mkdir(path.dirname(target), { recursive: true });
      // Under a temporary name, then renamed: a half-written file is never served.
      const temp = `${target}.${process.pid}.${Date.now()}.part`;
      await writeFile(temp, body);
      await rename(temp, target);
    },
    async remove(key) {
      await rm(full(key), { force: true });
    },
    async read(key) {
      return readFile(full(key)).catch(() => null);
    },
    async open(key, range) {
      const file = full(key);
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) return null;
      if (!range) return { body: createReadStream(file), size: info.size, length: info.size };
      const end = Math.min(range.end ?? info.size - 1, info.size - 1);
      return {
        body: createReadStream(file, { start: range.start, end }),
        size: info.size,
        length: end - range.start + 1,
        range: { start: range.start, end },
      };
    },
    async *list(prefix = '') {
      const walk = async function* (dir: string, rel: string): AsyncIterable<string> {
        const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
        for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
          const key = rel ? `${rel}/${e.name}` : e.name;
          if (e.isDirectory()) yield* walk(path.join(dir, e.name), key);
          // Leftovers of an interrupted write are not files of ours.
          else if (e.isFile() && !e.name.endsWith('.part')) yield key;
        }
      };
      const start = prefix ? path.join(base, ...checked(prefix).split('/')) : base;
      yield* walk(start, prefix);
    },
  };
}
