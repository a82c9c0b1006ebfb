import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { sessionApi } from '@console/contracts';
import type { DestinationStream } from 'pino';
import { z } from 'zod';
import { registerAuth } from './auth/index.ts';
import type { AppConfig } from './config.ts';
import { isDatabaseReachable } from './db/connection.ts';
import { databaseErrorCode, isDatabaseUnavailable } from './db/errors.ts';
import { registerEventServices } from './outbox/index.ts';
import { registerFeatures } from './features/index.ts';
import type { AppDependencies, ConsoleApp } from './http/console-app.ts';
import { HttpError } from './http/errors.ts';
import { registerInputRules } from './http/input.ts';
import { registerLifecycle } from './http/lifecycle.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { isClientDisconnect, loggerOptions, RequestLog } from './http/logging.ts';
import { registerMetrics } from './observability/metrics-routes.ts';
import { pathOf } from './observability/routes.ts';

/** Largest JSON body accepted (imports of the full country list are ~30 kB; 10,000 document types ~3 MB). */
export const BODY_LIMIT_BYTES = 5 * 1024 * 1024;

/** What a 503 tells clients to wait when the database is down or saturated. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

const defaultWebDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

function createFastify(config: AppConfig, logStream?: DestinationStream): ConsoleApp {
  const options: FastifyServerOptions = {
    logger: loggerOptions(config, logStream),
    logController: new RequestLog(),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy:
      typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    routerOptions: {
      caseSensitive: false,
      ignoreTrailingSlash: true,
      // Above every path parameter's own limit (a form name's is 100 characters, the router's
      // default), so that a value one character too long gets its route's 400 naming the field,
      // not a bare 414; longer than this is still 414.
      maxParamLength: 1_000,
    },
    // The spec's fallback API base is the relative '/api', and its calls carry their own 'api/'
    // or 'svc/' prefix: accept '/api/api/...' and '/api/svc/...' as the same routes.
    rewriteUrl: (req) => (req.url ?? '/').replace(/^\/api\/(api|svc)\//i, '/$1/'),
  };
  return Fastify(options).withTypeProvider<ZodTypeProvider>();
}

/** Fastify's typings omit the hop count that proxy-addr supports: say it as a trust function. */
function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

/** Builds the whole server from a config and open resources; no side effects on import. */
export async function buildApp(deps: AppDependencies): Promise<ConsoleApp> {
  const { config, database } = deps;
  const app = createFastify(config, deps.logStream);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);
  registerInputRules(app);
  const lifecycle = registerLifecycle(app);
  registerMetrics(app, deps);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  registerSecurityHeaders(app, config);
  await app.register(fastifyCompress, { threshold: 1024 });
  await app.register(fastifyCookie);

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Administration console API', version: '1.0.0' },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs/api', staticCSP: false });
  // Before every other route: the /api and /svc guard applies to routes registered after it.
  await registerAuth(app, { config, database });
  await registerFeatures(app, deps);
  // Event workers start when the app is ready and stop when it closes; in development the SMTP
  // catcher and its /api/dev/mail routes come with them (docs/events.md).
  await registerEventServices(app, deps);

  app.get(
    '/healthz',
    { schema: { hide: true, response: { 200: z.object({ status: z.literal('ok') }) } } },
    async () => ({ status: 'ok' as const }),
  );
  app.get(
    '/readyz',
    {
      schema: {
        hide: true,
        response: {
          200: z.object({ status: z.literal('ready') }),
          503: z.object({ status: z.enum(['unavailable', 'stopping']) }),
        },
      },
    },
    async (_request, reply) => {
      if (lifecycle.stopping) return reply.code(503).send({ status: 'stopping' as const });
      if (await isDatabaseReachable(database.db)) return { status: 'ready' as const };
      return reply
        .code(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
        .send({ status: 'unavailable' as const });
    },
  );
  app.get(
    sessionApi.appConfig.path,
    { schema: { hide: true, response: { 200: z.object({ apiBaseUrl: z.string() }) } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { apiBaseUrl: config.publicUrl };
    },
  );

  await registerSpa(app, config.webDistDir ?? defaultWebDist);
  return app;
}

/** Serves the built SPA with a history fallback: unknown GETs that want HTML get index.html. */
async function registerSpa(app: ConsoleApp, webDist: string): Promise<void> {
  const hasBuild = existsSync(path.join(webDist, 'index.html'));
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      // Source maps are not shipped; should one be in the directory, it is not served either.
      allowedPath: (pathName) => !pathName.endsWith('.map'),
      // Our setHeaders decides caching; the plugin's own max-age=0 would override it.
      cacheControl: false,
      setHeaders: (res, filePath) => {
        res.setHeader(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const isApi = /^\/(api|svc|auth)(\/|$)/i.test(request.url);
    const wantsHtml =
      request.method === 'GET' && (request.headers.accept ?? '').includes('text/html');
    if (!isApi && wantsHtml && hasBuild) {
      reply.header('cache-control', 'no-cache');
      return reply.sendFile('index.html', { cacheControl: false });
    }
    return reply
      .code(404)
      .send({ message: `Route ${request.method} ${pathOf(request.url)} not found` });
  });
}

function errorHandler(
  this: FastifyInstance,
  error: unknown,
  request: Parameters<Parameters<FastifyInstance['setErrorHandler']>[0]>[1],
  reply: Parameters<Parameters<FastifyInstance['setErrorHandler']>[0]>[2],
) {
  if (isClientDisconnect(error)) {
    // The client went away (a page left, a timeout): nobody is left to answer, nothing failed.
    request.log.debug({ reason: (error as Error).message }, 'Client closed the connection');
    return reply.code(400).send({ message: 'The client closed the connection' });
  }
  if (error instanceof HttpError) {
    return reply.code(error.statusCode).send({ message: error.message, ...error.details });
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const errors = error.validation.map((issue) => ({
      path: issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || error.validationContext,
      message: issue.message,
    }));
    return reply.code(400).send({
      message: `Invalid ${error.validationContext ?? 'request'}: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}`,
      errors,
    });
  }
  const statusCode = (error as { statusCode?: number }).statusCode;
  if (statusCode && statusCode >= 400 && statusCode < 500) {
    // Fastify's own client errors: malformed JSON, body too large, unsupported media type.
    return reply.code(statusCode).send({ message: (error as Error).message });
  }
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ code: databaseErrorCode(error) }, 'Database unavailable');
    return reply
      .code(503)
      .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
      .send({ message: 'The database is not available right now. Please try again shortly.' });
  }
  request.log.error({ err: error }, 'Unhandled error');
  return reply.code(500).send({ message: 'Internal server error', requestId: request.id });
}
