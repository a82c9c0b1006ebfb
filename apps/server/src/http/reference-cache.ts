import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../db/schema.ts';
import { listenForNotifications, type NotificationListener } from '../db/notification-listener.ts';

/** The reference lists whose versions migration 8 keeps (one per table). */
export const REFERENCE_LISTS = ['countries', 'document_types', 'forms', 'form_fields'] as const;
export type ReferenceList = (typeof REFERENCE_LISTS)[number];

/** The channel the version trigger notifies, with `name:version` as payload. */
const VERSIONS_CHANNEL = 'reference_versions';

/** Longest a cached body is served without asking the database for its version. */
export const VERSION_CHECK_INTERVAL_MS = 1_000;

interface KnownVersion {
  version: number;
  checkedAt: number;
}

interface CachedBody {
  version: number;
  body: Buffer;
  etag: string;
  /** The body gzipped, made on the first request that accepts it. */
  gzipped?: Promise<Buffer>;
}

const gzipBody = promisify(gzip);

/** What one cached GET answers: a list, the variant of it (one per route), and how to read it. */
export interface CachedRead {
  list: ReferenceList;
  variant: string;
  read(db: Kysely<Database>): Promise<unknown>;
}

/**
 * Reference lists answered from a serialized body kept per variant and keyed by the list's
 * version (docs/architecture.md, "Speed"). The body and its version are read in one snapshot, so
 * a body is never filed under a version it does not show. Which version is current comes from, in
 * this order: a NOTIFY from the writing transaction (any instance), a write answered by this
 * instance (expireAll), or a version read at most once per second per list, so a missed
 * notification leaves a list stale for one second at most.
 */
export class ReferenceCache {
  private readonly known = new Map<ReferenceList, KnownVersion>();
  private readonly checks = new Map<ReferenceList, Promise<number>>();
  private readonly bodies = new Map<string, CachedBody>();
  private readonly builds = new Map<string, Promise<CachedBody>>();
  private listener: NotificationListener | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Follows the versions every instance writes, until close(). */
  listen(connectionString: string, logger: FastifyBaseLogger): void {
    this.listener ??= listenForNotifications({
      connectionString,
      channel: VERSIONS_CHANNEL,
      logger,
      onNotify: (payload) => this.noteNotification(payload),
      // Notifications sent while disconnected are lost: check every version again.
      onConnected: () => this.expireAll(),
    });
  }

  async close(): Promise<void> {
    await this.listener?.close();
    this.listener = undefined;
  }

  /** Every list's version is checked again on its next read (this instance just wrote). */
  expireAll(): void {
    this.known.clear();
  }

  /**
   * Answers the cached body with its ETag, or 304 when the caller already holds that version. A
   * browser gets the body gzipped once per version rather than compressed again on every request.
   * Each variant has ETags of its own, and the answer varies by who asks (a list may be answered
   * to some roles only, or in another shape), so no cache serves one caller's answer to another.
   */
  async reply(request: FastifyRequest, reply: FastifyReply, cached: CachedRead) {
    const version = await this.currentVersion(cached.list);
    const held = this.heldBody(cached, version);
    request.server.metrics?.countReferenceCacheLookup(cached.list, held ? 'hit' : 'miss');
    const body = held ?? (await this.body(cached, version));
    reply
      .header('etag', body.etag)
      .header('cache-control', 'private, no-cache')
      .header('vary', 'authorization, accept-encoding');
    if (matchesEtag(request.headers['if-none-match'], body.etag)) {
      return reply.code(304).send();
    }
    reply.type('application/json; charset=utf-8');
    if (negotiate(request.headers['accept-encoding'] ?? '', ['gzip']) === 'gzip') {
      body.gzipped ??= gzipBody(body.body);
      return reply.header('content-encoding', 'gzip').send(await body.gzipped);
    }
    return reply.send(body.body);
  }

  private noteNotification(payload: string): void {
    const separator = payload.lastIndexOf(':');
    const list = payload.slice(0, separator) as ReferenceList;
    const version = Number(payload.slice(separator + 1));
    if (separator > 0 && Number.isSafeInteger(version)) this.learn(list, version);
  }

  /** Records a version seen in the database now; versions only grow. */
  private learn(list: ReferenceList, version: number): void {
    const known = this.known.get(list);
    this.known.set(list, {
      version: Math.max(version, known?.version ?? 0),
      checkedAt: this.now(),
    });
  }

  private async currentVersion(list: ReferenceList): Promise<number> {
    const known = this.known.get(list);
    if (known && this.now() - known.checkedAt < VERSION_CHECK_INTERVAL_MS) return known.version;
    let check = this.checks.get(list);
    if (!check) {
      check = this.readVersion(this.db, list)
        .then((version) => {
          this.learn(list, version);
          return version;
        })
        .finally(() => this.checks.delete(list));
      this.checks.set(list, check);
    }
    return check;
  }

  private async readVersion(db: Kysely<Database>, list: ReferenceList): Promise<number> {
    const row = await db
      .selectFrom('reference_versions')
      .select('version')
      .where('name', '=', list)
      .executeTakeFirstOrThrow();
    return Number(row.version);
  }

  /** The body of `cached` kept at `version` or later, if any. */
  private heldBody(cached: CachedRead, version: number): CachedBody | undefined {
    const held = this.bodies.get(bodyKey(cached));
    return held && held.version >= version ? held : undefined;
  }

  /** The body of `cached` at `version` or later: built once, whoever asks meanwhile waits for it. */
  private async body(cached: CachedRead, version: number): Promise<CachedBody> {
    const held = this.heldBody(cached, version);
    if (held) return held;
    const key = bodyKey(cached);
    let build = this.builds.get(key);
    if (!build) {
      build = this.build(cached).finally(() => this.builds.delete(key));
      this.builds.set(key, build);
    }
    const built = await build;
    const latest = this.bodies.get(key);
    if (!latest || latest.version < built.version) this.bodies.set(key, built);
    // A build that started before `version` was written: read again (at most once more, since a
    // new build's snapshot sees every version committed before it began).
    return built.version >= version ? built : this.body(cached, version);
  }

  private async build(cached: CachedRead): Promise<CachedBody> {
    return this.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        const version = await this.readVersion(trx, cached.list);
        const body = Buffer.from(JSON.stringify(await cached.read(trx)));
        return { version, body, etag: `W/"${cached.variant}-${version}"` };
      });
  }
}

function bodyKey(cached: CachedRead): string {
  return `${cached.list}/${cached.variant}`;
}

/** If-None-Match holds `etag` (weak comparison, as RFC 9110 asks for GET) or `*`. */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}

/** The OpenAPI entry of a cached list's 304. */
export const notModifiedResponse = {
  304: z.null().describe('Not modified: If-None-Match holds the current ETag'),
};
