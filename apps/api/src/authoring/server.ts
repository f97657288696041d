/**
 * `npm run author`: the content preview tool for people who write content (issue 13). It lists
 * the blocks of a content folder (default content/demo), reports import problems with file and
 * path, and shows the chosen block in the app's /preview through a window message. It runs on its
 * own origin (default http://localhost:3300), which the demo tenants name as their back office.
 */
import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { checkCataloguePackages, previewPayload, readCatalogue } from './catalogue';
import type { Catalogue } from './catalogue';
import { DEFAULT_PACKAGE_LIMITS } from '../content/packages/zip';
import { authoringPage } from './page';
import { pickLocale } from '@parcours/domain/locale';
import { preferredLanguages } from '../plugins/sign-in-html';

/** A cheap fingerprint of the folder: every YAML file's path, size and modification time. */
export function folderVersion(root: string): string {
  const hash = createHash('sha1');
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const abs = path.join(dir, name);
      const st = statSync(abs);
      if (st.isDirectory()) walk(abs);
      else if (/\.(ya?ml|zip)$/i.test(name)) hash.update(`${abs}:${st.size}:${st.mtimeMs};`);
    }
  };
  walk(root);
  return hash.digest('hex');
}

/**
 * `appUrl`: where /preview opens. Without APP_URL each tenant's own app host is used (the demo's
 * French and English tenants differ); with it, every block opens there (tests, other ports).
 */
export async function buildAuthoringServer(opts: {
  contentDir: string;
  appUrl: string;
  useTenantHosts?: boolean;
}): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  const root = path.resolve(opts.contentDir);
  let cached: { version: string; catalogue: Catalogue } | null = null;
  const current = async () => {
    const version = folderVersion(root);
    if (!cached || cached.version !== version) {
      const catalogue = readCatalogue(root);
      // Packages are read as the importer reads them (issue 31): a bad one is listed with the issues.
      await checkCataloguePackages(catalogue, DEFAULT_PACKAGE_LIMITS);
      cached = { version, catalogue };
    }
    return cached;
  };

  app.get('/', async (request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('vary', 'Accept-Language')
      .send(
        authoringPage(
          opts.appUrl,
          opts.useTenantHosts ?? false,
          // French unless the browser prefers English: the tool's first authors write in French.
          pickLocale(preferredLanguages(request.headers['accept-language']), 'fr'),
        ),
      ),
  );
  app.get('/api/version', async () => ({ version: (await current()).version }));
  app.get('/api/blocks', async () => {
    const { version, catalogue } = await current();
    return { version, issues: catalogue.issues, blocks: catalogue.blocks };
  });
  app.get<{ Params: { key: string } }>('/api/blocks/:key', async (request, reply) => {
    const payload = previewPayload((await current()).catalogue, request.params.key);
    if (!payload) return reply.code(404).send({ error: 'no such block' });
    return payload;
  });
  return app;
}

const isMain =
  process.argv[1] &&
  path.resolve(process.argv[1]).replace(/\.ts$/, '') === path.resolve(import.meta.dirname, 'server');
if (isMain) {
  const port = Number(process.env.AUTHOR_PORT ?? 3300);
  const contentDir = process.env.CONTENT_DIR ?? path.resolve(import.meta.dirname, '../../../../content/demo');
  const appUrl = process.env.APP_URL ?? 'http://localhost:3000';
  const app = await buildAuthoringServer({ contentDir, appUrl, useTenantHosts: !process.env.APP_URL });
  await app.listen({ port, host: 'localhost' });
  console.log(`Content preview: http://localhost:${port} (content ${contentDir}, app ${appUrl})`);
}
