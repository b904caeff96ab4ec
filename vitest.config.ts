import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          sequence: { groupOrder: 0 },
          include: ['domain/src/**/*.test.ts', '{server,cloud}/src/**/*.unit.test.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['server/src/**/*.test.ts', 'cloud/src/**/*.test.ts'],
          exclude: ['**/*.unit.test.ts'],
          globalSetup: ['testing/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
          maxWorkers: 2,
          // Each project runs as its own group, one after the other.
          sequence: { groupOrder: 1 },
        },
      },
      'client/vitest.config.ts',
    ],
  },
});
