// Size of the scripts each first screen loads, from the Vite build manifest (run after
// `vite build`): the entry and its static imports, the route's lazy chunk(s) and theirs, and the
// language catalogue (the larger one, French). Gzip (level 9) and brotli (quality 11, as
// vite-precompress.ts writes the copies the API serves). No budget (decision 0035): the figures
// are for comparing builds; what a browser actually transfers is measured by `npm run bench -- bundle`.
// Usage: node scripts/bundle-size.mjs
import { readFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('.vite/manifest.json', dist), 'utf8'));

// A module that shares its chunk with others is listed under the chunk's name (`_PlayerScreen-….js`);
// `a|b`: the first found (a module, or the manual chunk it was put in by an older build).
function find(key) {
  for (const one of key.split('|')) {
    if (manifest[one]) return manifest[one];
    const name = one
      .split('/')
      .pop()
      .replace(/\.tsx?$/, '');
    const chunk = Object.keys(manifest).find((k) => k.startsWith(`_${name}-`) && k.endsWith('.js'));
    if (chunk) return manifest[chunk];
  }
  return undefined;
}

function collect(key, files = new Set()) {
  const entry = find(key);
  if (!entry) throw new Error(`not in the build manifest: ${key}`);
  if (files.has(entry.file)) return files;
  files.add(entry.file);
  for (const child of entry.imports ?? []) collect(child, files);
  return files;
}

const gz = (file) => gzipSync(readFileSync(new URL(file, dist)), { level: 9 }).length;
const br = (file) =>
  brotliCompressSync(readFileSync(new URL(file, dist)), {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
  }).length;

// The French catalogue (the larger) comes in two chunks cut by vite-locale-split.ts: the core on
// every page, the signed-in screens' texts with the first signed-in screen.
const CORE = 'virtual:locales/fr/core';
const SCREENS = 'virtual:locales/fr/screens';
const SIGNED_IN = ['src/app/QueryProvider.tsx|signed-in', 'src/app/UserMenu.tsx', CORE, SCREENS];
const routes = {
  '/login': ['src/features/auth/components/LoginPage.tsx', CORE],
  '/': ['src/features/home/components/HomePage.tsx', ...SIGNED_IN],
  '/session/:id': ['src/app/screens/PlayerScreen.tsx', ...SIGNED_IN],
  '/legal/mentions': ['src/features/legal/components/LegalPage.tsx', CORE],
};

const kB = (bytes) => (bytes / 1024).toFixed(1).padStart(6);
for (const [route, keys] of Object.entries(routes)) {
  const files = collect('index.html');
  for (const key of keys) collect(key, files);
  const sizes = [...files].filter((f) => f.endsWith('.js')).map((file) => [file, gz(file), br(file)]);
  const gzip = sizes.reduce((sum, [, size]) => sum + size, 0);
  const brotli = sizes.reduce((sum, [, , size]) => sum + size, 0);
  console.log(
    `\n${route}: ${kB(gzip).trim()} kB gzip, ${kB(brotli).trim()} kB brotli in ${sizes.length} scripts`,
  );
  for (const [file, g, b] of sizes.sort((a, b) => b[1] - a[1]))
    console.log(`  ${kB(g)} gz ${kB(b)} br  ${file}`);
}
