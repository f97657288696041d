import path from 'node:path';
// Relative, as vite-badges.ts: Vite loads its config with Node, which runs no TypeScript package.
import {
  LOGIN_PATH,
  networkOnlyPatterns,
  pathPattern,
  type RoutePath,
} from '../../packages/domain/src/routes';
import react from '@vitejs/plugin-react';
import { badgePictures } from './vite-badges';
import { earlyStart } from './vite-early-start';
import { localeSplit } from './vite-locale-split';
import { precompress } from './vite-precompress';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { ownerPlugin, withoutSearchPlugin } from './vite-sw-owner';

/**
 * What the signed-in screens need before their first paint and /login never uses, as one chunk
 * instead of a dozen (issue 11): on a slow phone each file is a round trip and ~1.3 kB of headers,
 * more than most of these modules weigh. With `onlyExplicitManualChunks`, Rollup leaves out of
 * this chunk what these modules import from the entry (api-client, Vite's preload helper):
 * without it, that code would move here and /login would load this chunk too.
 */
const SIGNED_IN_SHARED = [
  '/src/app/QueryProvider.tsx',
  '/src/lib/json-api.ts',
  '/src/lib/format.ts',
  '/src/lib/use-media-query.ts',
  '/src/lib/api-collection.ts',
  '/src/lib/api-errors.ts',
  '/src/lib/device-store.ts',
  '/src/lib/query-client.ts',
  '/node_modules/idb-keyval/dist/index.js',
  '/src/components/ui/Button.tsx',
  '/src/components/ui/ProgressBar.tsx',
  '/src/components/ui/Dialog.tsx',
  '/src/components/ui/Icon.tsx',
  '/src/features/player/offline/OfflineBanner.tsx',
  '/src/features/player/offline/offline.css',
  // The player's reads and its offline queue: the player needs them before its first paint, the
  // home right after its own (OfflineSync).
  '/src/features/player/api/query-keys.ts',
  '/src/features/player/api/lesson-page.ts',
  '/src/features/player/api/get-current-page.ts',
  '/src/features/player/api/next-page.ts',
  '/src/features/player/api/patch-page.ts',
  '/src/features/player/offline/lesson-store.ts',
  '/src/features/player/offline/queue.ts',
  '/src/features/player/offline/device.ts',
  '/src/features/contact/components/ContactTeacherAction.tsx',
  '/packages/domain/src/progress.ts',
  // The content HTML cleaner (decision 0033): the player and the legal pages share it, and a file
  // of its own would be one more request before the player's first paint. A public legal page
  // loads this chunk then, a signed-in visit has it already.
  '/src/lib/sanitize-html.ts',
  '/packages/domain/src/content-html.ts',
];

/**
 * Small modules both /login and the signed-in screens use (under 1 kB): with the framework, which
 * every screen loads, rather than a file of their own (one request fewer before any first screen).
 */
const COMMON = ['/src/components/ui/Alert.tsx', '/packages/domain/src/constants.ts'];

/** The pathnames of routes of the one table (packages/domain/src/routes.ts, decision 0060). */
const pathsOf = (...paths: RoutePath[]) => new RegExp(paths.map(pathPattern).join('|'));

// The service worker is registered from src/lib/service-worker.ts once a learner is signed in
// (injectRegister: false), so it never competes with the first screen for the network.
export default defineConfig({
  plugins: [
    localeSplit(path.resolve(import.meta.dirname, 'src/locales')),
    // SPEC §7 badge pictures, rasterised from SVG sources (badges/badge-art.ts) into the build.
    badgePictures(),
    react(),
    VitePWA({
      // A new version waits until the learner chooses to reload (features/new-version): an
      // automatic reload in the middle of a lesson would lose what they were typing.
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['favicon.svg'],
      // Each tenant has its own manifest, served by the API at /manifest.webmanifest (issue 12)
      // and linked from index.html; the plugin keeps only the service worker.
      manifest: false,
      workbox: {
        // The app shell: every built script, style and static picture, so a reload works offline.
        globPatterns: ['**/*.{js,css,html,svg,png,ico,webmanifest}'],
        // Badge pictures (~0.6 MB in all) are cached when a screen first shows them, not on sign-in;
        // pdf.js (129 kB gzip) only when a learner first opens a PDF (its viewer loads it then).
        globIgnores: ['static/images/badges/**', 'assets/pdf-*.js'],
        navigateFallback: '/index.html',
        // /preview and /correction come from the network: their response keeps the back office's
        // window.opener (COOP unsafe-none), which a cached copy of index.html would not (the
        // route table's `networkOnly`).
        navigateFallbackDenylist: [/^\/api\//, ...networkOnlyPatterns()],
        cleanupOutdatedCaches: true,
        // The first worker takes the open page at once (offline from the first visit); a later
        // version waits for the learner's reload (registerType 'prompt', no skipWaiting).
        clientsClaim: true,
        runtimeCaching: [
          {
            urlPattern: ({ url }) => url.pathname.startsWith('/static/images/badges/'),
            handler: 'CacheFirst',
            options: {
              cacheName: 'parcours-badges',
              expiration: { maxEntries: 60, maxAgeSeconds: 30 * 24 * 3600 },
              cacheableResponse: { statuses: [200] },
            },
          },
          {
            // Lesson media (decision 0020): the device reads the files of the pages it keeps, and
            // the pages shown offline find them here. Signed URLs change; the file id does not.
            // Cleared when the session ends (lib/session.ts); kept per learner and served only
            // to their session (decision 0045: ownerPlugin, which also drops the signature).
            urlPattern: ({ url }) => url.pathname.startsWith('/api/files/'),
            handler: 'CacheFirst',
            method: 'GET',
            options: {
              cacheName: 'parcours-media',
              expiration: { maxEntries: 300, maxAgeSeconds: 30 * 24 * 3600 },
              cacheableResponse: { statuses: [200] },
              plugins: [ownerPlugin],
            },
          },
          {
            // Only the two reads needed to start offline; Workbox matches GET only by default,
            // so no other /api call (and never a write) goes through a cache. The tenant's
            // context is the same for everyone; users/me is one learner's (decision 0045).
            urlPattern: ({ url }) => url.pathname === '/api/contexts/current',
            handler: 'NetworkFirst',
            method: 'GET',
            options: {
              cacheName: 'parcours-context',
              networkTimeoutSeconds: 6,
              expiration: { maxEntries: 4, maxAgeSeconds: 7 * 24 * 3600 },
              cacheableResponse: { statuses: [200] },
              plugins: [withoutSearchPlugin],
            },
          },
          {
            urlPattern: ({ url }) => url.pathname === '/api/users/me',
            handler: 'NetworkFirst',
            method: 'GET',
            options: {
              cacheName: 'parcours-session',
              networkTimeoutSeconds: 6,
              expiration: { maxEntries: 4, maxAgeSeconds: 7 * 24 * 3600 },
              cacheableResponse: { statuses: [200] },
              plugins: [ownerPlugin],
            },
          },
        ],
      },
    }),
    // Issue 11 (decision 0024): the entry's CSS inlined, and an inline script that starts the first
    // screen's reads and asks for its code and texts while the entry script downloads.
    earlyStart({
      entry: 'src/app/early-start.ts',
      languages: ['fr', 'en'],
      routes: [
        {
          path: pathsOf('/'),
          signedIn: true,
          modules: [
            'src/features/home/components/HomePage.tsx',
            'src/features/contact/components/ContactTeacherAction.tsx',
            'src/app/QueryProvider.tsx',
          ],
        },
        {
          path: pathsOf(LOGIN_PATH),
          signedIn: false,
          modules: ['src/features/auth/components/LoginPage.tsx'],
        },
        {
          path: pathsOf('/session/:id', '/session/:id/page/:pageId'),
          signedIn: true,
          modules: ['src/app/screens/PlayerScreen.tsx', 'src/app/QueryProvider.tsx'],
          // The page's statement is content HTML: DOMPurify where there is no Sanitizer API.
          withoutSanitizer: ['src/lib/sanitize-purify.ts'],
        },
      ],
    }),
    // Last: brotli and gzip copies of everything above, served by the API's static files.
    precompress(),
  ],
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://localhost:3000', changeOrigin: false },
      '/manifest.webmanifest': { target: 'http://localhost:3000', changeOrigin: false },
    },
  },
  build: {
    target: 'es2020',
    // Terser squeezes a few kB more than esbuild out of React, which every first screen loads.
    minify: 'terser',
    terserOptions: { compress: { passes: 2 }, format: { comments: false } },
    // Keeps a report of which chunk each screen needs (scripts/bundle-size.mjs reads it).
    manifest: true,
    rollupOptions: {
      output: {
        onlyExplicitManualChunks: true,
        // The framework (React, React DOM, React Router) is one chunk every screen loads; what
        // the signed-in screens share before their first paint (TanStack Query and the small
        // modules above) is another, so /login loads neither it nor the query library. Without
        // the lists Rollup makes 23 files of the home's first screen instead of 11, a dozen of
        // them under 0.5 kB (decision 0035).
        manualChunks: (id) => {
          if (
            id.includes('/node_modules/@tanstack/react-query/') ||
            id.includes('/node_modules/@tanstack/query-core/')
          )
            return 'signed-in';
          if (
            /\/node_modules\/(react|react-dom|scheduler|react-router)\//.test(id) ||
            id === '\0commonjsHelpers.js'
          )
            return 'react';
          if (SIGNED_IN_SHARED.some((path) => id.endsWith(path))) return 'signed-in';
          if (COMMON.some((path) => id.endsWith(path))) return 'react';
          return undefined;
        },
      },
    },
  },
});
