/**
 * docs/product.md §8: a script chunk that cannot be loaded raises a chunk-load error (time-out or missing),
 * a style chunk a style chunk error. After a deployment the old chunks are gone from the server,
 * so for an open app these mean "a new version is available": the answer is to reload.
 */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

export type LoadErrorKind = 'chunk-timeout' | 'chunk-missing' | 'style-chunk';

export class ChunkLoadError extends Error {
  override readonly name = 'ChunkLoadError';
  constructor(
    readonly kind: LoadErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** What browsers and Vite say when a lazy script or style cannot be fetched. */
const STYLE = /Unable to preload CSS|CSS_CHUNK_LOAD_FAILED|Loading CSS chunk/i;
const SCRIPT =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Loading chunk [\w-]+ failed|ChunkLoadError/i;

/** The docs/product.md §8 kind of a load failure, or null for any other error. */
export function loadErrorKind(error: unknown): LoadErrorKind | null {
  if (error instanceof ChunkLoadError) return error.kind;
  if (!(error instanceof Error)) return null;
  const text = `${error.name}: ${error.message}`;
  if (STYLE.test(text)) return 'style-chunk';
  if (SCRIPT.test(text)) return 'chunk-missing';
  return null;
}

/**
 * A lazy import that gives up after docs/product.md §9's chunk load time-out, so a stalled network ends in
 * "reload" instead of an endless spinner; failures come out as ChunkLoadError of their kind.
 */
export function loadChunk<T>(load: () => Promise<T>, timeoutMs = CHUNK_LOAD_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new ChunkLoadError('chunk-timeout', `Chunk not loaded after ${timeoutMs} ms`)),
      timeoutMs,
    );
    load().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        const kind = loadErrorKind(error);
        reject(kind ? new ChunkLoadError(kind, (error as Error).message, { cause: error }) : error);
      },
    );
  });
}
