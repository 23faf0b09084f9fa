import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

/** The api process (Express) that the dev server forwards tRPC and REST calls to. */
const apiOrigin = 'http://127.0.0.1:3000';

// `npx vite build web` (from the repository root) and `npx vite` (inside web/) both use this
// file, so the root is anchored on this folder rather than on the working directory.
// scripts/build-web.mjs runs the two builds (browser, then the prerenderer's server bundle) and
// the prerender itself (ADR 023).
export default defineConfig(({ isSsrBuild }) => ({
  root: decodeURIComponent(new URL('.', import.meta.url).pathname),
  base: '/',
  plugins: [
    react(),
    // Brotli and gzip siblings of every asset, made once at build time; the server picks one by
    // Accept-Encoding (express-static-gzip). The server bundle is never served, so it is not compressed.
    ...(isSsrBuild ? [] : [compression({ algorithms: ['brotliCompress', 'gzip'], include: /\.(js|css|svg|json)$/, threshold: 0 })]),
  ],
  server: {
    proxy: {
      '/trpc': apiOrigin,
      '/api': apiOrigin,
    },
  },
  build: isSsrBuild
    ? { outDir: 'dist-ssr', emptyOutDir: true, copyPublicDir: false, ssr: 'src/prerender/renderPage.tsx' }
    : {
        outDir: 'dist',
        emptyOutDir: true,
        // dist/.vite/manifest.json maps source modules to chunks: the prerenderer links each
        // page's chunks and styles from it, and scripts/size-check.mjs measures the home page.
        // The server does not serve dot-folders.
        manifest: true,
        // One stylesheet for the whole app (about 6 kB brotli), inlined into every prerendered page by
        // scripts/prerender.mjs: the first paint waits for no CSS request, and a lazily loaded page
        // never brings styles that would arrive after it was drawn (ADR 023).
        cssCodeSplit: false,
      },
}));
