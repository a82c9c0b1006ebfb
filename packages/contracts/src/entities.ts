import { z } from 'zod';
import {
  listPageQueryShape,
  pageSchema,
  sortQueryParam,
  wholeNumberQueryParam,
} from './pagination.ts';
import type { Page } from './pagination.ts';
import { DATABASE_ID_MAX } from './tenants.ts';
import { apiRoute } from './api.ts';
import { exportQuerySchema } from './exports.ts';

/**
 * Entities of the tenant portal (spec part 1, sections 2, 3 and 7).
 */

// ---------------------------------------------------------------------------------------------
// The tenant filter of the portal's lists (entities, entity users); their paging is in
// pagination.ts.

/** `tenantId` of a list call: only that tenant's rows (a tenant user may only name its own). */
export const tenantIdQueryParam = wholeNumberQueryParam('tenantId', 1, DATABASE_ID_MAX).describe(
  "Only this tenant's rows",
);

// ---------------------------------------------------------------------------------------------
// Entities.

/** The `names` of an entity: a map of names, `entityName` among them (spec 3). */
export const entityNamesSchema = z.object({
  names: z.object({ entityName: z.string().optional() }).catchall(z.string()),
});
export type EntityNames = z.infer<typeof entityNamesSchema>;

/**
 * The name an entity is shown by (spec 2: "the name ... shown are derived"): its entityName,
 * trimmed, or its id when it has none.
 */
export function entityDisplayName(entity: {
  partyEntityId: string;
  names?: { names?: { entityName?: string | undefined } | undefined } | null | undefined;
}): string {
  const name = entity.names?.names?.entityName;
  return typeof name === 'string' && name.trim() ? name.trim() : entity.partyEntityId;
}

/** One row of GET api/Entity. */
export const entitySchema = z.object({
  partyEntityId: z.string(),
  tenantId: z.number().int(),
  tenantName: z.string().describe("The tenant's company name"),
  names: entityNamesSchema,
  country: z.string().nullable().describe('ISO 3166-1 alpha-2 code, or null when not recorded'),
  displayName: z.string().describe('entityName, or the id when the entity has no name'),
});
export type Entity = z.infer<typeof entitySchema>;

export const ENTITY_SORTS = ['partyEntityId', '-partyEntityId'] as const;
export type EntitySort = (typeof ENTITY_SORTS)[number];

/** The filters of GET api/Entity, its export's too. */
const entityListFilters = {
  tenantId: tenantIdQueryParam,
  sort: sortQueryParam(ENTITY_SORTS),
};

/** Query of GET api/Entity?offset&limit[&tenantId][&sort]. */
export const entityListQuerySchema = z.object({ ...listPageQueryShape, ...entityListFilters });

/** Query of GET api/Entity/export?format[&tenantId][&sort]. */
export const entityExportQuerySchema = exportQuerySchema(entityListFilters);
export type EntityListQuery = z.output<typeof entityListQuerySchema>;

export const entityPageSchema = pageSchema(entitySchema);
export type EntityPage = Page<Entity>;

/** The entities calls (method and path; see api.ts). */
export const entitiesApi = {
  list: apiRoute('GET', '/api/Entity'),
  export: apiRoute('GET', '/api/Entity/export'),
} as const;
