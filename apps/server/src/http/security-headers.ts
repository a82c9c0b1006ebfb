import helmet from 'helmet';
import type { AppConfig } from '../config.ts';
import type { ConsoleApp } from './console-app.ts';

/**
 * The security headers of every answer (helmet): a strict Content-Security-Policy (no inline
 * script) and helmet's other defaults. None of them depends on the request, so helmet runs once,
 * here, and every answer gets the headers it set: its middleware, run per request, wrote the
 * policy again each time (and the Fastify plugin also parsed it again), which cost more than
 * serving a cached reference list.
 */
export function registerSecurityHeaders(app: ConsoleApp, config: AppConfig): void {
  const headers = headersSetBy(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          // React and Radix set element styles from script; sonner adds its stylesheet at run time.
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:'],
          fontSrc: ["'self'"],
          connectSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          frameAncestors: ["'none'"],
          formAction: [
            "'self'",
            ...(config.oidc.kind === 'external' ? [new URL(config.oidc.issuer).origin] : []),
          ],
          upgradeInsecureRequests: config.publicUrl.startsWith('https://') ? [] : null,
        },
      },
      // Cross-origin isolation headers would block the identity provider's redirects.
      crossOriginEmbedderPolicy: false,
    }),
  );
  const entries = Object.entries(headers);
  app.addHook('onRequest', (_request, reply, done) => {
    // On the raw answer, as helmet sets them: the sign-in provider writes its answers itself.
    for (const [name, value] of entries) reply.raw.setHeader(name, value);
    done();
  });
}

type Middleware = ReturnType<typeof helmet>;

/** The headers `middleware` sets on an answer (helmet only sets or removes headers). */
function headersSetBy(middleware: Middleware): Record<string, string> {
  const headers: Record<string, string> = {};
  const answer = {
    setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = value),
    removeHeader: (name: string) => delete headers[name.toLowerCase()],
  };
  middleware(
    {} as Parameters<Middleware>[0],
    answer as unknown as Parameters<Middleware>[1],
    (error?: unknown) => {
      if (error) throw error;
    },
  );
  return headers;
}
