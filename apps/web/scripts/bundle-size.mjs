// Gzip size of the scripts a route loads, from the Vite build manifest (run after `vite build`):
// the entry and its static imports, the route's lazy chunk(s) and theirs, and the language
// catalogue (the larger one, French). Exits non-zero when /login is over its 100 kB budget.
// Usage: node scripts/bundle-size.mjs
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('.vite/manifest.json', dist), 'utf8'));
const BUDGET = 100 * 1024;

function collect(key, files = new Set()) {
  const entry = manifest[key];
  if (!entry) throw new Error(`not in the build manifest: ${key}`);
  if (files.has(entry.file)) return files;
  files.add(entry.file);
  for (const child of entry.imports ?? []) collect(child, files);
  return files;
}

const gz = (file) => gzipSync(readFileSync(new URL(file, dist)), { level: 9 }).length;

// The French catalogue (the larger) comes in two chunks cut by vite-locale-split.ts: the core on
// every page, the signed-in screens' texts with the first signed-in screen.
const CORE = 'virtual:locales/fr/core';
const SCREENS = 'virtual:locales/fr/screens';
const routes = {
  '/login': ['src/features/auth/components/LoginPage.tsx', CORE],
  '/': [
    'src/features/home/components/HomePage.tsx',
    'src/app/QueryProvider.tsx',
    'src/app/UserMenu.tsx',
    CORE,
    SCREENS,
  ],
  '/legal/mentions': ['src/features/legal/components/LegalPage.tsx', CORE],
};

let over = false;
for (const [route, keys] of Object.entries(routes)) {
  const files = collect('index.html');
  for (const key of keys) collect(key, files);
  const sizes = [...files].filter((f) => f.endsWith('.js')).map((file) => [file, gz(file)]);
  const total = sizes.reduce((sum, [, size]) => sum + size, 0);
  console.log(`\n${route}: ${(total / 1024).toFixed(1)} kB gzip in ${sizes.length} scripts`);
  for (const [file, size] of sizes.sort((a, b) => b[1] - a[1]))
    console.log(`  ${(size / 1024).toFixed(1).padStart(6)} kB  ${file}`);
  if (route === '/login' && total > BUDGET) over = true;
}
if (over) {
  console.error('\n/login is over its 100 kB gzip budget');
  process.exit(1);
}
