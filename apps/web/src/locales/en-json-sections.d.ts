// Types of the one-section imports of en.json (`@/locales/en.json?<name>&lang.json`, see
// lib/i18n.ts): each top-level section is a named export. A new section gets a line here.
declare module '@/locales/en.json?*' {
  import type en from '@/locales/en.json';

  export const app: (typeof en)['app'];
  export const common: (typeof en)['common'];
  export const access: (typeof en)['access'];
  export const notFound: (typeof en)['notFound'];
  export const login: (typeof en)['login'];
  export const nav: (typeof en)['nav'];
  export const team: (typeof en)['team'];
  export const user: (typeof en)['user'];
  export const dashboard: (typeof en)['dashboard'];
  export const pages: (typeof en)['pages'];
  export const breadcrumb: (typeof en)['breadcrumb'];
  export const table: (typeof en)['table'];
  export const confirm: (typeof en)['confirm'];
  export const exportList: (typeof en)['exportList'];
  export const importJson: (typeof en)['importJson'];
  export const countries: (typeof en)['countries'];
  export const fatfImport: (typeof en)['fatfImport'];
  export const events: (typeof en)['events'];
  export const auditLog: (typeof en)['auditLog'];
  export const changePanel: (typeof en)['changePanel'];
  export const documentTypes: (typeof en)['documentTypes'];
  export const documentType: (typeof en)['documentType'];
  export const tenants: (typeof en)['tenants'];
  export const tenantUsers: (typeof en)['tenantUsers'];
  export const entities: (typeof en)['entities'];
  export const entityUsers: (typeof en)['entityUsers'];
  export const dynamicForm: (typeof en)['dynamicForm'];
  export const formUsage: (typeof en)['formUsage'];
  export const emailSettings: (typeof en)['emailSettings'];
  export const emailTemplates: (typeof en)['emailTemplates'];
  export const forms: (typeof en)['forms'];
  export const migrations: (typeof en)['migrations'];
  export const formFields: (typeof en)['formFields'];
  export const databaseScripts: (typeof en)['databaseScripts'];
  export const validation: (typeof en)['validation'];
}
