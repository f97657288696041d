import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { build, type Plugin, type ResolvedConfig } from 'vite';
import type { OutputAsset, OutputBundle, OutputChunk } from 'rollup';

export interface EarlyRoute {
  /** Pathnames of the screen (a RegExp, tested in the browser against location.pathname). */
  path: RegExp;
  /** Signed-in screen: its code is only asked for when a token is stored. */
  signedIn: boolean;
  /** The screen's lazily imported modules, relative to the app's root (routes.ts imports them). */
  modules: string[];
  /**
   * Modules the screen also waits for before its first paint on a browser without the HTML
   * Sanitizer API (DOMPurify, decision 0033): asked for there only, with the screen's code.
   */
  withoutSanitizer?: string[];
}

export interface EarlyStartOptions {
  /** The inline script's source (bundled into one IIFE, no module script). */
  entry: string;
  routes: EarlyRoute[];
  /** Virtual modules of each language's texts (vite-locale-split.ts). */
  languages: string[];
}

type Chunk = OutputChunk & { viteMetadata?: { importedCss: Set<string> } };

function chunks(bundle: OutputBundle): Chunk[] {
  return Object.values(bundle).filter((item): item is Chunk => item.type === 'chunk');
}

/** A chunk and every chunk it imports statically, by file name. */
function closure(bundle: OutputBundle, start: Chunk[]): Set<string> {
  const seen = new Set<string>();
  const visit = (fileName: string) => {
    if (seen.has(fileName)) return;
    seen.add(fileName);
    const chunk = bundle[fileName];
    if (chunk?.type === 'chunk') chunk.imports.forEach(visit);
  };
  start.forEach((chunk) => visit(chunk.fileName));
  return seen;
}

/**
 * Issue 11, decision 0024: what the first paint of a slow phone waits for, settled in index.html
 * at build time.
 * - The entry's stylesheet (~3 kB brotli) is inlined as a `<style>`: no stylesheet blocks the
 *   first paint, and the HTML stays within the first round trip's bytes.
 * - app/early-start.ts, bundled into one inline `<script>` at the top of `<head>`, starts the
 *   first screen's API reads and asks for the screen's code and texts (`modulepreload`), from a
 *   route → files map read from this build's chunks. The API allows that one script by its hash
 *   (apps/api/src/plugins/web-app.ts `inlineScriptHashes`).
 * The build fails if a listed module is not a chunk of the bundle, so the map cannot go stale.
 */
/**
 * What `.vite/first-screens.json` holds (read by apps/api/src/plugins/screen-styles.ts): each
 * signed-in route's stylesheets (file names under the build's root), which the server puts in
 * that route's HTML so the first screen asks for no stylesheet.
 */
export interface FirstScreens {
  routes: { path: string; css: string[] }[];
}
export const FIRST_SCREENS_FILE = '.vite/first-screens.json';

export function earlyStart(options: EarlyStartOptions): Plugin {
  let config: ResolvedConfig;
  let firstScreens: FirstScreens | null = null;
  return {
    name: 'parcours-early-start',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    writeBundle(output) {
      if (!firstScreens || !output.dir) return;
      const file = path.join(output.dir, FIRST_SCREENS_FILE);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify(firstScreens));
    },
    transformIndexHtml: {
      order: 'post',
      async handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return html;
        const href = (fileName: string) => `${config.base}${fileName}`;
        const all = chunks(bundle);
        const entry = all.find((chunk) => chunk.isEntry);
        if (!entry) throw new Error('parcours-early-start: no entry chunk');
        // Already asked for by index.html itself (the entry and its modulepreload links).
        const loaded = closure(bundle, [entry]);

        let out = html;
        for (const cssFile of entry.viteMetadata?.importedCss ?? []) {
          const asset = bundle[cssFile] as OutputAsset | undefined;
          const link = new RegExp(`<link rel="stylesheet"[^>]*href="${href(cssFile)}"[^>]*>`);
          if (!asset || !link.test(out)) throw new Error(`parcours-early-start: no link to ${cssFile}`);
          const css = typeof asset.source === 'string' ? asset.source : Buffer.from(asset.source).toString();
          // The file stays: lazy chunks list it among their styles, and Vite's preload helper adds a
          // <link> for each listed style that no <link rel="stylesheet"> names yet. A disabled one
          // names it (so the helper never appends it after the screens' styles, which would change
          // the cascade) and is never fetched nor applied: the inline <style> holds its rules.
          out = out.replace(
            link,
            () =>
              `<style>${css.trim()}</style>\n    <link rel="stylesheet" href="${href(cssFile)}" disabled />`,
          );
        }

        // Bytes as sent (brotli, a quick level: only the order counts).
        const sizes = new Map<string, number>();
        const size = (name: string) => {
          const item = bundle[name];
          if (item?.type !== 'chunk') return 0;
          let bytes = sizes.get(name);
          if (bytes === undefined) {
            bytes = brotliCompressSync(item.code, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }).length;
            sizes.set(name, bytes);
          }
          return bytes;
        };
        // Scripts largest first: on six connections and one slow link, the file that takes longest
        // starts first and ends no later. Then the styles, which the server usually puts in the
        // page (the script skips those: screen-styles.ts, decision 0031).
        const namesOf = (start: Chunk[]) =>
          [...closure(bundle, start)].filter((name) => !loaded.has(name)).sort((a, b) => size(b) - size(a));
        const filesOf = (start: Chunk[]) => {
          const names = namesOf(start);
          const css = names.flatMap((name) => [...((bundle[name] as Chunk).viteMetadata?.importedCss ?? [])]);
          return [...names, ...new Set(css)].map(href);
        };
        const byModule = (id: string) => {
          // A screen that other screens also import (PlayerScreen's slots) has no facade of its own.
          const chunk = all.find((c) => c.facadeModuleId === id) ?? all.find((c) => c.moduleIds.includes(id));
          if (!chunk) throw new Error(`parcours-early-start: ${id} is no chunk of this build`);
          return chunk;
        };
        // Where the texts go in a route's list, by the same rule (their size in the first language).
        const textsSize = (part: 'core' | 'all') =>
          size(byModule(`\0virtual:locales/${options.languages[0]}/${part}`).fileName);
        const routes = options.routes.map((route) => {
          const start = route.modules.map((module) => byModule(path.resolve(config.root, module)));
          const files = filesOf(start);
          const larger = namesOf(start).filter(
            (name) => size(name) > textsSize(route.signedIn ? 'all' : 'core'),
          );
          const textsAt = larger.length;
          // What the screen does not already bring, its own first: the screen then waits for nothing
          // more than it would with the browser's Sanitizer, bar these bytes.
          const fallback = (route.withoutSanitizer ?? []).map((module) =>
            byModule(path.resolve(config.root, module)),
          );
          const own = new Set(closure(bundle, start));
          const withoutSanitizer = filesOf(fallback).filter(
            (file) => !own.has(file.slice(config.base.length)),
          );
          return [route.path.source, route.signedIn, files, textsAt, withoutSanitizer] as [
            string,
            boolean,
            string[],
            number,
            string[],
          ];
        });
        firstScreens = {
          routes: options.routes
            .filter((route) => route.signedIn)
            .map((route) => {
              const start = route.modules.map((module) => byModule(path.resolve(config.root, module)));
              const css = [...closure(bundle, start)]
                .filter((name) => !loaded.has(name))
                .flatMap((name) => [...((bundle[name] as Chunk).viteMetadata?.importedCss ?? [])]);
              return { path: route.path.source, css: [...new Set(css)] };
            }),
        };
        const texts = Object.fromEntries(
          options.languages.map((lang) => [
            lang,
            {
              core: filesOf([byModule(`\0virtual:locales/${lang}/core`)]),
              screens: filesOf([byModule(`\0virtual:locales/${lang}/screens`)]),
              all: filesOf([byModule(`\0virtual:locales/${lang}/all`)]),
            },
          ]),
        );

        const result = await build({
          configFile: false,
          root: config.root,
          publicDir: false,
          logLevel: 'warn',
          resolve: { alias: config.resolve.alias },
          define: { __PARCOURS_PRELOAD__: JSON.stringify({ routes, texts }) },
          build: {
            write: false,
            target: config.build.target,
            minify: 'terser',
            lib: {
              entry: path.resolve(config.root, options.entry),
              formats: ['iife'],
              name: 'parcoursEarly',
            },
          },
        });
        const output = (Array.isArray(result) ? result[0] : result) as { output: OutputChunk[] };
        const code = output.output[0]?.code.trim();
        if (!code) throw new Error('parcours-early-start: the inline script is empty');
        const charset = /<meta charset="[^"]*"\s*\/?>/i;
        if (!charset.test(out)) throw new Error('parcours-early-start: no <meta charset> in index.html');
        return out.replace(charset, (meta) => `${meta}\n    <script>${code}</script>`);
      },
    },
  };
}
