import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
// A relative import: the config's bundler takes it in (it leaves packages to Node, which runs no TypeScript).
import { CALLS, type CallSpec } from '../domain/src/api/contract.ts';

const backend = 'http://localhost:1337';

const contractFile = fileURLToPath(new URL('../domain/src/api/contract.ts', import.meta.url));
const pathsFile = fileURLToPath(new URL('../domain/src/api/paths.ts', import.meta.url));

/**
 * The browser needs four fields of each call of the contract table (method, path,
 * where the input goes, and the cloud function the Parse SDK runs); the request and answer schemas, which give the client its
 * types, are for the server and the OpenAPI document. In the browser's build the
 * table is these four fields only: about 7 kB gzip less on every page that calls
 * /api (issue 13, item 19). Type-checking still reads the whole table.
 */
function browserContract(): Plugin {
  // "POST /api/check-email body checkEmail": one string a call, read back when the module loads.
  const calls = Object.fromEntries(
    Object.entries(CALLS as Record<string, CallSpec>).map(([name, spec]) => [
      name,
      `${spec.method} ${spec.path} ${spec.input} ${spec.fn ?? ''}`,
    ]),
  );
  return {
    name: 'browser-contract',
    enforce: 'pre',
    load(id, options) {
      if (options?.ssr || id !== contractFile) return null;
      return [
        `export { pathParamsOf, urlOf } from ${JSON.stringify(pathsFile)};`,
        `export const CALLS = Object.fromEntries(Object.entries(${JSON.stringify(calls)}).map(([name, call]) => {`,
        `  const [method, path, input, fn] = call.split(' ');`,
        `  return [name, { method, path, input, fn: fn || null }];`,
        `}));`,
      ].join('\n');
    },
  };
}

const src = (file: string) => fileURLToPath(new URL(`src/${file}`, import.meta.url));
/** The pages with a form that are pre-rendered, and the MUI layout they sit in. */
const PUBLIC_FORMS = [
  'pages/register/register-page.tsx',
  'pages/student-login/student-login-page.tsx',
  'pages/forgot-password/forgot-password-page.tsx',
  'pages/admin-login/admin-login-page.tsx',
].map(src);
/** The pages drawn without MUI (app/app-routes.tsx, WITHOUT_MUI). */
const WITHOUT_MUI = ['pages/home/home-page.tsx', 'pages/legal/terms-page.tsx', 'pages/legal/privacy-page.tsx'].map(src);

/**
 * The code the registration page shares with the other public forms (MUI's inputs
 * and buttons, Emotion, the form helpers) or with the admin screens (its checkbox),
 * in one chunk instead of a score of small ones: one file compresses better than
 * many and costs one request, about 9 kB gzip less on the registration page's first
 * load (issue 13, item 19). Only what the registration page uses: what the logins
 * alone share (their form, the challenge) would be its weight for nothing. What one
 * page alone uses stays in its own chunk, and nothing the entry or the pages without
 * MUI load is moved: the home page never loads this chunk.
 */
function publicFormsChunk() {
  let shared = new Set<string>();
  let ssr = false;
  const plugin: Plugin = {
    name: 'public-forms-chunk',
    apply: 'build',
    configResolved(config) {
      ssr = Boolean(config.build.ssr);
    },
    buildEnd() {
      if (ssr) return;
      const closure = (id: string, seen = new Set<string>()) => {
        if (seen.has(id)) return seen;
        seen.add(id);
        for (const dep of this.getModuleInfo(id)?.importedIds ?? []) closure(dep, seen);
        return seen;
      };
      // The entry and the pages without MUI (home, the legal texts) load none of it.
      const entry = closure(src('main.tsx'));
      for (const page of WITHOUT_MUI) closure(page, entry);
      const layout = closure(src('app/mui-layout.tsx'));
      const uses = new Map<string, number>();
      for (const page of PUBLIC_FORMS) {
        for (const id of closure(page, new Set(layout))) uses.set(id, (uses.get(id) ?? 0) + 1);
      }
      // The layout keeps its own chunk: it is loaded by its name (app/app-routes.tsx).
      uses.delete(src('app/mui-layout.tsx'));
      // And what it shares with the admin screens (its checkbox, for one).
      const registration = closure(PUBLIC_FORMS[0]!);
      const others = new Set<string>();
      for (const id of this.getModuleIds()) {
        if (/[\\/]pages[\\/].*-page\.tsx$/.test(id) && !PUBLIC_FORMS.includes(id) && !WITHOUT_MUI.includes(id))
          closure(id, others);
      }
      shared = new Set(
        [...uses]
          .filter(([id, count]) => registration.has(id) && (count > 1 || others.has(id)) && !entry.has(id))
          .map(([id]) => id),
      );
    },
  };
  return { plugin, test: (id: string) => shared.has(id) };
}
const formsChunk = publicFormsChunk();

/**
 * React Router's package sends every bundler to its development build, warnings and
 * all (its exports name no production condition: remix-run/react-router#12532,
 * #14753). The site's build takes the production build that ships beside it.
 */
function reactRouterProduction() {
  const development = path.dirname(createRequire(import.meta.url).resolve('react-router'));
  const production = path.join(development, '..', 'production');
  return [
    { find: /^react-router$/, replacement: path.join(production, 'index.mjs') },
    { find: /^react-router\/dom$/, replacement: path.join(production, 'dom-export.mjs') },
  ];
}

export default defineConfig(({ command }) => ({
  plugins: [react(), browserContract(), formsChunk.plugin],
  // The footer's first year (components/footer.tsx): the year the pre-rendered pages say.
  define: { __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()) },
  resolve: { alias: command === 'build' ? reactRouterProduction() : [] },
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
    rolldownOptions: {
      treeshake: {
        // Emotion imports hoist-non-react-statics (and its own copy of react-is 16 beside
        // it, both CommonJS) for withTheme alone, which the site never calls. CommonJS is
        // kept whole unless it is known to be free of side effects, and these are (they
        // only define functions). About 0.9 kB gzip off every page built with MUI,
        // registration's first load among them (its target is 170 kB). A rule, not a
        // function: every other module keeps what its package.json says.
        moduleSideEffects: [{ test: /[\\/]node_modules[\\/]hoist-non-react-statics[\\/]/, sideEffects: false }],
      },
      output: {
        codeSplitting: {
          groups: [
            // Its modules' imports are shared too, or in the entry: nothing more to take in.
            { name: 'forms', test: formsChunk.test, includeDependenciesRecursively: false },
          ],
        },
      },
    },
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
}));
