import { EXPORT_CONTENT_TYPES, type ApiRoute } from '@console/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { currentUser, holdsRole, type AuthenticatedUser, type Role } from '../auth/index.ts';
import type { ConsoleApp } from '../http/console-app.ts';
import { sendExport, type ListExport } from '../http/export.ts';
import type { JsonText } from '../http/json-text.ts';
import {
  notModifiedResponse,
  type CachedRead,
  type ReferenceCache,
} from '../http/reference-cache.ts';
import { errorResponses } from './errors.ts';

/**
 * What a tenant user reads of a reference list instead of the staff records: the choices of its
 * entities' profile forms (docs/reference-data.md, "Who reads what").
 */
export interface CachedChoices {
  response: z.ZodType;
  variant: string;
  read: CachedRead['read'];
}

/** What a handler is given: the caller and the request's inputs, as their schemas parsed them. */
interface RouteInput<Params, Query, Body> {
  user: AuthenticatedUser;
  params: Params;
  query: Query;
  body: Body;
}

type InputSchema = z.ZodType | undefined;
type Parsed<Schema extends InputSchema> = Schema extends z.ZodType ? z.output<Schema> : undefined;

/** A route's OpenAPI entry and its request schemas (from contracts). */
interface RouteSchemas<
  Params extends InputSchema,
  Query extends InputSchema,
  Body extends InputSchema,
> {
  summary: string;
  /** The roles allowed, when they are not the feature's (deletes that only admins may make). */
  allow?: readonly Role[];
  params?: Params;
  querystring?: Query;
  body?: Body;
  /** The failures particular to the route; 401 and 403 (guard) and 400 (any input) go without saying. */
  errors?: readonly number[];
  /** Left out of the OpenAPI document. */
  hide?: boolean;
  /** Largest body the route reads, when it is not the app's (bulk imports). */
  bodyLimit?: number;
  /** The handler checks every text of the body it stores (http/input.ts). */
  bodyTextChecked?: boolean;
  /** The media types of its answer, when it is not JSON (a file). */
  produces?: readonly string[];
}

/** A route's schemas and its handler, which calls the one function that does the work. */
type RouteSpec<
  P extends InputSchema,
  Q extends InputSchema,
  B extends InputSchema,
  Result,
> = RouteSchemas<P, Q, B> & {
  handle(input: RouteInput<Parsed<P>, Parsed<Q>, Parsed<B>>): Promise<Result>;
};

const deletedResponse = z.null().describe('Deleted');
const exportedFile = z
  .string()
  .describe('The file: CSV (RFC 4180, UTF-8 with BOM) or xlsx, as an attachment');

/**
 * Registers the routes of one feature from its contract's calls (`tenantsApi.create`, ...) with
 * the conventions every feature follows: its OpenAPI tag, the roles it allows, 200 with the
 * answer, 201 with what was created, 204 for a delete, and the error statuses that come with the
 * guard and with validated input.
 */
export function featureRoutes(
  app: ConsoleApp,
  feature: { tags: string[]; allow: readonly Role[] },
) {
  function register(
    api: ApiRoute,
    schemas: RouteSchemas<InputSchema, InputSchema, InputSchema>,
    success: Record<number, z.ZodType>,
    handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  ): void {
    const {
      summary,
      allow = feature.allow,
      errors = [],
      params,
      querystring,
      body,
      hide,
      bodyLimit,
      bodyTextChecked,
      produces,
    } = schemas;
    const statuses = [...(params || querystring || body ? [400] : []), 401, 403, ...errors];
    app.route({
      method: api.method,
      url: api.path,
      config: { allow, ...(bodyTextChecked ? { bodyTextChecked } : {}) },
      ...(bodyLimit ? { bodyLimit } : {}),
      schema: {
        tags: feature.tags,
        summary,
        ...(hide ? { hide } : {}),
        ...(produces ? { produces } : {}),
        ...(params ? { params } : {}),
        ...(querystring ? { querystring } : {}),
        ...(body ? { body } : {}),
        response: { ...success, ...errorResponses(...statuses) },
      },
      handler,
    });
  }

  // The schemas validated the request before the handler runs: its inputs are their outputs.
  const inputOf = <P extends InputSchema, Q extends InputSchema, B extends InputSchema>(
    request: FastifyRequest,
  ) =>
    ({
      user: currentUser(request),
      params: request.params,
      query: request.query,
      body: request.body,
    }) as RouteInput<Parsed<P>, Parsed<Q>, Parsed<B>>;

  /** A route that answers `status` with what its handler returns, in the schema `response`. */
  const answering =
    (status: 200 | 201) =>
    <
      R extends z.ZodType,
      P extends InputSchema = undefined,
      Q extends InputSchema = undefined,
      B extends InputSchema = undefined,
    >(
      api: ApiRoute,
      spec: RouteSpec<P, Q, B, z.input<R>> & { response: R },
    ) => {
      register(api, spec, { [status]: spec.response }, async (request, reply) =>
        reply.code(status).send(await spec.handle(inputOf<P, Q, B>(request))),
      );
    };

  return {
    /** 200 with what the handler answers. */
    answer: answering(200),
    /** 201 with what the handler created. */
    create: answering(201),

    /**
     * 200 with JSON the handler has as text already (http/json-text.ts), sent as it is: neither
     * parsed nor checked against `response`, which still describes the route in OpenAPI; the
     * route's tests check its answers against it. Sent as bytes: Node joins a string body to the
     * headers' text and copies the whole again to encode it, about 15% of the server's CPU time
     * per page of entity users (42 KB).
     */
    answerJsonText<
      R extends z.ZodType,
      P extends InputSchema = undefined,
      Q extends InputSchema = undefined,
      B extends InputSchema = undefined,
    >(api: ApiRoute, spec: RouteSpec<P, Q, B, JsonText<z.input<R>>> & { response: R }) {
      register(api, spec, { 200: spec.response }, async (request, reply) => {
        const answer = await spec.handle(inputOf<P, Q, B>(request));
        return reply
          .code(200)
          .type('application/json; charset=utf-8')
          .send(Buffer.from(answer.text));
      });
    },

    /** 204 once the handler deleted. */
    delete<
      P extends InputSchema = undefined,
      Q extends InputSchema = undefined,
      B extends InputSchema = undefined,
    >(api: ApiRoute, spec: RouteSpec<P, Q, B, void>) {
      register(api, spec, { 204: deletedResponse }, async (request, reply) => {
        await spec.handle(inputOf<P, Q, B>(request));
        return reply.code(204).send(null);
      });
    },

    /**
     * GET {list}/export (issue 31): the whole list as a CSV or xlsx file, streamed from a cursor
     * (http/export.ts). The handler answers the list's own query under the request's filters,
     * parsed by the list's own schema and scoped to the caller as the list is; the route admits
     * the list's roles.
     */
    export<Q extends InputSchema = undefined, Row = unknown>(
      api: ApiRoute,
      spec: RouteSchemas<undefined, Q, undefined> & {
        handle(
          input: RouteInput<undefined, Parsed<Q>, undefined>,
        ): ListExport<Row> | Promise<ListExport<Row>>;
      },
    ) {
      register(
        api,
        {
          ...spec,
          produces: Object.values(EXPORT_CONTENT_TYPES),
          // 503: too many exports at once (http/export.ts).
          errors: [...(spec.errors ?? []), 503],
        },
        { 200: exportedFile },
        async (request, reply) =>
          sendExport(reply, await spec.handle(inputOf<undefined, Q, undefined>(request))),
      );
    },

    /**
     * A reference list answered from `cache` (http/reference-cache.ts), 304 included. With
     * `choices`, tenant users may read it too and get those instead; a caller who is staff (a
     * person may be both) gets the staff records.
     */
    cachedList(
      api: ApiRoute,
      spec: CachedRead & {
        summary: string;
        response: z.ZodType;
        cache: ReferenceCache;
        choices?: CachedChoices;
      },
    ) {
      const { choices } = spec;
      register(
        api,
        {
          summary: spec.summary,
          ...(choices ? { allow: [...feature.allow, 'tenant'] } : {}),
        },
        {
          200: choices ? z.union([spec.response, choices.response]) : spec.response,
          ...notModifiedResponse,
        },
        async (request, reply) => {
          const staff = holdsRole(currentUser(request).roles, 'staff');
          const read = choices && !staff ? { ...choices, list: spec.list } : spec;
          return spec.cache.reply(request, reply, read);
        },
      );
    },
  };
}

/** The registrars featureRoutes answers, for helpers that register several calls of a feature. */
export type FeatureRoutes = ReturnType<typeof featureRoutes>;
