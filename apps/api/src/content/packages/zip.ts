/**
 * Reading a package zip safely (issue 31, decision 0048): every entry is inflated and checked
 * before anything is stored. What a package must not do: name a path outside itself (absolute,
 * `..`, a drive letter, a backslash trick), hold more files or more bytes than configured, or be
 * a zip bomb — an entry that inflates past its declared size (yauzl's `validateEntrySizes`
 * stops the stream), or sizes that compress better than any real course does.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import yauzl from 'yauzl';
import type { Entry, ZipFile } from 'yauzl';

export interface PackageLimits {
  /** Bytes once inflated, the whole package. */
  maxBytes: number;
  /** Files (folders not counted). */
  maxFiles: number;
  /** Inflated over compressed size, for the package and for any entry past RATIO_FLOOR bytes. */
  maxRatio: number;
}

export const DEFAULT_PACKAGE_LIMITS: PackageLimits = {
  maxBytes: 500 * 1024 * 1024,
  maxFiles: 20_000,
  maxRatio: 100,
};

/** Below this many inflated bytes a ratio proves nothing (a page of spaces compresses 1000:1). */
const RATIO_FLOOR = 1024 * 1024;

/** A refusal: its message is what the author reads next to the block's path. */
export class PackageError extends Error {}

const mb = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;

/** The path of an entry as the package names it, or why it escapes the package. */
export function entryProblem(name: string): string | null {
  if (name.length === 0 || name.length > 512) return `an entry name of ${name.length} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return `a control character in "${JSON.stringify(name)}"`;
  if (name.includes('\\')) return `a backslash in "${name}"`;
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return `an absolute path "${name}"`;
  const segments = name.replace(/\/$/, '').split('/');
  if (segments.some((s) => s === '..')) return `a path escaping the package "${name}"`;
  if (segments.some((s) => s === '' || s === '.')) return `an empty or "." segment in "${name}"`;
  return null;
}

function open(file: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(
      file,
      // Names are checked by entryProblem (decodeStrings keeps yauzl's own checks, which throw first).
      {
        lazyEntries: true,
        autoClose: true,
        validateEntrySizes: true,
        decodeStrings: true,
        strictFileNames: true,
      },
      (err, zip) => (err || !zip ? reject(err ?? new Error('no zip')) : resolve(zip)),
    );
  });
}

/** yauzl's own refusals, said as the importer says them. */
function translate(err: unknown): PackageError {
  if (err instanceof PackageError) return err;
  const msg = err instanceof Error ? err.message : String(err);
  if (/absolute path|invalid relative path|invalid characters in fileName/i.test(msg))
    return new PackageError(`a path escaping the package (${msg})`);
  if (/too many bytes in the stream|not enough bytes in the stream|file data overflows/i.test(msg))
    return new PackageError(`a zip bomb: an entry does not inflate to its declared size (${msg})`);
  if (/encrypt/i.test(msg)) return new PackageError('an encrypted entry (packages are not encrypted)');
  return new PackageError(`not a readable zip file (${msg})`);
}

function readAll(zip: ZipFile, entry: Entry, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => {
      if (err || !stream) return reject(translate(err ?? new Error('no stream')));
      const chunks: Buffer[] = [];
      let n = 0;
      stream.on('data', (c: Buffer) => {
        n += c.length;
        // Never more than declared (yauzl checks too): a lying header cannot fill the memory.
        if (n > limit) {
          stream.destroy();
          reject(new PackageError(`a zip bomb: "${entry.fileName}" inflates past its declared size`));
          return;
        }
        chunks.push(c);
      });
      stream.on('error', (e) => reject(translate(e)));
      stream.on('end', () => resolve(Buffer.concat(chunks)));
    });
  });
}

export interface ZipSummary {
  /** Files by name (folders left out), with their inflated size. */
  files: Map<string, number>;
  bytes: number;
}

/**
 * Reads every entry of `file` within `limits`; `onFile` receives each file's bytes (in the
 * order of the zip) — to keep the manifest, or to store the files. Rejects with a PackageError.
 */
export async function walkZip(
  file: string,
  limits: PackageLimits,
  onFile: (name: string, data: Buffer) => Promise<void> | void,
): Promise<ZipSummary> {
  const size = (await stat(file)).size;
  if (size > limits.maxBytes)
    throw new PackageError(`more than ${mb(limits.maxBytes)} (the zip itself is ${mb(size)})`);
  let zip: ZipFile;
  try {
    zip = await open(file);
  } catch (err) {
    throw translate(err);
  }
  if (zip.entryCount > limits.maxFiles * 2 + 1000) {
    zip.close();
    throw new PackageError(`more than ${limits.maxFiles} files (${zip.entryCount} entries)`);
  }
  const files = new Map<string, number>();
  let declared = 0;
  let compressed = 0;
  const handle = async (entry: Entry): Promise<void> => {
    const name = entry.fileName;
    const problem = entryProblem(name);
    if (problem) throw new PackageError(problem);
    if (name.endsWith('/')) return;
    if (entry.isEncrypted()) throw new PackageError(`an encrypted entry "${name}"`);
    if (files.has(name)) throw new PackageError(`the entry "${name}" twice`);
    if (files.size + 1 > limits.maxFiles) throw new PackageError(`more than ${limits.maxFiles} files`);
    declared += entry.uncompressedSize;
    compressed += entry.compressedSize;
    if (declared > limits.maxBytes) throw new PackageError(`more than ${mb(limits.maxBytes)} once inflated`);
    if (
      entry.uncompressedSize > RATIO_FLOOR &&
      entry.uncompressedSize > limits.maxRatio * Math.max(entry.compressedSize, 1)
    )
      throw new PackageError(
        `a zip bomb: "${name}" inflates ${Math.round(entry.uncompressedSize / Math.max(entry.compressedSize, 1))} times (at most ${limits.maxRatio})`,
      );
    const data = await readAll(zip, entry, entry.uncompressedSize);
    if (data.length !== entry.uncompressedSize)
      throw new PackageError(`a zip bomb: "${name}" does not inflate to its declared size`);
    files.set(name, data.length);
    await onFile(name, data);
  };
  await new Promise<void>((resolve, reject) => {
    let done = false;
    const fail = (err: unknown) => {
      if (done) return;
      done = true;
      zip.close();
      reject(translate(err));
    };
    zip.on('error', fail);
    zip.on('end', () => {
      if (done) return;
      done = true;
      resolve();
    });
    zip.on('entry', (entry: Entry) => {
      handle(entry).then(() => {
        if (!done) zip.readEntry();
      }, fail);
    });
    zip.readEntry();
  });
  if (declared > RATIO_FLOOR && declared > limits.maxRatio * Math.max(compressed, 1))
    throw new PackageError(
      `a zip bomb: the package inflates ${Math.round(declared / Math.max(compressed, 1))} times (at most ${limits.maxRatio})`,
    );
  return { files, bytes: declared };
}

/** SHA-256 of the zip's bytes: the package's content address (hex, 32 characters kept). */
export async function zipHash(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex').slice(0, 32);
}
