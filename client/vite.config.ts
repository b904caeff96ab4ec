import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
// A relative import: the config's bundler takes it in (it leaves packages to Node, which runs no TypeScript).
import { CALLS, type CallSpec } from '../domain/src/api/contract.ts';

const backend = 'http://localhost:1337';

const contractFile = fileURLToPath(new URL('../domain/src/api/contract.ts', import.meta.url));
const pathsFile = fileURLToPath(new URL('../domain/src/api/paths.ts', import.meta.url));

/**
 * The browser needs three fields of each call of the contract table (method, path,
 * where the input goes); the request and answer schemas, which give the client its
 * types, are for the server and the OpenAPI document. In the browser's build the
 * table is these three fields only: about 7 kB gzip less on every page that calls
 * /api (issue 13, item 19). Type-checking still reads the whole table.
 */
function browserContract(): Plugin {
  const calls = Object.fromEntries(
    Object.entries(CALLS as Record<string, CallSpec>).map(([name, { method, path, input }]) => [
      name,
      { method, path, input },
    ]),
  );
  return {
    name: 'browser-contract',
    enforce: 'pre',
    load(id, options) {
      if (options?.ssr || id !== contractFile) return null;
      return `export { pathParamsOf, urlOf } from ${JSON.stringify(pathsFile)};\nexport const CALLS = ${JSON.stringify(calls)};\n`;
    },
  };
}

export default defineConfig({
  plugins: [react(), browserContract()],
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
