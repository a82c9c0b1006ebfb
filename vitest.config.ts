import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const webSrc = fileURLToPath(new URL('./apps/web/src', import.meta.url));

// One Vitest run, several projects: pure logic, the web app in jsdom, and the server suites
// twice, once against embedded PGlite and once against the PostgreSQL server (TEST_DATABASE).
export default defineConfig({
  test: {
    projects: [
      {
        test: { name: 'contracts', include: ['packages/contracts/**/*.test.ts'] },
      },
      {
        plugins: [react()],
        resolve: { alias: { '@': webSrc } },
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['apps/web/src/test/setup.ts'],
        },
      },
      {
        test: {
          name: 'server-pglite',
          include: ['apps/server/**/*.test.ts'],
          env: { TEST_DATABASE: 'pglite' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server-postgres',
          include: ['apps/server/**/*.test.ts'],
          env: { TEST_DATABASE: 'postgres' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
