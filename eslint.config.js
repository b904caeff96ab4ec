import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// Pages never import each other: each page folder is a zone closed to the others.
const pages = readdirSync(new URL('./client/src/pages', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const pageZones = pages.map((page) => ({
  target: `./client/src/pages/${page}`,
  from: './client/src/pages',
  except: [`./${page}`],
  message: 'Pages do not import each other: move what they share to components/ or lib/.',
}));

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/dist-server/**',
      '.data/**',
      '.scratch/**',
      'test-results/**',
      'playwright-report/**',
      'eslint.config.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Fences between the workspaces: the layout is the architecture.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './domain',
              from: ['./client', './cloud', './server', './testing'],
              message: 'domain/ imports nothing.',
            },
            { target: './cloud', from: './server', message: 'cloud/ never imports server/.' },
            { target: './cloud', from: './client', message: 'cloud/ never imports client/.' },
            { target: './client', from: ['./server', './cloud'], message: 'client/ imports only domain/.' },
            ...pageZones,
          ],
        },
      ],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
    settings: { 'import-x/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } } },
  },
  {
    // Plain JavaScript (scripts/*.mjs) is in no TypeScript project.
    files: ['**/*.{js,mjs,cjs}'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['client/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['domain/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['react*', 'express*', 'parse*', '@tc/*', '../../*'] }],
    },
  },
  {
    files: ['client/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@tc/cloud*', '@tc/server*'], message: 'client/ imports only @tc/domain.' }] },
      ],
    },
  },
  {
    files: ['cloud/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@tc/server*', '@tc/client*'], message: 'cloud/ never imports server/.' }] },
      ],
    },
  },
  {
    // Parse answers no more than its maxLimit (LIST_MAX_LIMIT, 500) to one read, without a
    // word: a read that asks for more gets 500 and believes it has them all. The rule sees a
    // number written in the call only; a read with no limit gets Parse's default of 100.
    files: ['cloud/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='limit'][arguments.0.value>500]",
          message:
            'Parse answers at most LIST_MAX_LIMIT (500) rows to one read: ask for LIST_MAX_LIMIT, or read in batches (findAll, each).',
        },
      ],
    },
  },
  {
    // The test support (testing/: a real site, captures, student factories) serves the
    // tests of every workspace, e2e and the bench, and never the code that ships.
    files: ['{domain,cloud,server,client}/src/**/*.{ts,tsx}'],
    ignores: [
      '**/*.test.{ts,tsx}',
      'client/src/test/**',
      // `npm run chaos`: a development tool that drives the site as the tests do; not shipped.
      'server/src/scripts/chaos.ts',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/testing/*'], message: 'Only tests import the test support (testing/).' }] },
      ],
    },
  },
  {
    // Tests read the site's JSON answers through untyped helpers (TestSite.api, apiCall):
    // typing every answer from the contract table is still to do, so here only.
    files: ['**/*.test.{ts,tsx}', 'e2e/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Express 5 awaits a handler's promise and passes a rejection to next(); its typings
    // (@types/express 4) still declare handlers as returning void.
    files: ['server/src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { arguments: false, properties: false, returns: false, variables: false } },
      ],
    },
  },
);
