import { KEY_DELETION_MESSAGES } from '@console/contracts';
import { sql, type Kysely } from 'kysely';
import type { AuthenticatedUser } from '../../auth/index.ts';
import type { Database } from '../../db/schema.ts';
import { recordEvent } from '../../outbox/index.ts';
import { HttpError } from '../../http/errors.ts';

/**
 * Every write of entity users: the console only deletes keys (the platform creates the users).
 * Each write runs in one transaction and knows its actor, and records its domain event in that
 * transaction (outbox/outbox.ts), as an event of the user's tenant about the user's entity.
 */

/**
 * DELETE api/EntityUser/{userId}/keys/{keyName}: removes one key from the user's `keys`
 * (`keys - name`) and stamps the row with the caller. 404 'Key no longer exists' when the user
 * has no such key (spec 8), 404 when the user is unknown. The event names the key, never its
 * value: keys are secrets.
 */
export async function deleteEntityUserKey(
  db: Kysely<Database>,
  actor: AuthenticatedUser,
  partyUserId: string,
  keyName: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const user = await trx
      .selectFrom('entity_users')
      .select([
        'tenant_id',
        'party_entity_id',
        'email',
        sql<boolean>`keys ? ${keyName}`.as('has_key'),
        sql<string[]>`array(select jsonb_object_keys(keys) order by 1)`.as('key_names'),
      ])
      .where('party_user_id', '=', partyUserId)
      .forUpdate()
      .executeTakeFirst();
    if (!user) throw new HttpError(404, `Entity user ${partyUserId} not found.`, { partyUserId });
    if (!user.has_key) {
      throw new HttpError(404, KEY_DELETION_MESSAGES.notFound, { partyUserId, keyName });
    }
    await trx
      .updateTable('entity_users')
      .set({
        keys: sql`keys - ${keyName}::text`,
        updated_by: actor.email,
        updated_at: sql<Date>`now()`,
      })
      .where('party_user_id', '=', partyUserId)
      .execute();
    await recordEvent(trx, {
      eventName: 'EntityUserKeyDeleted',
      tenantId: user.tenant_id,
      entityId: user.party_entity_id,
      metadata: {
        actor: actor.email,
        action: 'delete',
        partyUserId,
        keyName,
        target: { type: 'EntityUser', id: partyUserId, name: user.email },
        // The keys' names, never their values: keys are secrets.
        before: { keys: user.key_names },
        after: { keys: user.key_names.filter((name) => name !== keyName) },
      },
    });
  });
}
