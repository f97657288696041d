import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { notFoundError } from './errors';

type Encoding = 'br' | 'gzip';

/** The build's brotli and gzip copies of a file, when it wrote them (apps/web/vite-precompress.ts). */
interface Variants {
  plain: Buffer;
  br: Buffer | null;
  gzip: Buffer | null;
}

function readVariants(file: string): Variants {
  const optional = (f: string) => (existsSync(f) ? readFileSync(f) : null);
  return { plain: readFileSync(file), br: optional(`${file}.br`), gzip: optional(`${file}.gz`) };
}

/**
 * The encodings a request accepts, by the rules browsers use: a coding listed with `q=0` is
 * refused, `*` stands for any coding not listed.
 */
export function acceptedEncodings(header: string | string[] | undefined): Set<Encoding> {
  const out = new Set<Encoding>();
  if (!header) return out;
  const listed = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    listed.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  for (const coding of ['br', 'gzip'] as const) {
    const q = listed.get(coding) ?? listed.get('*') ?? 0;
    if (q > 0) out.add(coding);
  }
  return out;
}

/** The smallest variant the request accepts. */
function pick(request: FastifyRequest, variants: Variants): { body: Buffer; encoding: Encoding | null } {
  const accepted = acceptedEncodings(request.headers['accept-encoding']);
  if (variants.br && accepted.has('br')) return { body: variants.br, encoding: 'br' };
  if (variants.gzip && accepted.has('gzip')) return { body: variants.gzip, encoding: 'gzip' };
  return { body: variants.plain, encoding: null };
}

/**
 * CSP sources (`'sha256-…'`) of the inline scripts of the built index.html (decision 0024: the
 * start-up script that starts the first screen's reads), so `script-src` allows exactly those and
 * no other inline script. Empty when there is no build or no inline script.
 */
export function inlineScriptHashes(webDist: string): string[] {
  const indexFile = path.join(webDist, 'index.html');
  if (!existsSync(indexFile)) return [];
  const html = readFileSync(indexFile, 'utf8');
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/gi)) {
    if (/\ssrc\s*=/i.test(match[1] ?? '') || !match[2]) continue;
    hashes.push(`'sha256-${createHash('sha256').update(match[2], 'utf8').digest('base64')}'`);
  }
  return hashes;
}

/**
 * Production: the built SPA on the same origin. Hashed assets are cached for good; any other
 * GET that is not a file gets index.html so client-side routes survive a reload. Unknown /api
 * paths never fall back to HTML. Every file goes out as its precompressed brotli or gzip copy
 * when the browser accepts one (plain otherwise), always with `Vary: Accept-Encoding`.
 */
export async function registerWebApp(app: FastifyInstance, webDist: string): Promise<void> {
  const indexFile = path.join(webDist, 'index.html');
  const indexHtml = existsSync(indexFile) ? readVariants(indexFile) : null;
  if (indexHtml) {
    await app.register(fastifyStatic, {
      root: path.resolve(webDist),
      wildcard: false,
      // `file.br` / `file.gz` beside `file`, chosen from Accept-Encoding; plain when neither fits.
      preCompressed: true,
      // The SPA fallback below sends index.html itself; the api scope owns reply.sendFile.
      decorateReply: false,
      // Our setHeaders decides caching; send's own Cache-Control would override it.
      cacheControl: false,
      setHeaders: (res, filePath) => {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
        res.setHeader('vary', 'Accept-Encoding');
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    if (
      indexHtml &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      !/^\/api(\/|$)/.test(pathname)
    ) {
      const { body, encoding } = pick(request, indexHtml);
      if (encoding) reply.header('content-encoding', encoding);
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('vary', 'Accept-Encoding')
        .send(body);
    }
    throw notFoundError(request.method, request.url);
  });
}
