import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The api process (Express) that the dev server forwards tRPC and REST calls to. */
const apiOrigin = 'http://127.0.0.1:3000';

// `npx vite build web` (from the repository root) and `npx vite` (inside web/) both use this
// file, so the root is anchored on this folder rather than on the working directory.
export default defineConfig({
  root: decodeURIComponent(new URL('.', import.meta.url).pathname),
  base: '/',
  plugins: [react()],
  server: {
    proxy: {
      '/trpc': apiOrigin,
      '/api': apiOrigin,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json lets scripts/size-check.mjs measure the home page's initial JS;
    // the server does not serve dot-folders.
    manifest: true,
  },
});
