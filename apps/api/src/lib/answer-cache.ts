import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/db';
import { BROTLI_OPTIONS, COMPRESSION_THRESHOLD, GZIP_OPTIONS } from '../plugins/compression';
import type { Viewer } from '../modules/scope';
import { noteStampCovered } from './drawn-reads';
import { homeVersionsOf, knowHomeVersions } from './home-versions';
import type { HomeVersions } from './home-versions';

/**
 * The learner's last answers of the home's reads (decision 0015), kept per API process and
 * served again only while (1) the version stamps read from the database in this request are
 * the ones the answer was built under — the triggers of migration 0014 move them with every
 * write of what the answer shows, in any process — and (2) the clock has not reached the first
 * instant at which the answer's time rules could show something else (`validUntil`).
 * Only a viewer's own answers are kept (the stamp is the viewer's), keyed by tenant, viewer,
 * administrator or not, and the full request URL. The compressed bytes of an answer are made
 * once, on the first request that accepts them, instead of once per request.
 */
export interface BuiltAnswer {
  document: unknown;
  /** ms since the epoch; Infinity when only a write can change the answer. */
  validUntil: number;
}

interface Entry {
  /** What the answer was built for (with the user and the URL, which find it). */
  contextId: string;
  isAdmin: boolean;
  /** The stamps and the variant it was built under. */
  user: string;
  content: string;
  variant: string;
  validUntil: number;
  /** UTF-8 bytes: sending a string made Fastify measure and encode it again on every hit. */
  body: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

/** A few thousand learners' home answers; past this the process starts over. */
const MAX_BYTES = 64 * 1024 * 1024;

/**
 * By user, then by request URL: the user's id is the same string on every request (the token's
 * verified claims are kept, plugins/auth.ts), so its hash is computed once, and no key is built
 * per request (a joined key string was made and hashed on every hit). The rest of what the
 * answer depends on is compared on the entry.
 */
class AnswerCache {
  private users = new Map<string, Map<string, Entry>>();
  private bytes = 0;

  get(v: Viewer, url: string, versions: HomeVersions, variant: string, now: number): Entry | undefined {
    const entry = this.users.get(v.userId)?.get(url);
    return entry &&
      entry.contextId === v.contextId &&
      entry.isAdmin === v.isAdmin &&
      entry.user === versions.user &&
      entry.content === versions.content &&
      entry.variant === variant &&
      now < entry.validUntil
      ? entry
      : undefined;
  }

  set(userId: string, url: string, entry: Entry): void {
    let answers = this.users.get(userId);
    const old = answers?.get(url);
    if (old) this.bytes -= old.body.length;
    if (this.bytes + entry.body.length > MAX_BYTES) {
      this.users = new Map();
      this.bytes = 0;
      answers = undefined;
    }
    if (!answers) this.users.set(userId, (answers = new Map()));
    answers.set(url, entry);
    this.bytes += entry.body.length;
  }
}

const caches = new WeakMap<Db, AnswerCache>();
function cacheOf(db: Db): AnswerCache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new AnswerCache()));
  return cache;
}

type Encoding = 'br' | 'gzip';

/** Browsers send the same few headers on every request: their verdicts are kept (bounded). */
const verdicts = new Map<string, Encoding | null>();

/** The client's preferred encoding among ours, as @fastify/compress chooses it (br on a tie). */
export function acceptedEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  let verdict = verdicts.get(header);
  if (verdict === undefined) {
    if (verdicts.size >= 256) verdicts.clear();
    verdicts.set(header, (verdict = parseAcceptEncoding(header)));
  }
  return verdict;
}

function parseAcceptEncoding(header: string): Encoding | null {
  let best: Encoding | null = null;
  let bestQ = 0;
  const q = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    const weight = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    q.set(name.trim() === 'x-gzip' ? 'gzip' : name.trim(), weight === undefined ? 1 : Number(weight));
  }
  for (const encoding of ['br', 'gzip'] as const) {
    const weight = q.get(encoding) ?? q.get('*') ?? 0;
    if (weight > bestQ) [best, bestQ] = [encoding, weight];
  }
  return best;
}

/**
 * An answer's bytes, made once, with room for their compressed copies (made on first demand):
 * what `sendPrepared` sends.
 */
export interface PreparedAnswer {
  body: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}
type Sendable = PreparedAnswer;

function compressed(entry: Sendable, encoding: Encoding): Buffer {
  if (encoding === 'br') return (entry.br ??= brotliCompressSync(entry.body, BROTLI_OPTIONS));
  return (entry.gzip ??= gzipSync(entry.body, GZIP_OPTIONS));
}

function send(request: FastifyRequest, reply: FastifyReply, entry: Sendable): FastifyReply {
  reply.type('application/json; charset=utf-8');
  const encoding =
    entry.body.length >= COMPRESSION_THRESHOLD ? acceptedEncoding(request.headers['accept-encoding']) : null;
  if (!encoding) return reply.send(entry.body);
  // Content-Encoding set here tells @fastify/compress the bytes are already compressed.
  const vary = reply.getHeader('vary');
  if (!vary) reply.header('vary', 'accept-encoding');
  else if (!/accept-encoding/i.test(String(vary))) reply.header('vary', `${String(vary)}, accept-encoding`);
  return reply.header('content-encoding', encoding).send(compressed(entry, encoding));
}

/**
 * Sends bytes made once (a route's answer kept with what it depends on), in the encoding the
 * client prefers, compressed once; the route is registered with `compress: false`.
 */
export function sendPrepared(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: PreparedAnswer,
): FastifyReply {
  return send(request, reply, answer);
}

/**
 * Answers a read from the cache when it may, else builds it, keeps it and sends it. `own` says
 * the answer is about the viewer alone (not, say, an administrator reading someone else's).
 * Either way the document is sent as plain `JSON.stringify` of what our serialisers built to
 * the route's response schema (the schema still documents the route; decision 0010).
 */
export async function sendCachedAnswer(
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  opts: {
    viewer: Viewer;
    own: boolean;
    now: number;
    /** What else the answer depends on that no stamp moves with (users/me: the tenant's row). */
    variant?: string;
  },
  build: () => Promise<BuiltAnswer>,
): Promise<FastifyReply> {
  const { viewer: v } = opts;
  if (!opts.own) {
    const { document } = await build();
    return send(request, reply, { body: Buffer.from(JSON.stringify(document)) });
  }
  // Read with the viewer by `requireHomeUser` (one statement), else on their own.
  const folded = request.user?.id === v.userId ? request.user.homeVersions : undefined;
  const versions = folded ?? (await homeVersionsOf(db, v));
  const variant = opts.variant ?? '';
  const cache = cacheOf(db);
  const hit = cache.get(v, request.url, versions, variant, opts.now);
  // A drawn page that read this answer is kept under the same key (lib/drawn-reads.ts, 0061).
  if (hit) {
    noteStampCovered(hit.validUntil);
    return send(request, reply, hit);
  }
  // The content caches of the build below use the stamps too: no second read of them.
  if (folded) knowHomeVersions(v, folded);
  const { document, validUntil } = await build();
  const entry: Entry = {
    contextId: v.contextId,
    isAdmin: v.isAdmin,
    user: versions.user,
    content: versions.content,
    variant,
    validUntil,
    body: Buffer.from(JSON.stringify(document)),
  };
  cache.set(v.userId, request.url, entry);
  noteStampCovered(validUntil);
  return send(request, reply, entry);
}
