import { constants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Smaller answers gain less than the headers of a compressed one cost. */
export const COMPRESSION_THRESHOLD = 1024;

/** The levels of every compressed API answer (also lib/answer-cache.ts, which keeps the bytes). */
export const BROTLI_OPTIONS = {
  params: {
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    [constants.BROTLI_PARAM_QUALITY]: 4,
  },
};
export const GZIP_OPTIONS = { level: 5 };

/**
 * API answers above 1 kB compressed on the fly, brotli first, then gzip. The levels are the
 * fast ones (brotli 4, gzip 5): a home read of 37 kB of JSON shrinks to about a tenth of that
 * at these levels, and the higher ones cost several times the CPU for a few percent more
 * (figures in docs/decisions/0010-home-reads.md). Static files are not compressed here: the
 * build wrote their brotli and gzip copies once (apps/web/vite-precompress.ts).
 * A client that sends no Accept-Encoding gets plain bytes; a compressed answer says
 * `Vary: Accept-Encoding` so that caches keep the variants apart.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    global: true,
    threshold: COMPRESSION_THRESHOLD,
    encodings: ['br', 'gzip'],
    brotliOptions: BROTLI_OPTIONS,
    zlibOptions: GZIP_OPTIONS,
    // Our answers are JSON under 64 kB: compressed in one synchronous call (a fraction of a
    // millisecond at these levels), not through a zlib stream per answer, whose set-up and
    // hand-offs to the thread pool cost more than the compression itself on a small machine.
    syncThreshold: 65_536,
    // Requests bodies are small JSON; decompressing them is not something clients need.
    globalDecompression: false,
  });
}
