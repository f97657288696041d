import { createHash } from 'node:crypto';
import { compactVerify, decodeProtectedHeader, importX509 } from 'jose';
import type { Db } from '../../db/db';
import { ApiError } from '../../plugins/errors';
import type { Tx } from '../../db/tx';
import { spend } from '../quotas/budget';
import type { Budget } from '../quotas/budget';
import type { Statement } from './statement-schema';

/**
 * Attachments (xAPI-Data.md §2.4.11, xAPI-Communication.md §1.5.2) and signed statements
 * (xAPI-Data.md §2.6). A request with attachments is `multipart/mixed`: the statements first
 * (application/json), then one part per attachment without `fileUrl`, named by its SHA-2 in
 * `X-Experience-API-Hash` and sent `Content-Transfer-Encoding: binary`. No npm package parses
 * multipart/mixed (the form-data parsers refuse it), so this file splits it: a buffer search
 * for the boundary, then each part's headers.
 */
const malformed = (detail: string) => new ApiError(400, 'VALIDATION_ERROR', detail);
export const SIGNATURE = 'http://adlnet.gov/expapi/attachments/signature';

export interface Part {
  headers: Record<string, string>;
  body: Buffer;
}

/** RFC 2046 §5.1.1: parts between `--boundary` delimiters; preamble and epilogue dropped. */
export function parseMultipartMixed(contentType: string, body: Buffer): Part[] {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const boundary = m?.[1] ?? m?.[2];
  if (!boundary) throw malformed('multipart/mixed needs a boundary.');
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Part[] = [];
  let at = body.indexOf(delimiter);
  if (at < 0) throw malformed('No multipart boundary in the body.');
  for (;;) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next < 0) throw malformed('The multipart body does not close.');
    // The CRLF before a delimiter belongs to the delimiter.
    let end = next;
    if (body[end - 2] === 13 && body[end - 1] === 10) end -= 2;
    const raw = body.subarray(body[start] === 13 && body[start + 1] === 10 ? start + 2 : start, end);
    const split = raw.indexOf('\r\n\r\n');
    const head = split < 0 ? raw.toString('utf8') : raw.subarray(0, split).toString('utf8');
    const headers: Record<string, string> = {};
    for (const line of head.split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    parts.push({ headers, body: split < 0 ? Buffer.alloc(0) : raw.subarray(split + 4) });
    at = next;
  }
  return parts;
}

const DIGESTS: Record<number, string> = { 64: 'sha256', 96: 'sha384', 128: 'sha512' };
const digestOf = (sha2: string, body: Buffer) => {
  const alg = DIGESTS[sha2.length];
  return alg ? createHash(alg).update(body).digest('hex') : null;
};

/** The statements of a multipart body and its attachment parts by SHA-2, checked. */
export function statementsAndParts(
  contentType: string,
  body: Buffer,
): { json: unknown; parts: Map<string, Part> } {
  const [first, ...rest] = parseMultipartMixed(contentType, body);
  if (!first || !/^application\/json\b/i.test(first.headers['content-type'] ?? ''))
    throw malformed('The first part holds the statements, as application/json.');
  let json: unknown;
  try {
    json = JSON.parse(first.body.toString('utf8'));
  } catch {
    throw malformed('The statements part is not valid JSON.');
  }
  const parts = new Map<string, Part>();
  for (const p of rest) {
    const sha2 = (p.headers['x-experience-api-hash'] ?? '').toLowerCase();
    if (!sha2) throw malformed('An attachment part needs X-Experience-API-Hash.');
    if ((p.headers['content-transfer-encoding'] ?? '').toLowerCase() !== 'binary')
      throw malformed('An attachment part is sent with Content-Transfer-Encoding: binary.');
    if (digestOf(sha2, p.body) !== sha2) throw malformed('An attachment part does not match its hash.');
    parts.set(sha2, p);
  }
  return { json, parts };
}

type Attachment = NonNullable<Statement['attachments']>[number];

/**
 * Every attachment without a fileUrl has its part, every part an attachment; a signature
 * attachment is a JWS (RS256/384/512) whose payload is the statement as it was before signing
 * (xAPI-Data.md §2.6), verified with the certificate of its `x5c` header when there is one.
 */
export async function checkAttachments(statements: Statement[], parts: Map<string, Part>): Promise<void> {
  const used = new Set<string>();
  for (const s of statements) {
    for (const a of (s.attachments ?? []) as Attachment[]) {
      const sha2 = a.sha2.toLowerCase();
      const part = parts.get(sha2);
      if (!part && a.fileUrl === undefined)
        throw malformed(`Attachment ${sha2} has neither a part nor a fileUrl.`);
      if (part) used.add(sha2);
      if (a.usageType === SIGNATURE) {
        if (a.contentType !== 'application/octet-stream' || !part)
          throw malformed('A signature is an application/octet-stream part.');
        await checkSignature(s, part.body.toString('utf8'));
      }
    }
  }
  for (const sha2 of parts.keys())
    if (!used.has(sha2)) throw malformed(`Part ${sha2} is not an attachment of these statements.`);
}

const SIGNING_ALGS = new Set(['RS256', 'RS384', 'RS512']);

async function checkSignature(s: Statement, jws: string): Promise<void> {
  let header;
  try {
    header = decodeProtectedHeader(jws);
  } catch {
    throw malformed('The signature is not a JWS.');
  }
  if (!SIGNING_ALGS.has(String(header.alg)))
    throw malformed('A statement is signed with RS256, RS384 or RS512.');
  let payload: Buffer;
  if (Array.isArray(header.x5c) && header.x5c[0]) {
    const pem = `-----BEGIN CERTIFICATE-----\n${header.x5c[0]}\n-----END CERTIFICATE-----`;
    try {
      const key = await importX509(pem, String(header.alg));
      payload = Buffer.from((await compactVerify(jws, key)).payload);
    } catch {
      throw malformed('The signature does not verify with its x5c certificate.');
    }
  } else {
    const segment = jws.split('.')[1];
    if (jws.split('.').length !== 3 || !segment) throw malformed('The signature is not a compact JWS.');
    payload = Buffer.from(segment, 'base64url');
  }
  let signed: unknown;
  try {
    signed = JSON.parse(payload.toString('utf8'));
  } catch {
    throw malformed('The signature payload is not a JSON statement.');
  }
  if (!sameAsSigned(signed as Record<string, unknown>, s))
    throw malformed('The signature payload is not this statement.');
}

/** The signed statement is the statement without its attachments (and what the LRS sets). */
function sameAsSigned(signed: Record<string, unknown>, s: Statement): boolean {
  const strip = (o: Record<string, unknown>, keepId: boolean) => {
    const { attachments: _a, authority: _b, stored: _c, version: _d, id, ...rest } = o;
    return canonicalJson(keepId ? { ...rest, id: String(id ?? '').toLowerCase() } : rest);
  };
  const keepId = signed.id !== undefined;
  return strip(signed, keepId) === strip(s as unknown as Record<string, unknown>, keepId);
}

function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

/**
 * Keeps the parts' bytes, once per content hash per tenant. A part newly kept is charged to the
 * learner whose statements brought it (issue 36: parts used to count against nothing); a part
 * already kept costs nothing; an administrator's client (no learner) is nobody's.
 */
export async function storeParts(
  trx: Tx,
  budget: Budget,
  contextId: string,
  userId: string | null,
  parts: Map<string, Part>,
  now: Date,
): Promise<void> {
  let rows = 0;
  let bytes = 0;
  for (const [sha2, p] of parts) {
    const kept = await trx
      .insertInto('xapiAttachments')
      .values({
        contextId,
        sha2,
        contentType: p.headers['content-type'] ?? 'application/octet-stream',
        content: p.body.toString('base64'),
      })
      .onConflict((oc) => oc.columns(['contextId', 'sha2']).doNothing())
      .returning('sha2')
      .executeTakeFirst();
    if (kept) {
      rows += 1;
      bytes += p.body.length;
    }
  }
  if (userId !== null) await spend(trx, budget, { contextId, userId, road: 'attachments', rows, bytes }, now);
}

/** The stored parts of these statements' attachments, for `attachments=true`. */
export async function partsOf(db: Db, contextId: string, statements: unknown[]) {
  const hashes = new Set<string>();
  for (const s of statements)
    for (const a of (s as { attachments?: { sha2: string }[] }).attachments ?? [])
      hashes.add(a.sha2.toLowerCase());
  if (hashes.size === 0) return [];
  const rows = await db
    .selectFrom('xapiAttachments')
    .select(['sha2', 'contentType', 'content'])
    .where('contextId', '=', contextId)
    .where('sha2', 'in', [...hashes])
    .execute();
  return rows.map((r) => ({
    sha2: r.sha2,
    contentType: r.contentType,
    body: Buffer.from(r.content, 'base64'),
  }));
}

/** A multipart/mixed answer: the JSON first, then each part (Communication §2.1.3 attachments=true). */
export function multipartAnswer(
  json: unknown,
  parts: { sha2: string; contentType: string; body: Buffer }[],
): { contentType: string; body: Buffer } {
  const boundary = `xapi-${createHash('sha256').update(JSON.stringify(json)).digest('hex').slice(0, 24)}`;
  const chunks: Buffer[] = [
    Buffer.from(`--${boundary}\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(json)}\r\n`),
  ];
  for (const p of parts) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Type: ${p.contentType}\r\nContent-Transfer-Encoding: binary\r\nX-Experience-API-Hash: ${p.sha2}\r\n\r\n`,
      ),
      p.body,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--`));
  return { contentType: `multipart/mixed; boundary=${boundary}`, body: Buffer.concat(chunks) };
}
