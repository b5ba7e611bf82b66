export { openDatabase, pgliteDirIn } from './client.ts';
export type { Database, DatabaseHandle, DatabaseOptions } from './client.ts';
export * as tables from './schema.ts';
