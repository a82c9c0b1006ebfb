import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const webSrc = fileURLToPath(new URL('./apps/web/src', import.meta.url));

// One Vitest run, several projects: pure logic, the web app in jsdom, and the server suites
// against PostgreSQL (an embedded cluster the global setup starts, or TEST_DATABASE_URL).
export default defineConfig({
  test: {
    projects: [
      {
        // Property tests draw thousands of inputs: CPU-bound, slow on a loaded 2-core machine.
        test: {
          name: 'contracts',
          include: ['packages/contracts/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
      {
        plugins: [react()],
        resolve: { alias: { '@': webSrc } },
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['apps/web/src/test/setup.ts'],
          // A dialog test types and clicks through user-event in jsdom: seconds of CPU each on a
          // loaded 2-core machine (the CI's size), more than Vitest's 5 s default.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/**/*.test.ts'],
          globalSetup: ['apps/server/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
