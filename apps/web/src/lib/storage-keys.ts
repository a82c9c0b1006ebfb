/**
 * Every local-storage key the app uses, in one place (spec part 1, sections 3 and 9).
 * The values are the spec's own names: keep them, stored data outlives releases.
 */

/** The auth session `{accessToken, userEmail}`. */
export const AUTH_TOKENS_KEY = 'auth_tokens';

/** The last good configuration `{apiBaseUrl, timestamp}`. */
export const APP_CONFIG_CACHE_KEY = 'app_config_cache';

/** The page size each list screen remembers. */
export const PAGE_SIZE_KEYS = {
  countries: 'countriesPageSize',
  documentTypes: 'documentTypesPageSize',
  tenants: 'tenantsPageSize',
  tenantUsers: 'tenantUsersPageSize',
  entities: 'tenantPortalEntitiesPageSize',
  entityUsers: 'tenantPortalEntityUsersPageSize',
  events: 'eventsPageSize',
  auditLog: 'auditLogPageSize',
  migrations: 'migrationsPageSize',
  databaseScripts: 'databaseScriptsPageSize',
  scriptExecutions: 'scriptExecutionsPageSize',
  fatfImportHistory: 'fatfImportHistoryPageSize',
  fatfData: 'fatfDataPageSize',
  emailTemplates: 'emailTemplatesPageSize',
  forms: 'formsPageSize',
  formFields: 'formFieldsPageSize',
} as const;

export type PageSizeKey = (typeof PAGE_SIZE_KEYS)[keyof typeof PAGE_SIZE_KEYS];
