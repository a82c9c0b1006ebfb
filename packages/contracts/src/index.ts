export * from './countries.ts';
export * from './document-types.ts';
export * from './pagination.ts';
export * from './tenants.ts';
