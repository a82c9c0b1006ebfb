import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { DestinationStream } from 'pino';
import type { AppConfig } from '../config.ts';
import type { DatabaseHandle } from '../db/connection.ts';
import type { Migration } from '../db/migrations/migration.ts';
import type { CatalogueScript } from '../features/database-scripts/catalogue.ts';
import type { ReferenceCache } from './reference-cache.ts';

/**
 * The server's Fastify instance as every module sees it (zod schemas type the routes). It lives
 * here rather than in app.ts so that the modules app.ts registers never import app.ts back.
 */
export type ConsoleApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** What the server is built from: its configuration and the open database. */
export interface AppDependencies {
  config: AppConfig;
  database: DatabaseHandle;
  /** Where the log goes: standard output unless given (tests read the log from here). */
  logStream?: DestinationStream;
  /**
   * The migrations and scripts the Database Migrations and Database Scripts screens work with:
   * this build's own unless given (tests add a failing migration or a slow script).
   */
  maintenance?: { migrations?: readonly Migration[]; scripts?: readonly CatalogueScript[] };
  /**
   * The cached reference lists: this app's own unless given (a test that writes straight into
   * the database expires it, as a write answered by this instance does).
   */
  referenceCache?: ReferenceCache;
}
