import { createHash, randomBytes } from 'node:crypto';
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../config.ts';
import type { Database } from '../db/schema.ts';

export const SESSION_COOKIE = 'console_session';

/** Who a session belongs to. Roles are not stored: they are resolved again for every token. */
export interface SessionUser {
  subject: string;
  email: string;
  name: string;
}

/**
 * Server-side sessions (`sessions` table). The browser holds a random value in an HttpOnly
 * cookie; the table holds only its sha-256, so a copy of the table opens no session.
 */
export class Sessions {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly config: Pick<AppConfig, 'sessionTtlSeconds' | 'cookieSecure'>,
  ) {}

  /** Starts a session and returns the cookie value to hand to the browser. */
  async create(user: SessionUser): Promise<string> {
    const cookieValue = randomBytes(32).toString('base64url');
    await this.db
      .insertInto('sessions')
      .values({
        id_hash: hashCookieValue(cookieValue),
        user_subject: user.subject,
        user_email: user.email,
        user_name: user.name,
        expires_at: new Date(Date.now() + this.config.sessionTtlSeconds * 1000),
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
