// The single table: its definition, the client, and the conventions every entity follows.
export { db, ensureTable, withoutSdkLogging } from './client';
export { tableDefinition, createTableInput } from './table';
export {
  committed,
  committedOnce,
  committedOrRaced,
  defineEntity,
  isConditionFailure,
  KeptColliding,
} from './entity-config';
export { deleteAll } from './batch';
export {
  countStorageCalls,
  countCallsOf,
  totalOf,
  uncounted,
  type ItemWrites,
  type StorageCalls,
} from './storage-calls';
export { getTogether, type ItemRead } from './get-together';
export { committedTogether, MOST_ITEMS, type TransactionWrite } from './together';
