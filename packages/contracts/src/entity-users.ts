import { z } from 'zod';
import { unstorableTextMessage } from './text.ts';
import { tenantIdQueryParam } from './entities.ts';
import { listPageQueryShape, pageSchema, sortQueryParam, type Page } from './pagination.ts';
import { apiRoute } from './api.ts';
import { exportQuerySchema } from './exports.ts';

/** Users of entities, with their keys (spec part 1, sections 2, 3, 5, 7, 8 and 9). */

/** The spec's message when a key deletion lacks the user id or the key name (spec 5). */
export const KEY_DELETION_REQUIRED_MESSAGE = 'User ID and key name are required for key deletion';
/** The spec's messages of a failed key deletion (spec 8). */
export const KEY_DELETION_MESSAGES = {
  forbidden: 'Insufficient privileges to delete keys',
  notFound: 'Key no longer exists',
} as const;

/** Longest user id or key name a deletion may name (far beyond any real one). */
export const KEY_DELETION_PART_MAX_LENGTH = 1000;

/**
 * The problem of a key deletion request, or null when it may be sent (spec 5): both the user id
 * and the key name are needed. A key name is any non-empty text (spaces, slashes, brackets and
 * unicode included), so it is checked as it is, not trimmed.
 */
export function validateKeyDeletion(
  userId: string | null | undefined,
  keyName: string | null | undefined,
): string | null {
  return userId && keyName ? null : KEY_DELETION_REQUIRED_MESSAGE;
}

/** The `{userId}` and `{keyName}` of DELETE api/EntityUser/{userId}/keys/{keyName}, decoded. */
export const entityUserKeyParamsSchema = z
  .object({
    userId: z.string().optional(),
    keyName: z.string().optional(),
  })
  .superRefine((params, ctx) => {
    if (validateKeyDeletion(params.userId, params.keyName)) {
      ctx.addIssue({
        code: 'custom',
        path: [params.userId ? 'keyName' : 'userId'],
        message: KEY_DELETION_REQUIRED_MESSAGE,
      });
      return;
    }
    for (const field of ['userId', 'keyName'] as const) {
      const value = params[field] ?? '';
      if (value.length > KEY_DELETION_PART_MAX_LENGTH) {
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: `${field} must be ${KEY_DELETION_PART_MAX_LENGTH} characters or less`,
        });
      } else {
        const message = unstorableTextMessage(value, field);
        if (message) ctx.addIssue({ code: 'custom', path: [field], message });
      }
    }
  })
  .transform((params) => ({ userId: params.userId ?? '', keyName: params.keyName ?? '' }));
export type EntityUserKeyParams = z.output<typeof entityUserKeyParamsSchema>;

/** Names an entity user goes by (spec 3). */
export const entityUserMetadataSchema = z.object({
  preferredName: z.string().optional(),
  givenName: z.string().optional(),
  familyName: z.string().optional(),
});
export type EntityUserMetadata = z.infer<typeof entityUserMetadataSchema>;

/** One row of GET api/EntityUser. */
export const entityUserSchema = z.object({
  partyUserId: z.string(),
  partyEntityId: z.string(),
  entityName: z.string().describe("The entity's display name (entityName, or its id)"),
  tenantId: z.number().int(),
  type: z.number().int().describe('0 primary, 1 standard, other numbers as they are'),
  state: z.string(),
  email: z.string().nullable(),
  metadata: entityUserMetadataSchema,
  keys: z.record(z.string(), z.string()).describe('Key name to value'),
});
export type EntityUser = z.infer<typeof entityUserSchema>;

export const ENTITY_USER_SORTS = ['partyUserId', '-partyUserId'] as const;
export type EntityUserSort = (typeof ENTITY_USER_SORTS)[number];

/** The filters of GET api/EntityUser, its export's too. */
const entityUserListFilters = {
  tenantId: tenantIdQueryParam,
  sort: sortQueryParam(ENTITY_USER_SORTS),
};

/** Query of GET api/EntityUser?offset&limit[&tenantId][&sort]. */
export const entityUserListQuerySchema = z.object({
  ...listPageQueryShape,
  ...entityUserListFilters,
});

/** Query of GET api/EntityUser/export?format[&tenantId][&sort]. */
export const entityUserExportQuerySchema = exportQuerySchema(entityUserListFilters);
export type EntityUserListQuery = z.output<typeof entityUserListQuerySchema>;

export const entityUserPageSchema = pageSchema(entityUserSchema);
export type EntityUserPage = Page<EntityUser>;

/** How a user's type is shown (spec 3): 0 primary, 1 standard, otherwise the number. */
export function entityUserTypeLabel(type: number): string {
  if (type === 0) return 'primary';
  if (type === 1) return 'standard';
  return String(type);
}

/** Key values are shown whole up to this length (spec 9). */
export const KEY_VALUE_DISPLAY_MAX_LENGTH = 50;

/** A key value as the list shows it (spec 3, 9): above 50 characters, the first 47 and '...'. */
export function displayKeyValue(value: string): string {
  const characters = [...value];
  return characters.length > KEY_VALUE_DISPLAY_MAX_LENGTH
    ? `${characters.slice(0, KEY_VALUE_DISPLAY_MAX_LENGTH - 3).join('')}...`
    : value;
}

/** The entity users calls (method and path; see api.ts). */
export const entityUsersApi = {
  list: apiRoute('GET', '/api/EntityUser'),
  export: apiRoute('GET', '/api/EntityUser/export'),
  /**
   * A key deletion (spec 7); `apiPath` URL-encodes both parts ('/' as %2F, ' ' as %20, ...). A
   * key named exactly '.' or '..' cannot be named in a URL: URL parsers resolve such a segment
   * (even as %2E) as "this" or "parent" folder.
   */
  deleteKey: apiRoute('DELETE', '/api/EntityUser/:userId/keys/:keyName'),
  deleteKeys: apiRoute('DELETE', '/api/EntityUser/:userId/keys'),
} as const;
