import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { builtServer, removeBuiltServer } from '../helpers/api-process';

/**
 * Issue 40 item 7: most installations keep files on disk, and the AWS SDK is the API's largest
 * dependency (hundreds of modules to read and compile at every start). It loads only when a
 * bucket is configured (FILES_S3_BUCKET): in a separate Node process whose module hook refuses
 * any `@aws-sdk/*` import, the whole app and a disk store load; the bucket store is the one
 * thing that trips the hook (which shows the hook works). And since `npm start` runs one esbuild
 * bundle, where a package imported statically by any bundled file becomes an import at the top
 * of the bundle, the built server may name the SDK in a dynamic `import()` only.
 */
const API_DIR = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const dataDir = mkdtempSync(path.join(tmpdir(), 'parcours-s3-lazy-'));

afterAll(() => {
  removeBuiltServer();
  rmSync(dataDir, { recursive: true, force: true });
});

// Resolving any @aws-sdk/* module fails loudly: nothing can load the SDK unseen.
const REFUSE_SDK = `export async function resolve(specifier, context, next) {
  if (specifier.startsWith('@aws-sdk/')) throw new Error('AWS SDK loaded: ' + specifier);
  return next(specifier, context);
}`;

const src = (file: string) => JSON.stringify(pathToFileURL(path.join(API_DIR, 'src', file)).href);

const SCRIPT = `
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(REFUSE_SDK)}));
await import(${src('app.ts')});
const { fileStoreOf } = await import(${src('files/from-env.ts')});
const dir = ${JSON.stringify(dataDir)};
const disk = await fileStoreOf({ FILES_S3_REGION: 'us-east-1' }, dir);
console.log('disk store: ' + disk.kind);
try {
  const s3 = await fileStoreOf({ FILES_S3_BUCKET: 'parcours-files', FILES_S3_REGION: 'us-east-1' }, dir);
  console.log('bucket store without the SDK: ' + s3.kind);
} catch (err) {
  console.log('bucket store: ' + err.message);
}
`;

describe('the AWS SDK loads only for a bucket', () => {
  it('a disk-configured app never imports it; a bucket store does', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '--eval', SCRIPT],
      { cwd: API_DIR, env: { ...process.env, NODE_ENV: 'test' } },
    );
    expect(stdout.trim().split('\n')).toEqual([
      'disk store: disk',
      'bucket store: AWS SDK loaded: @aws-sdk/client-s3',
    ]);
  }, 120_000);

  it('the built server names the SDK in a dynamic import only', () => {
    const bundle = readFileSync(builtServer(), 'utf8');
    const staticImports = bundle.match(/^import\b[^;]*?from\s*["']@aws-sdk\/[^"']+["']/gm) ?? [];
    expect(staticImports).toEqual([]);
    expect(bundle).toMatch(/\bimport\(\s*["']@aws-sdk\/client-s3["']\s*\)/);
  }, 120_000);
});
