import helmet from 'helmet';
import type { AppConfig } from '../config.ts';
import type { ConsoleApp } from './console-app.ts';

/**
 * The security headers of every answer (helmet): a strict Content-Security-Policy (no inline
 * script) and helmet's other defaults. helmet's middleware is built once here: the Fastify plugin
 * builds it again for every request, parsing the policy each time, which cost more than serving a
 * cached reference list.
 */
export function registerSecurityHeaders(app: ConsoleApp, config: AppConfig): void {
  const setHeaders = helmet({
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
  });
  app.addHook('onRequest', (request, reply, done) => {
    // helmet only sets headers; it calls back with no error.
    setHeaders(request.raw, reply.raw, () => done());
  });
}
