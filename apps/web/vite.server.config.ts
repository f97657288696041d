import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type PluginOption } from 'vite';
import { preactAlias, preactReactAriaPatches } from './preact-compat';
import { localeSplit } from './vite-locale-split';

/**
 * The sign-in screen's server renderer (src/prerender/sign-in.tsx, decision 0026): one Node module
 * with every dependency bundled (the API imports it from `dist-server/`, beside `dist/`), built
 * with the app's own aliases so it renders the components the browser runs. Styles are left out:
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
    preactReactAriaPatches() as unknown as PluginOption,
    // lib/i18n.ts names the texts' virtual modules; the renderer registers whole catalogues.
    localeSplit(path.resolve(import.meta.dirname, 'src/locales')) as unknown as PluginOption,
    react() as unknown as PluginOption,
    noServiceWorker,
  ],
  resolve: { alias: preactAlias },
  ssr: { noExternal: true, target: 'node' },
  build: {
    ssr: path.resolve(import.meta.dirname, 'src/prerender/sign-in.tsx'),
    outDir: 'dist-server',
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    copyPublicDir: false,
    rollupOptions: { output: { format: 'es', entryFileNames: 'sign-in.js', inlineDynamicImports: true } },
  },
});
