import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  base: '/',
  // The manifest lists the entry's static imports: what the home page loads first (scripts/home-js-size.mjs sums it).
  build: { outDir: 'dist', emptyOutDir: true, manifest: true },
  server: { port: 5173, proxy: { '/api': 'http://localhost:3000', '/oauth': 'http://localhost:3000' } },
});
