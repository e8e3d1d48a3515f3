import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** Where the server's render of the public pages is built: hidden inside dist, so it is never served as a file. */
export const SSR_OUT_DIR = 'dist/.server';

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react()],
  base: '/',
  build: isSsrBuild
    ? // vite build --ssr src/entry-server.tsx: React and wouter stay imports from node_modules.
      { outDir: SSR_OUT_DIR, emptyOutDir: true }
    : // The manifest lists each entry's and page chunk's static imports: what a page loads first (the server
      // preloads the page's chunk with it; scripts/home-js-size.mjs sums the home page's).
      { outDir: 'dist', emptyOutDir: true, manifest: true },
  server: { port: 5173, proxy: { '/api': 'http://localhost:3000', '/oauth': 'http://localhost:3000' } },
}));
