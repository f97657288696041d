import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestApp, type TestContext } from './app';

/**
 * The API started on a throwaway web build: `files` are written under a temporary root (paths
 * relative to it: 'dist/index.html', 'dist-server/server.js'), and `WEB_DIST` is its `dist/`.
 * `close` stops the app and removes the files.
 */
export async function startWithWebBuild(
  files: Record<string, string>,
): Promise<{ ctx: TestContext; close: () => Promise<void> }> {
  const root = mkdtempSync(path.join(tmpdir(), 'parcours-web-build-'));
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(root, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  const ctx = await startTestApp({ WEB_DIST: path.join(root, 'dist') });
  return {
    ctx,
    close: async () => {
      await ctx.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
