import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const backend = 'http://localhost:1337';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Read by the benchmark to size each route's first load.
    manifest: true,
    // Every browser the site supports has native modulepreload; no polyfill in the entry.
    modulePreload: { polyfill: false },
    // The admin grid and the date picker are large on purpose-built routes;
    // the home route stays small (checked in the build report).
    chunkSizeWarningLimit: 700,
  },
  server: {
    proxy: {
      '/api': backend,
      '/parse': backend,
    },
  },
  preview: {
    proxy: {
      '/api': backend,
      '/parse': backend,
    },
  },
});
