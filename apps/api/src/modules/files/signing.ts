import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Signed download URLs (issue 10 finding 7). `<img>`, `<audio>`, links and the PDF viewer fetch
 * files without an Authorization header, so the API hands out URLs that carry their own proof:
 * `?u=<user>&exp=<unix s>&sig=<HMAC(file, user, tenant, exp)>`, keyed by a key derived from
 * JWT_SECRET. The signature only says who asks; the download route still decides whether that
 * user may see the file, so a URL echoed back in a learner's own text grants nothing more.
 */

/**
 * Lifetime of a signed URL: 15 minutes past the next 5-minute mark (15–20 min), so URLs (and the
 * browser's cache of them) stay the same for 5 minutes. Issue 29 R3-09: they lived a working day;
 * a page of the app re-reads its JSON (and so its URLs) far more often than that.
 */
const STEP_S = 5 * 60;
const LIFETIME_S = 15 * 60;

export interface DownloadSignature {
  u: string;
  exp: number;
  sig: string;
}

function keyOf(secret: string): Buffer {
  // A key of its own: a download signature never passes for a token, nor the reverse.
  return createHmac('sha256', secret).update('parcours-file-download').digest();
}

/**
 * `validAfter` is the user's `tokensValidAfter`: a password change or a sign-out everywhere moves
 * it, and every URL signed before then no longer matches (R3-09), with nothing to store.
 */
export function signatureOf(
  key: Buffer,
  fileId: string,
  userId: string,
  contextId: string,
  exp: number,
  validAfter: string | null,
): string {
  return createHmac('sha256', key)
    .update(`${fileId}\n${userId}\n${contextId}\n${exp}\n${validAfter ?? ''}`)
    .digest('base64url');
}

export function expiryFor(nowMs: number): number {
  return Math.ceil(nowMs / 1000 / STEP_S) * STEP_S + LIFETIME_S;
}

export interface DownloadSigner {
  sign(
    fileId: string,
    userId: string,
    contextId: string,
    validAfter: string | null,
    nowMs?: number,
  ): DownloadSignature;
  /**
   * Whether `s` was issued by `sign` for this file, tenant and user (whose current
   * `tokensValidAfter` is `validAfter`) and has not expired.
   */
  verify(
    fileId: string,
    contextId: string,
    s: { u?: string; exp?: string; sig?: string },
    validAfter: string | null,
    nowMs?: number,
  ): string | null;
}

export function downloadSigner(secret: string): DownloadSigner {
  const key = keyOf(secret);
  return {
    sign(fileId, userId, contextId, validAfter, nowMs = Date.now()) {
      const exp = expiryFor(nowMs);
      return { u: userId, exp, sig: signatureOf(key, fileId, userId, contextId, exp, validAfter) };
    },
    verify(fileId, contextId, s, validAfter, nowMs = Date.now()) {
      if (!s.u || !s.exp || !s.sig || !/^\d{1,12}$/.test(s.exp)) return null;
      const exp = Number(s.exp);
      if (exp * 1000 <= nowMs) return null;
      const expected = Buffer.from(signatureOf(key, fileId, s.u, contextId, exp, validAfter));
      const given = Buffer.from(s.sig);
      return expected.length === given.length && timingSafeEqual(expected, given) ? s.u : null;
    },
  };
}

// A download URL as the API writes it, not yet signed (no query string after it).
const DOWNLOAD_URL = /\/api\/files\/([A-Za-z0-9_-]{1,200})\/download(?![?\w/-])/g;

/**
 * The first instant after `nowMs` at which `expiryFor` gives another expiry: until then a text
 * signed at `nowMs` is signed the same (the answer cache keeps signed bytes that long).
 */
export function signaturesChangeAt(nowMs: number): number {
  return Math.ceil(nowMs / 1000 / STEP_S) * STEP_S * 1000 + 1;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The signer of download URLs (registerSignedFileUrls), for answers sent as bytes. */
    fileUrlSigner: DownloadSigner | null;
  }
}

/** Whether `text` names a file by a download URL (one the API signs for its reader). */
export const namesFiles = (text: string | Buffer): boolean => text.includes('/api/files/');

/**
 * `text` (a JSON answer) with its file URLs signed for the request's user at `nowMs`, as every
 * answer to a signed-in user gets them: by the onSend hook below for a text, by the answer cache
 * (lib/answer-cache.ts) for the bytes it sends, which the hook leaves as they are.
 */
export function signedFileUrls(request: FastifyRequest, text: string, nowMs = Date.now()): string {
  const signer = request.server.fileUrlSigner;
  if (!signer || !request.user || !namesFiles(text)) return text;
  const userId = request.user.id;
  const validAfter = request.user.row.tokensValidAfter;
  const contextId = request.context.id;
  return text.replace(DOWNLOAD_URL, (url: string, id: string) => {
    const s = signer.sign(id, userId, contextId, validAfter, nowMs);
    return `${url}?u=${encodeURIComponent(s.u)}&exp=${s.exp}&sig=${s.sig}`;
  });
}

/**
 * Every JSON answer to a signed-in user gets its file URLs signed for that user, wherever they
 * sit: file resources, page documents (content rows), resources lists, log-book attachments.
 * Registered on the root instance so it sees the JSON text before compression.
 */
export function registerSignedFileUrls(app: FastifyInstance, secret: string): void {
  app.decorate('fileUrlSigner', downloadSigner(secret));
  // A callback hook: it runs on every answer and signs in the same turn (nothing to wait for).
  app.addHook('onSend', (request, reply, payload, done) => {
    if (typeof payload !== 'string' || !request.user || !namesFiles(payload)) return done(null, payload);
    if (!/json/.test(String(reply.getHeader('content-type') ?? ''))) return done(null, payload);
    done(null, signedFileUrls(request, payload));
  });
}
