import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// In development the Vite server (port 5173) proxies every server route to the console server,
// so sign-in cookies and API calls behave as in production on one origin.
const serverUrl = process.env.CONSOLE_SERVER_URL ?? 'http://localhost:3000';
const serverRoutes = [
  '/api',
  '/svc',
  '/auth',
  '/app-config',
  '/authenticated',
  '/signout',
  '/oidc',
  '/interaction',
  '/docs/api',
  '/healthz',
  '/readyz',
];

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: {
    port: 5173,
    proxy: Object.fromEntries(serverRoutes.map((route) => [route, { target: serverUrl }])),
  },
  // No source maps in the shipped build: they would expose the sources and weigh megabytes.
  build: { outDir: 'dist', sourcemap: false, chunkSizeWarningLimit: 600 },
});
