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
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.node },
    },
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Fences between the workspaces: the layout is the architecture.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './domain', from: ['./client', './cloud', './server'], message: 'domain/ imports nothing.' },
            {
              target: './cloud',
              from: './server',
              // The test support (a real site on a real database) serves the tests of every workspace.
              except: ['./src/test-support'],
              message: 'cloud/ never imports server/.',
            },
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
);
