import { randomUUID } from 'node:crypto';
import path from 'node:path';
import Fastify from 'fastify';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Transporter } from 'nodemailer';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, validatorCompiler } from 'fastify-type-provider-zod';
import type { Db, DbKind } from './db/db';
import type { Env } from './env';
import { packagesPortOf } from './env';
import { diskStore } from './files/store';
import type { FileStore } from './files/store';
import { registerAuth, type Auth } from './plugins/auth';
import { registerCompression } from './plugins/compression';
import { serializerCompiler, transformObject } from './plugins/contract';
import { registerDb } from './plugins/db';
import { registerHealth } from './plugins/health';
import { registerRequestMetrics } from './plugins/metrics';
import type { AppMetrics } from './plugins/metrics';
import { ApiError, errorHandler, notFoundError } from './plugins/errors';
import { redactingLogger } from './plugins/log-redaction';
import { requestLoggerFactory } from './plugins/request-logger';
import { registerJsonApiSink } from './plugins/jsonapi-sink';
import { registerMail } from './plugins/mail';
import { LIBRARY_STYLE_TEXTS, styleTextSources } from './plugins/page-styles';
import { registerSecurityHeaders } from './plugins/security-headers';
import { registerTenant, tenantResolver } from './plugins/tenant';
import { registerTincan } from './plugins/tincan';
import {
  inlineScriptHashes,
  inlineStyleHashes,
  registerWebApp,
  scriptAndStylePaths,
} from './plugins/web-app';
import { registerWellFormedText } from './plugins/well-formed-text';
import { authRoutes } from './modules/auth/routes';
import { certificateRoutes } from './modules/certificates/routes';
import { classProgramRoutes } from './modules/class-programs/routes';
import { classStepRoutes } from './modules/class-steps/routes';
import { classUserRoutes } from './modules/class-users/routes';
import { classRoutes } from './modules/classes/routes';
import { contextMapperRoutes } from './modules/contexts/mapper';
import { contextRoutes } from './modules/contexts/routes';
import { courseBlockRoutes } from './modules/course-blocks/routes';
import { courseNodeRoutes } from './modules/course-nodes/routes';
import { courseRoutes } from './modules/courses/routes';
import { fileRoutes } from './modules/files/routes';
import { registerSignedFileUrls } from './modules/files/signing';
import { uploadRoutes } from './modules/files/upload';
import { lessonPageRoutes } from './modules/lesson-pages/routes';
import { lessonRoutes } from './modules/lessons/routes';
import { logBookRecordRoutes } from './modules/log-book-records/routes';
import { lrsRoutes } from './modules/lrs/routes';
import { manifestRoutes } from './modules/manifest/routes';
import { offlineRoutes } from './modules/offline/routes';
import { packageRoutes } from './modules/packages/routes';
import { pageListRoutes } from './modules/pages/list-routes';
import { pageResourceRoutes } from './modules/pages/routes';
import { organisationRoutes } from './modules/organisation/routes';
import { privacyRoutes } from './modules/privacy/routes';
import { programRoutes } from './modules/programs/routes';
import { registerQuotas } from './modules/quotas/plugin';
import { recordRoutes } from './modules/records/routes';
import { reviewRoutes } from './modules/reviews/routes';
import { statisticsRoutes } from './modules/statistics/routes';
import { dashboardLevelRoutes } from './modules/dashboard-levels/routes';
import { teachingRoutes } from './modules/teaching/class-users-data';
import { userRoutes } from './modules/users/routes';
import { sessionRoutes } from './modules/users/sessions';
import { htmlSessionRoutes } from './modules/users/html-session-routes';
import { registerHtmlSessionCookies } from './plugins/html-session';

export interface BuildAppOptions {
  env: Env;
  db: Db;
  dbKind: DbKind;
  /** Stored files (DATA_DIR/files); without it downloads answer 404. */
  filesDir?: string;
  logger?: FastifyServerOptions['logger'];
  /** Mail transport (tests); otherwise SMTP_URL, else .eml files in DATA_DIR/outbox. */
  mailTransport?: Transporter;
  /** Clock of the identity routes (tests of expiring links). */
  now?: () => Date;
  /** Stored files in S3 (server.ts, FILES_S3_BUCKET); otherwise the folder `filesDir`. */
  files?: FileStore;
  /** Prometheus metrics (server.ts makes them when METRICS_PORT is set): every request is timed. */
  metrics?: AppMetrics;
}

// A request id from the caller (a proxy's X-Request-Id) is kept when it looks like one.
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,100}$/;

/**
 * CSP for the Vite-built SPA: scripts only from our origin; media from our API or data: URLs;
 * frames from our origin (tincan modules) and the two video sites the embed widget accepts.
 * No inline style but by hash (decision 0053): index.html's `<style>` elements here, for every
 * response; a page the server makes adds its own in its header (plugins/page-styles.ts). The
 * app's own style props (React's, the PDF viewer's, lib/branding.ts) go through the CSSOM, which
 * CSP does not restrict; a screen drawn on the server carries no style attribute.
 */
const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  mediaSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  frameSrc: [
    "'self'",
    'https://www.youtube-nocookie.com',
    'https://www.youtube.com',
    'https://player.vimeo.com',
  ],
  workerSrc: ["'self'"],
  manifestSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'self'"],
};

/** SPA routes a back office opens in a window and messages (docs/product.md §7): they keep `window.opener`. */
export const OPENED_BY_BACK_OFFICE = /^\/(?:preview|correction)(?:\/|$)/;

/**
 * Where the player may frame packages from (issue 31): PACKAGES_ORIGIN, else any host on the
 * packages port — the app's own host name there (decision 0048), which a static header cannot name.
 */
export function packagesFrameSources(env: Env): string[] {
  if (env.PACKAGES_ORIGIN) return [env.PACKAGES_ORIGIN];
  const port = packagesPortOf(env);
  return port ? [`http://*:${port}`, `https://*:${port}`] : [];
}

export async function buildApp(opts: BuildAppOptions): Promise<FastifyInstance> {
  const { env, db, dbKind } = opts;
  if (!env.JWT_SECRET) throw new Error('JWT_SECRET is required to build the app (server.ts provides one).');

  const app = Fastify({
    // Whatever the caller asks for (level, stream), secrets are redacted (plugins/log-redaction).
    logger:
      opts.logger === false
        ? false
        : redactingLogger({ level: env.LOG_LEVEL, ...(typeof opts.logger === 'object' ? opts.logger : {}) }),
    // Above `info`, a request's child logger is made only when it logs (plugins/request-logger).
    ...(opts.logger === false ? {} : { childLoggerFactory: requestLoggerFactory }),
    trustProxy: env.TRUST_PROXY,
    // Path ids are UUID-like; anything much longer is not an id of ours.
    // ignoreDuplicateSlashes: an xAPI client joins an endpoint ending in / with /statements (issue 28).
    routerOptions: { maxParamLength: 200, ignoreDuplicateSlashes: true },
    // Errors raised before routing (a path that is not valid UTF-8) get the same JSON:API shape.
    frameworkErrors: (error, request, reply) => errorHandler.call(request.server, error, request, reply),
    // Every log line of a request carries this id (`reqId`); it is echoed as X-Request-Id.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
  });
  // Callback hooks on the common path: an async one costs a promise and a microtask each request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  if (opts.metrics) registerRequestMetrics(app, opts.metrics);
  // Health and readiness (issue 30), outside the tenant-scoped /api plugin.
  registerHealth(app, db);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);
  registerWellFormedText(app);
  registerJsonApiSink(app);
  // Before compression (a child scope's hook) sees the JSON: file URLs signed for the viewer.
  registerSignedFileUrls(app, env.JWT_SECRET);
  // JSON:API clients send application/vnd.api+json; parse it like JSON.
  app.addContentTypeParser(
    'application/vnd.api+json',
    { parseAs: 'string' },
    app.getDefaultJsonParser('error', 'error'),
  );

  registerSecurityHeaders(
    app,
    {
      contentSecurityPolicy: {
        useDefaults: false,
        // The built index.html's own inline script, by its hash (decision 0024).
        directives: {
          ...CSP_DIRECTIVES,
          scriptSrc: [...CSP_DIRECTIVES.scriptSrc, ...inlineScriptHashes(env.WEB_DIST)],
          // index.html's own `<style>` and the entry's stylesheet the build inlined (decision 0024).
          styleSrc: [
            ...CSP_DIRECTIVES.styleSrc,
            ...inlineStyleHashes(env.WEB_DIST),
            ...styleTextSources(LIBRARY_STYLE_TEXTS),
          ],
          frameSrc: [...CSP_DIRECTIVES.frameSrc, ...packagesFrameSources(env)],
        },
      },
    },
    OPENED_BY_BACK_OFFICE,
    scriptAndStylePaths(env.WEB_DIST),
  );
  // Only the HTML renderer reads a cookie (decision 0046); sign-in and sign-out set and end it.
  await registerHtmlSessionCookies(app);
  // Off globally; routes opt in (login). Exceeding throws our ApiError, rendered as JSON:API.
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new ApiError(429, 'TOO_MANY_REQUESTS', `Too many requests; retry in ${context.after}.`),
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Parcours API',
        version: '0.1.0',
        description: 'Learner front office API. The rules behind the fields: docs/api.md.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
    // The named resources (plugins/resources.ts) as components, each operation pointing to them.
    transformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  // Set when the /api scope registers (below): the drawn pages' keys use its token checks.
  let auth: Auth | undefined;
  await app.register(
    async (api) => {
      await registerCompression(api);
      registerDb(
        api,
        db,
        dbKind,
        opts.filesDir ?? null,
        opts.files ?? (opts.filesDir ? diskStore(opts.filesDir) : null),
      );
      registerQuotas(api, env);
      registerTenant(api, { db });
      auth = registerAuth(api, {
        db,
        secret: env.JWT_SECRET as string,
        sessionMaxS: Math.round(env.SESSION_MAX_HOURS * 3600),
      });
      registerMail(api, {
        smtpUrl: env.SMTP_URL,
        outboxDir: path.join(env.DATA_DIR, 'outbox'),
        transport: opts.mailTransport,
      });
      api.setNotFoundHandler(async (request) => {
        throw notFoundError(request.method, request.url);
      });
      await api.register(contextRoutes);
      // Authors, trainers and organisation data (issue 13).
      await api.register(contextMapperRoutes);
      await api.register(organisationRoutes);
      await api.register(teachingRoutes);
      await api.register(userRoutes, {
        loginRateLimit: env.LOGIN_RATE_LIMIT,
        loginIpRateLimit: env.LOGIN_IP_RATE_LIMIT,
        secret: env.JWT_SECRET as string,
        publicUrl: env.PUBLIC_URL,
        ...(opts.now ? { now: opts.now } : {}),
      });
      await api.register(sessionRoutes, opts.now ? { now: opts.now } : {});
      await api.register(htmlSessionRoutes);
      await api.register(privacyRoutes, {
        ...(opts.now ? { now: opts.now } : {}),
        outboxDir: path.join(env.DATA_DIR, 'outbox'),
      });
      await api.register(authRoutes, {
        secret: env.JWT_SECRET as string,
        publicUrl: env.PUBLIC_URL,
        ...(opts.now ? { now: opts.now } : {}),
      });
      await api.register(classUserRoutes);
      await api.register(classRoutes);
      await api.register(classProgramRoutes, opts.now ? { now: opts.now } : {});
      await api.register(classStepRoutes);
      await api.register(programRoutes);
      await api.register(courseRoutes);
      await api.register(lessonRoutes, opts.now ? { now: opts.now } : {});
      await api.register(fileRoutes, { secret: env.JWT_SECRET as string });
      // Dashboard logbook (issue 9): attachments upload and the notes.
      await api.register(uploadRoutes, opts.now ? { now: opts.now } : {});
      await api.register(logBookRecordRoutes, opts.now ? { now: opts.now } : {});
      // Progression (issue 4): end-of-program evaluations and score records.
      await api.register(reviewRoutes, opts.now ? { now: opts.now } : {});
      await api.register(recordRoutes);
      await api.register(statisticsRoutes, opts.now ? { now: opts.now } : {});
      await api.register(dashboardLevelRoutes);
      // Lesson player (issue 3): the page life cycle, node-mode reads and tincan modules.
      await api.register(lessonPageRoutes, opts.now ? { now: opts.now } : {});
      await api.register(offlineRoutes);
      await api.register(pageResourceRoutes);
      await api.register(pageListRoutes);
      await api.register(courseNodeRoutes);
      await api.register(courseBlockRoutes);
      // Certificates (issue 9): items, PDF, Open Badges credential, keys, public verification.
      await api.register(certificateRoutes, { secret: env.JWT_SECRET as string, publicUrl: env.PUBLIC_URL });
      // Learning records (issue 14): the xAPI statements resource and module launches.
      await api.register(lrsRoutes, opts.now ? { now: opts.now } : {});
      await registerTincan(api);
      // Packages (issue 31): launches and the cmi5 fetch URL; their files are on the packages origin.
      await api.register(packageRoutes, {
        packagesOrigin: env.PACKAGES_ORIGIN ?? null,
        packagesPort: packagesPortOf(env),
        ...(opts.now ? { now: opts.now } : {}),
      });
    },
    { prefix: '/api' },
  );

  // The tenant's credential keys at the well-known place too (RFC 8615); relative, so the Host stays.
  app.get('/.well-known/jwks.json', { schema: { hide: true } }, (_request, reply) =>
    reply.redirect('/api/contexts/current/jwks.json', 308),
  );
  // Per-tenant web app manifest (issue 12), before the SPA fallback answers every other GET.
  await app.register(manifestRoutes, { db });
  await registerWebApp(app, env.WEB_DIST, {
    tenantOf: tenantResolver({ db }),
    // The API's own token checks key the drawn pages kept for reuse (decision 0061).
    ...(auth ? { auth } : {}),
    drawnPageCacheBytes: Math.round(env.DRAWN_PAGE_CACHE_MB * 1024 * 1024),
    ...(opts.now ? { now: opts.now } : {}),
  });
  return app;
}
