/**
 * The packages origin (issue 31, decision 0048): a listener of its own, in the same process,
 * that serves ONLY package files, the bridge page and the runtime calls the bridge makes. It has
 * no route of the app or of the API, reads no cookie and knows no learner token: a package's
 * code, which runs here, cannot read the app's storage or call the API as the learner. Behind a
 * reverse proxy the installation gives it its own host name (PACKAGES_ORIGIN); the demo and the
 * tests use the app's host on another port (PACKAGES_PORT).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import path from 'node:path';
import Fastify from 'fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { BRIDGE_DIR } from '../../assets';
import type { Db, DbKind } from '../../db/db';
import { contentTypeOf } from '../../files/content-types';
import { sendStored } from '../../files/serve';
import { isSafeKey } from '../../files/store';
import type { FileStore } from '../../files/store';
import { ApiError, errorHandler } from '../../plugins/errors';
import { redactingLogger } from '../../plugins/log-redaction';
import { authenticateLaunch, bearerOf, liveLaunch } from './launches';
import { commitScorm } from './commit';
import { finishLaunch, launchStatus, startLaunch, summaryOfLaunch } from './runtime';
import { scoLaunch, startScorm } from './scorm-course';
import type { CourseResult } from './scorm-course';
import type { RuntimeDeps } from './runtime';
import { escapeHtml } from '../../lib/html';
import { depthOver } from '../../lib/depth';

export interface PackagesAppOptions {
  db: Db;
  dbKind: DbKind;
  files: FileStore | null;
  /** The origin this listener is reached at (PACKAGES_ORIGIN, else http(s)://<host>:<port>), null: from the request. */
  origin: string | null;
  logger?: FastifyServerOptions['logger'];
  logLevel?: string;
  now?: () => Date;
}

const require = createRequire(import.meta.url);
const SCRIPTS: Record<string, () => string> = {
  '/bridge.js': () => path.join(BRIDGE_DIR, 'bridge.js'),
  '/scorm-again/scorm12.js': () => require.resolve('scorm-again/scorm12/min'),
  '/scorm-again/scorm2004.js': () => require.resolve('scorm-again/scorm2004/min'),
};

/** The bridge page of one launch: framed only by the app origin that launched it. */
function bridgeHtml(appOrigin: string, kind: string, title: string): string {
  const runtime =
    kind === 'scorm12'
      ? '<script src="/scorm-again/scorm12.js"></script>'
      : kind === 'scorm2004'
        ? '<script src="/scorm-again/scorm2004.js"></script>'
        : '';
  return `<!doctype html>
<html lang="und" data-app-origin="${escapeHtml(appOrigin)}" data-kind="${escapeHtml(kind)}" data-title="${escapeHtml(title)}">
<head>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>html,body{margin:0;height:100%;overflow:hidden;background:#fff}iframe{display:block;border:0;width:100%;height:100%}</style>
${runtime}
<script src="/bridge.js"></script>
</head>
<body></body>
</html>
`;
}

/**
 * Package files keep their own code (inline scripts and styles, eval). No frame-ancestors: it
 * checks every ancestor, and above the bridge is the app of whichever tenant launched it.
 */
const PACKAGE_CSP = "object-src 'none'; base-uri 'self'";

function bridgeCsp(appOrigin: string, auOrigin: string | null = null): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'unsafe-inline'",
    "connect-src 'self'",
    // A cmi5 AU at an absolute URL (issue 39, decision 0062) plays from its own origin.
    `frame-src 'self'${auOrigin ? ` ${auOrigin}` : ''}`,
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${appOrigin}`,
  ].join('; ');
}

/** The origin of a cmi5 AU at an absolute URL, else null (the AU is on this origin). */
function absoluteAuOrigin(summary: { cmi5?: { aus?: { url: string }[] } }, auIndex: number): string | null {
  const url = summary.cmi5?.aus?.[auIndex]?.url;
  if (!url || !/^https?:\/\//i.test(url)) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

const KEY = /^[0-9a-f]{32}$/;
const MAX_STATE = 256 * 1024;

/** A course's rollup as the bridge reports it, or null when it is not one. */
function courseOf(v: unknown): CourseResult | null {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  const { completion, success, scaled } = v as Record<string, unknown>;
  if (completion !== 'completed' && completion !== 'incomplete' && completion !== 'unknown') return null;
  if (success !== 'passed' && success !== 'failed' && success !== 'unknown') return null;
  if (
    scaled !== null &&
    (typeof scaled !== 'number' || !Number.isFinite(scaled) || scaled < -1 || scaled > 1)
  )
    return null;
  return { completion, success, scaled };
}
const ID = /^[0-9a-zA-Z-]{1,64}$/;

export async function buildPackagesApp(opts: PackagesAppOptions): Promise<FastifyInstance> {
  const { db, dbKind } = opts;
  const now = opts.now ?? (() => new Date());
  const app = Fastify({
    logger:
      opts.logger === false || opts.logger === undefined
        ? false
        : redactingLogger({
            level: opts.logLevel ?? 'info',
            ...(typeof opts.logger === 'object' ? opts.logger : {}),
          }),
    routerOptions: { maxParamLength: 300 },
    bodyLimit: 2 * 1024 * 1024,
  });
  app.setErrorHandler(errorHandler);
  const notFound = (reply: FastifyReply) =>
    reply.code(404).type('text/plain; charset=utf-8').send('Not found: this origin serves packages only.');
  app.setNotFoundHandler(async (_request, reply) => notFound(reply));
  // Beacons (a SCO finishing as its page goes away) send text/plain: the same JSON.
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
  });

  const store = () => {
    if (!opts.files) throw new ApiError(404, 'MODEL_NOT_FOUND', 'No files are stored here.');
    return opts.files;
  };
  const deps = (request: FastifyRequest): RuntimeDeps => ({
    db,
    kind: dbKind,
    store: store(),
    now: now(),
    log: request.log,
  });
  const originOf = (request: FastifyRequest) => opts.origin ?? `${request.protocol}://${request.host}`;
  const launchOf = async (request: FastifyRequest, body?: { auth?: unknown }) => {
    const { key } = request.params as { key: string };
    const secret =
      bearerOf(request.headers.authorization) ?? (typeof body?.auth === 'string' ? body.auth : null);
    return authenticateLaunch(db, key, secret, now());
  };
  const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

  app.get('/launch/:key', async (request, reply) => {
    const { key } = request.params as { key: string };
    const launch = KEY.test(key) ? await liveLaunch(db, key, now()) : null;
    if (!launch)
      return reply.code(404).type('text/plain; charset=utf-8').send('This launch is unknown or over.');
    const summary = await summaryOfLaunch(deps(request), launch);
    return noStore(reply)
      .header(
        'content-security-policy',
        bridgeCsp(launch.appOrigin, absoluteAuOrigin(summary, launch.auIndex)),
      )
      .type('text/html; charset=utf-8')
      .send(bridgeHtml(launch.appOrigin, launch.kind, summary.title));
  });

  // Read once; an ETag saves the download at the next launch, gzip most of it (scorm2004 is 565 kB).
  for (const [url, file] of Object.entries(SCRIPTS)) {
    let script: { body: Buffer; gz: Buffer; etag: string } | null = null;
    app.get(url, async (request, reply) => {
      if (!script) {
        const body = readFileSync(file());
        script = {
          body,
          gz: gzipSync(body),
          etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`,
        };
      }
      reply
        .header('cache-control', 'no-cache')
        .header('etag', script.etag)
        .header('vary', 'accept-encoding')
        .header('cross-origin-resource-policy', 'same-origin')
        .type('text/javascript; charset=utf-8');
      if (request.headers['if-none-match'] === script.etag) return reply.code(304).send();
      if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? '')))
        return reply.header('content-encoding', 'gzip').send(script.gz);
      return reply.send(script.body);
    });
  }

  app.post('/runtime/:key/start', async (request, reply) => {
    const launch = await launchOf(request);
    const answer = launch.kind.startsWith('scorm')
      ? await startScorm(deps(request), launch)
      : await startLaunch(deps(request), launch, originOf(request));
    return noStore(reply).send(answer);
  });

  // One SCO of a course (issue 39): its launch and the data it resumes with. Reads only.
  app.get('/runtime/:key/sco/:sco', async (request, reply) => {
    const launch = await launchOf(request);
    const { sco } = request.params as { sco: string };
    if (sco.length > 200)
      throw new ApiError(400, 'VALIDATION_ERROR', 'sco is an item identifier.', { pointer: '/sco' });
    return noStore(reply).send(await scoLaunch(deps(request), launch, sco));
  });

  app.post('/runtime/:key/commit', async (request, reply) => {
    const body = (request.body ?? {}) as {
      cmi?: unknown;
      sequence?: unknown;
      terminate?: unknown;
      auth?: unknown;
      sco?: unknown;
      state?: unknown;
      course?: unknown;
    };
    const launch = await launchOf(request, body);
    const cmi = body.cmi;
    const sequence = body.sequence;
    if (!cmi || typeof cmi !== 'object' || Array.isArray(cmi))
      throw new ApiError(400, 'VALIDATION_ERROR', 'cmi must be the SCO data model as an object.', {
        pointer: '/cmi',
      });
    if (typeof sequence !== 'number' || !Number.isInteger(sequence) || sequence < 1 || sequence > 1e9)
      throw new ApiError(400, 'VALIDATION_ERROR', 'sequence must be a positive integer.', {
        pointer: '/sequence',
      });
    if (depthOver(cmi, 12))
      throw new ApiError(400, 'VALIDATION_ERROR', 'cmi nests at most 12 levels deep.', { pointer: '/cmi' });
    if (body.sco !== undefined && (typeof body.sco !== 'string' || body.sco.length > 200))
      throw new ApiError(400, 'VALIDATION_ERROR', 'sco is an item identifier.', { pointer: '/sco' });
    if (body.state !== undefined && (typeof body.state !== 'string' || body.state.length > MAX_STATE))
      throw new ApiError(400, 'VALIDATION_ERROR', 'state is the sequencing state, at most 256 kB.', {
        pointer: '/state',
      });
    const course = body.course === undefined ? undefined : courseOf(body.course);
    if (course === null)
      throw new ApiError(400, 'VALIDATION_ERROR', 'course is the rollup: completion, success, scaled.', {
        pointer: '/course',
      });
    const result = await commitScorm(deps(request), launch, {
      cmi: cmi as Record<string, unknown>,
      sequence,
      terminate: body.terminate === true,
      ...(typeof body.sco === 'string' ? { sco: body.sco } : {}),
      ...(typeof body.state === 'string' ? { state: body.state } : {}),
      ...(course ? { course } : {}),
    });
    // The shape scorm-again reads (result, errorCode); a commit seen already is saved all the same.
    return noStore(reply).send({ result: true, errorCode: 0, ...result });
  });

  app.get('/runtime/:key/status', async (request, reply) => {
    const launch = await launchOf(request);
    return noStore(reply).send(await launchStatus(deps(request), launch));
  });

  app.post('/runtime/:key/finish', async (request, reply) => {
    const launch = await launchOf(request);
    return noStore(reply).send(await finishLaunch(deps(request), launch));
  });

  app.get('/p/:contextId/:packageId/*', async (request, reply) => {
    const { contextId, packageId } = request.params as { contextId: string; packageId: string; '*': string };
    const rest = (request.url.split('?')[0] ?? '').split('/').slice(4).join('/');
    let name: string;
    try {
      name = decodeURIComponent(rest);
    } catch {
      return notFound(reply);
    }
    const key = `packages/${contextId}/${packageId}/${name}`;
    if (!ID.test(contextId) || !ID.test(packageId) || !isSafeKey(key)) return notFound(reply);
    reply
      .header('content-security-policy', PACKAGE_CSP)
      .header('content-type', contentTypeOf(name))
      // The folder is the zip's content hash: what it serves never changes.
      .header('cache-control', 'public, max-age=31536000, immutable');
    if (!(await sendStored(request, reply, store(), key))) {
      // The headers of a file are not those of a refusal.
      reply.removeHeader('content-security-policy').removeHeader('cache-control');
      return notFound(reply);
    }
    return reply;
  });

  return app;
}
