import type { EntityUser } from '@console/contracts';

/**
 * The name an entity user is shown by: the preferred name, else given and family name, else the
 * email, else the id (a user with none of these still needs a name in the list).
 */
export function entityUserName(
  user: Pick<EntityUser, 'metadata' | 'email' | 'partyUserId'>,
): string {
  const preferred = user.metadata.preferredName?.trim();
  if (preferred) return preferred;
  const full = [user.metadata.givenName, user.metadata.familyName]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
  if (full) return full;
  return user.email?.trim() || user.partyUserId;
}
