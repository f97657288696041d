// The server and the import command compiled once for the suite's run (run.sh): the adapter
// imports a course per test, and a TypeScript loader's start-up each time would dominate the run.
// Same bundling as apps/api/scripts/build.mjs; the output sits in apps/api (gitignored
// .test-dist-*) so that the bundles find node_modules.
import path from 'node:path';
import { build } from 'esbuild';

const api = new URL('../../apps/api/', import.meta.url).pathname;
// One folder per run (run.sh: .test-dist-catapult-<db>), so two runs may build at once.
const outdir = path.join(api, process.argv[2] ?? '.test-dist-catapult');
await build({
  absWorkingDir: api,
  entryPoints: {
    server: 'src/server.ts',
    import: 'src/cli/import.ts',
    'import-worker': '../../conformance/cmi5/import-worker.ts',
  },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  plugins: [
    {
      name: 'external-packages',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@parcours/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
