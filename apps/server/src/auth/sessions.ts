import { createHash, randomBytes } from 'node:crypto';
import type { CookieSerializeOptions } from '@fastify/cookie';
import { sql, type Kysely } from 'kysely';
import type { AppConfig } from '../config.ts';
import type { Database } from '../db/schema.ts';

export const SESSION_COOKIE = 'console_session';

/** Who a session belongs to. Roles are not stored: they are resolved again for every token. */
export interface SessionUser {
  subject: string;
  email: string;
  name: string;
}

/** A session that sign-out ended: whose it was, and the ID token to hint at the provider. */
export interface EndedSession {
  user: SessionUser;
  idTokenHint: string | undefined;
}

/**
 * Server-side sessions (`sessions` table). The browser holds a random value in an HttpOnly
 * cookie; the table holds only its sha-256, so a copy of the table opens no session. Each row
 * also keeps the ID token of its sign-in, for sign-out's `id_token_hint`, from migration 24 on:
 * an admin signs in to apply the migrations, so sessions work on a database before it too.
 */
export class Sessions {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly config: Pick<AppConfig, 'sessionTtlSeconds' | 'cookieSecure'>,
  ) {}

  /** Starts a session and returns the cookie value to hand to the browser. */
  async create(user: SessionUser, idTokenHint?: string): Promise<string> {
    const cookieValue = randomBytes(32).toString('base64url');
    const keepsHint = idTokenHint !== undefined && (await this.keepsLogoutHints());
    await this.db
      .insertInto('sessions')
      .values({
        id_hash: hashCookieValue(cookieValue),
        user_subject: user.subject,
        user_email: user.email,
        user_name: user.name,
        expires_at: new Date(Date.now() + this.config.sessionTtlSeconds * 1000),
        ...(keepsHint ? { id_token_hint: idTokenHint } : {}),
      })
      .execute();
    return cookieValue;
  }

  /** The session's user, or undefined when the cookie is unknown or the session has expired. */
  async find(cookieValue: string | undefined): Promise<SessionUser | undefined> {
    if (!cookieValue) return undefined;
    const row = await this.db
      .selectFrom('sessions')
      .select(['user_subject', 'user_email', 'user_name'])
      .where('id_hash', '=', hashCookieValue(cookieValue))
      .where('expires_at', '>', new Date())
      .executeTakeFirst();
    return row && { subject: row.user_subject, email: row.user_email, name: row.user_name };
  }

  /**
   * Sign-out: deletes the session's row; answers its user and logout hint when it had not
   * expired yet.
   */
  async end(cookieValue: string | undefined): Promise<EndedSession | undefined> {
    if (!cookieValue) return undefined;
    const keepsHints = await this.keepsLogoutHints();
    const row = await this.db
      .deleteFrom('sessions')
      .where('id_hash', '=', hashCookieValue(cookieValue))
      .returning(['user_subject', 'user_email', 'user_name', 'expires_at'])
      .$if(keepsHints, (query) => query.returning('id_token_hint'))
      .executeTakeFirst();
    if (!row || row.expires_at <= new Date()) return undefined;
    return {
      user: { subject: row.user_subject, email: row.user_email, name: row.user_name },
      idTokenHint: row.id_token_hint ?? undefined,
    };
  }

  async delete(cookieValue: string | undefined): Promise<void> {
    if (!cookieValue) return;
    await this.db
      .deleteFrom('sessions')
      .where('id_hash', '=', hashCookieValue(cookieValue))
      .execute();
  }

  async deleteExpired(): Promise<void> {
    await this.db.deleteFrom('sessions').where('expires_at', '<=', new Date()).execute();
  }

  /**
   * Whether the table has migration 24's column. Asked at every sign-in and sign-out (both
   * rare and rate-limited) rather than once, so that applying the migration needs no restart.
   */
  private async keepsLogoutHints(): Promise<boolean> {
    const { rows } = await sql<{ found: boolean }>`
      select exists (
        select from pg_attribute
        where attrelid = to_regclass('sessions') and attname = 'id_token_hint' and not attisdropped
      ) as found
    `.execute(this.db);
    return rows[0]?.found === true;
  }

  cookieOptions(): CookieSerializeOptions {
    return {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      secure: this.config.cookieSecure,
      maxAge: this.config.sessionTtlSeconds,
    };
  }
}

export function hashCookieValue(cookieValue: string): string {
  return createHash('sha256').update(cookieValue).digest('hex');
}
