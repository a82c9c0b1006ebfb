export * from './countries.ts';
export * from './document-types.ts';
export * from './pagination.ts';
export * from './tenants.ts';
export * from './tenant-users.ts';
export * from './entities.ts';
export * from './entity-users.ts';
export * from './import-files.ts';
