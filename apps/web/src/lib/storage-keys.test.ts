import { describe, expect, it } from 'vitest';
import { APP_CONFIG_CACHE_KEY, AUTH_TOKENS_KEY, PAGE_SIZE_KEYS } from './storage-keys';

describe('storage keys', () => {
  it("are the spec's names (stored data outlives releases)", () => {
    expect(AUTH_TOKENS_KEY).toBe('auth_tokens');
    expect(APP_CONFIG_CACHE_KEY).toBe('app_config_cache');
    // As [screen, key] pairs: the names are written out again here on purpose, so that renaming
    // one in storage-keys.ts fails this test.
    expect(Object.entries(PAGE_SIZE_KEYS)).toEqual([
      ['countries', 'countriesPageSize'],
      ['documentTypes', 'documentTypesPageSize'],
      ['tenants', 'tenantsPageSize'],
      ['tenantUsers', 'tenantUsersPageSize'],
      ['entities', 'tenantPortalEntitiesPageSize'],
      ['entityUsers', 'tenantPortalEntityUsersPageSize'],
      ['events', 'eventsPageSize'],
      ['auditLog', 'auditLogPageSize'],
      ['migrations', 'migrationsPageSize'],
      ['databaseScripts', 'databaseScriptsPageSize'],
      ['scriptExecutions', 'scriptExecutionsPageSize'],
      ['fatfImportHistory', 'fatfImportHistoryPageSize'],
      ['fatfData', 'fatfDataPageSize'],
      ['emailTemplates', 'emailTemplatesPageSize'],
      ['forms', 'formsPageSize'],
      ['formFields', 'formFieldsPageSize'],
    ]);
  });
});
