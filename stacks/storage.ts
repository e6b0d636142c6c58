// The one DynamoDB table. Its shape comes from core/db/table.ts, the same definition the local
// runtime and the tests use to create the table in DynamoDB Local, so the two cannot drift.
// sst.aws.Dynamo always bills per request and turns on point-in-time recovery.
import { tableDefinition } from '../core/db/table';

const { fields, primaryIndex, globalIndexes, ttl } = tableDefinition;

export const table = new sst.aws.Dynamo('Table', {
  fields: { ...fields },
  primaryIndex: { ...primaryIndex },
  globalIndexes: { ...globalIndexes },
  ttl,
  // A production table can only be deleted after this flag is turned off by a deploy.
  deletionProtection: $app.stage === 'production',
});
