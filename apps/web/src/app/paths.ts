/**
 * Typed path builders (the app's URLs, spelled once). Import from here rather than from
 * `./routes`, which also holds the route table.
 */

/** The literal id of the email template editor that creates a new template (spec part 2). */
export const NEW_EMAIL_TEMPLATE_ID = 'new';

/** Typed path builders: the only place where the app spells its URLs. */
export const paths = {
  root: () => '/',
  login: () => '/login',
  dashboard: () => '/dashboard',
  tenants: () => '/dashboard/tenants',
  tenantUsers: () => '/dashboard/tenant-users',
  entities: () => '/dashboard/entities',
  entityUsers: () => '/dashboard/entity-users',
  events: () => '/dashboard/events',
  auditLog: () => '/dashboard/audit-log',
  countries: () => '/dashboard/countries',
  documentTypes: () => '/dashboard/document-types',
  emailSettings: () => '/dashboard/email-settings',
  emailTemplates: () => '/dashboard/email-templates',
  emailTemplate: (id: string | number) =>
    `/dashboard/email-templates/${encodeURIComponent(String(id))}`,
  newEmailTemplate: () => paths.emailTemplate(NEW_EMAIL_TEMPLATE_ID),
  forms: () => '/dashboard/forms',
  formFields: () => '/dashboard/form-fields',
  migrations: () => '/dashboard/migrations',
  databaseScripts: () => '/dashboard/database-scripts',
  fatfImport: () => '/dashboard/fatf-import',
  fatfData: () => '/fatf/data',
  fatfImportDocs: () => '/docs/fatf-import',
  terms: () => '/docs/terms',
  privacy: () => '/docs/privacy',
  /** Server routes, reached by full-page navigation only. */
  authenticated: () => '/authenticated',
  signout: () => '/signout',
} as const;
