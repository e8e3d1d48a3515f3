import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { messages } from './src/i18n';
import { frameMessages } from './src/i18n/frame';

/** The frame's phrases (src/i18n/frame.ts) as a module of their own, picked from the catalog at build time. */
function frameMessagesModule(): Plugin {
  const id = 'virtual:console-frame-messages';
  return {
    name: 'console-frame-messages',
    resolveId: (source) => (source === id ? `\0${id}` : undefined),
    load: (source) => (source === `\0${id}` ? `export default ${JSON.stringify(frameMessages(messages))};` : undefined),
  };
}

export default defineConfig({
  plugins: [react(), frameMessagesModule()],
  resolve: {
    alias: { 'object.entries': fileURLToPath(new URL('./src/native/object-entries.cjs', import.meta.url)) },
  },
  base: '/admin/',
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  server: { port: 5174, proxy: { '/api': 'http://localhost:3000' } },
});
