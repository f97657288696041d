import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type PluginOption } from 'vite';
import { localeSplit } from './vite-locale-split';

/**
 * The server renderer (src/prerender/server.ts: the sign-in screen, decision 0026, and the signed-in
 * first screens, decision 0046): a Node module
 * and its lazy chunks, every dependency bundled (the API imports it from `dist-server/`, beside `dist/`), built
 * from the same components the browser runs, with React DOM's server renderer. Styles are left out:
 * the API inlines the built sign-in stylesheets it finds in `dist/`.
 */
/** The service worker's registration is never run on the server (lib/service-worker.ts). */
const noServiceWorker: PluginOption = {
  name: 'parcours-no-service-worker',
  resolveId: (id) => (id === 'virtual:pwa-register' ? '\0no-pwa-register' : null),
  load: (id) =>
    id === '\0no-pwa-register' ? 'export function registerSW() { return () => undefined; }' : null,
};

export default defineConfig({
  plugins: [
    // lib/i18n.ts names the texts' virtual modules; the renderer registers whole catalogues.
    localeSplit(path.resolve(import.meta.dirname, 'src/locales')),
    react(),
    noServiceWorker,
  ],
  ssr: { noExternal: true, target: 'node' },
  build: {
    ssr: path.resolve(import.meta.dirname, 'src/prerender/server.ts'),
    outDir: 'dist-server',
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    copyPublicDir: false,
    // The screens stay lazy chunks, as in the browser: only what the rendered route imports is
    // loaded (a screen's libraries, such as pdf.js, expect a browser when they load).
    rollupOptions: {
      output: { format: 'es', entryFileNames: 'server.js', chunkFileNames: 'chunks/[name]-[hash].js' },
    },
  },
});
