import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/db';
import { wroteNothing } from '../plugins/auth';
import { BROTLI_OPTIONS, COMPRESSION_THRESHOLD, GZIP_OPTIONS } from '../plugins/compression';
import type { Viewer } from '../modules/scope';
import { expiryFor, namesFiles, signaturesChangeAt, signedFileUrls } from '../modules/files/signing';
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
 * administrator or not, and the request URL without `noCache` (`answerKeyUrl`). The compressed
 * bytes of an answer are made once, on the first request that accepts them, instead of once per
 * request. An answer naming files has its download URLs signed for the viewer here (the onSend
 * hook signs texts, not bytes): signed bytes are kept while the signatures would be the same.
 */
export interface BuiltAnswer {
  document: unknown;
  /** ms since the epoch; Infinity when only a write can change the answer. */
  validUntil: number;
  /**
   * False when the answer turned out not to be the viewer's own after all (staff reading a
   * learner's page): sent, not kept, and a drawn page's read of it stays uncovered.
   */
  keep?: boolean;
}

/**
 * An answer's bytes, made once, with room for their compressed copies (made on first demand):
 * what is sent (`sendPrepared` sends a route's own).
 */
export interface PreparedAnswer {
  /** UTF-8 bytes: sending a string made Fastify measure and encode it again on every hit. */
  body: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

/** What is sent: the JSON bytes and their compressed forms, made on first need. */
type Bytes = PreparedAnswer;

interface Entry extends Bytes {
  /** What the answer was built for (with the user and the URL, which find it). */
  contextId: string;
  isAdmin: boolean;
  /** The stamps and the variant it was built under. */
  user: string;
  content: string;
  variant: string;
  validUntil: number;
  /** The body names files (`/api/files/…/download`): what is sent is `signed`. */
  files: boolean;
  /** The body with its URLs signed for the viewer, for one expiry and one revocation instant. */
  signed?: Bytes & { exp: number; validAfter: string | null };
}

/** A few thousand learners' home answers; past this the process starts over. */
const MAX_BYTES = 64 * 1024 * 1024;

/** What an entry holds: its body, and the signed copy of the same size when it names files. */
const sizeOf = (entry: Entry) => entry.body.length * (entry.files ? 2 : 1);

/**
 * By user, then by request URL: the user's id is the same string on every request (the token's
 * verified claims are kept, plugins/auth.ts), so its hash is computed once, and no key is built
 * per request (a joined key string was made and hashed on every hit). The rest of what the
 * answer depends on is compared on the entry.
 */
class AnswerCache {
  private users = new Map<string, Map<string, Entry>>();
  private bytes = 0;
  /** Answers sent from here and built (tests and the bench read them). */
  readonly counts = { hits: 0, builds: 0 };

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
    if (old) this.bytes -= sizeOf(old);
    if (this.bytes + sizeOf(entry) > MAX_BYTES) {
      this.users = new Map();
      this.bytes = 0;
      answers = undefined;
    }
    if (!answers) this.users.set(userId, (answers = new Map()));
    answers.set(url, entry);
    this.bytes += sizeOf(entry);
  }
}

/**
 * The request URL as the answer depends on it: without `noCache`, a timestamp the web app adds
 * to its reads so that no HTTP cache answers them. It names nothing the answer is built from;
 * kept in the key, every read would make a new entry and the cache, which starts over when full,
 * would be emptied by them.
 */
export function answerKeyUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0 || !url.includes('noCache', q)) return url;
  const kept = url
    .slice(q + 1)
    .split('&')
    .filter((part) => part !== 'noCache' && !part.startsWith('noCache='));
  return kept.length ? `${url.slice(0, q)}?${kept.join('&')}` : url.slice(0, q);
}

const caches = new WeakMap<Db, AnswerCache>();
function cacheOf(db: Db): AnswerCache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new AnswerCache()));
  return cache;
}

/** The counts of the answers kept on `db` in this process. */
export const answerCacheCounts = (db: Db): { hits: number; builds: number } => cacheOf(db).counts;

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

function compressed(bytes: Bytes, encoding: Encoding): Buffer {
  if (encoding === 'br') return (bytes.br ??= brotliCompressSync(bytes.body, BROTLI_OPTIONS));
  return (bytes.gzip ??= gzipSync(bytes.body, GZIP_OPTIONS));
}

/** The bytes to send the request's user: the body, or its copy signed for them now. */
function bytesFor(request: FastifyRequest, entry: Entry): Bytes {
  if (!entry.files || !request.user) return entry;
  // The clock the signatures are made and checked by (modules/files/signing.ts), not the routes'.
  const now = Date.now();
  const exp = expiryFor(now);
  const validAfter = request.user.row.tokensValidAfter;
  const kept = entry.signed;
  if (kept && kept.exp === exp && kept.validAfter === validAfter) return kept;
  entry.signed = {
    exp,
    validAfter,
    body: Buffer.from(signedFileUrls(request, entry.body.toString('utf8'), now)),
  };
  return entry.signed;
}

/**
 * Until when a drawn page may keep this answer (lib/drawn-reads.ts): its own `validUntil`, and for
 * an answer naming files the end of its signatures' step, measured on the signatures' clock and
 * carried onto the routes' (`now`): a page kept longer would show links that expire.
 */
function coveredUntil(entry: Entry, now: number): number {
  if (!entry.files) return entry.validUntil;
  const real = Date.now();
  return Math.min(entry.validUntil, now + (signaturesChangeAt(real) - real));
}

function send(request: FastifyRequest, reply: FastifyReply, entry: Entry | Bytes): FastifyReply {
  reply.type('application/json; charset=utf-8');
  const bytes = 'files' in entry ? bytesFor(request, entry) : entry;
  const encoding =
    bytes.body.length >= COMPRESSION_THRESHOLD ? acceptedEncoding(request.headers['accept-encoding']) : null;
  if (!encoding) return reply.send(bytes.body);
  // Content-Encoding set here tells @fastify/compress the bytes are already compressed.
  const vary = reply.getHeader('vary');
  if (!vary) reply.header('vary', 'accept-encoding');
  else if (!/accept-encoding/i.test(String(vary))) reply.header('vary', `${String(vary)}, accept-encoding`);
  return reply.header('content-encoding', encoding).send(compressed(bytes, encoding));
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

function entryOf(v: Viewer, versions: HomeVersions, variant: string, built: BuiltAnswer): Entry {
  const body = Buffer.from(JSON.stringify(built.document));
  return {
    contextId: v.contextId,
    isAdmin: v.isAdmin,
    user: versions.user,
    content: versions.content,
    variant,
    validUntil: built.validUntil,
    body,
    files: namesFiles(body),
  };
}

/**
 * Answers a read from the cache when it may, else builds it, keeps it and sends it. `own` says
 * the answer is about the viewer alone (not, say, an administrator reading someone else's); the
 * build may still say it was not (`keep: false`). Either way the document is sent as plain
 * `JSON.stringify` of what our serialisers built to the route's response schema (the schema
 * still documents the route; decision 0010).
 *
 * A build that writes (the player's first opening of a lesson creates its page) is kept under
 * the stamps read before it, which its own write has moved: the next read misses it and builds
 * again; it is never served (test/modules/player-answer-cache.test.ts).
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
    /**
     * Read the stamps from the database, not from this process's copy of them (decision 0068):
     * on PostgreSQL the copy hears other writers by notification, within its delay, and the
     * player's page answers a write made anywhere (a package's runtime, another process) at once.
     */
    exact?: boolean;
  },
  /** Builds the answer; content caches it reads are to be those of `versions`, the key's stamps. */
  build: (versions: HomeVersions) => Promise<BuiltAnswer>,
): Promise<FastifyReply> {
  const { viewer: v } = opts;
  const cache = cacheOf(db);
  // Read with the viewer by `requireHomeUser` (one statement), else on their own.
  const folded = !opts.exact && request.user?.id === v.userId ? request.user.homeVersions : undefined;
  const variant = opts.variant ?? '';
  if (!opts.own) {
    cache.counts.builds++;
    const versions = folded ?? (await homeVersionsOf(db, v));
    return send(request, reply, entryOf(v, versions, variant, await build(versions)));
  }
  const versions = folded ?? (await homeVersionsOf(db, v));
  const url = answerKeyUrl(request.url);
  const hit = cache.get(v, url, versions, variant, opts.now);
  // A drawn page that read this answer is kept under the same key (lib/drawn-reads.ts, 0061).
  if (hit) {
    cache.counts.hits++;
    wroteNothing(request);
    noteStampCovered(coveredUntil(hit, opts.now));
    return send(request, reply, hit);
  }
  // The content caches of the build below use the stamps too: no second read of them.
  if (folded) knowHomeVersions(v, folded);
  cache.counts.builds++;
  const built = await build(versions);
  const entry = entryOf(v, versions, variant, built);
  if (built.keep === false) return send(request, reply, entry);
  cache.set(v.userId, url, entry);
  noteStampCovered(coveredUntil(entry, opts.now));
  return send(request, reply, entry);
}
