import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  plugins: [react()],
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    name: 'client',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    // A computer away from the centre (Asia/Kolkata), whatever zone the machine is in.
    env: { TZ: 'UTC' },
    testTimeout: 60_000,
    sequence: { groupOrder: 2 },
  },
});
