import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  plugins: [react()],
  // A year long gone: the footer must say the current one all the same (components/footer.tsx).
  define: { __BUILD_YEAR__: '2020' },
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
