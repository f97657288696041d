// Compiles the API for production: src/server.ts and the workspace packages it imports
// (@parcours/domain, whose exports are TypeScript files) into one ES module, dist/server.js,
// run with plain `node` by `npm start` (no TypeScript loader at run time: decision 0010).
// Every other package stays an import of node_modules, as in development.
// dist/ sits at the same depth as src/, so env.ts's paths relative to the file stay right.
// Usage: node scripts/build.mjs [outdir] — outdir (default dist) must sit in apps/api, beside src,
// so the bundle finds node_modules (tests build a throwaway copy: test/helpers/api-process.ts).
import { rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const outdir = process.argv[2]
  ? path.resolve(process.argv[2])
  : new URL('../dist/', import.meta.url).pathname;
rmSync(outdir, { recursive: true, force: true });

const result = await build({
  absWorkingDir: new URL('..', import.meta.url).pathname,
  entryPoints: { server: 'src/server.ts' },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Readable output: stack traces in production name our functions and lines as written.
  minify: false,
  keepNames: true,
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'external-packages',
      setup(b) {
        // Bare imports are packages: ours (TypeScript sources) are bundled, the rest stay external.
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@parcours/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
const bytes = Object.values(result.metafile.outputs).reduce((sum, o) => sum + o.bytes, 0);
console.log(
  `${path.relative(process.cwd(), outdir) || '.'}: ${Object.keys(result.metafile.inputs).length} modules, ${(bytes / 1024).toFixed(0)} kB`,
);
