// Runs before every test file: points config at this worker's own table and creates it.
import { beforeAll, inject } from 'vitest';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.DYNAMODB_ENDPOINT = inject('dynamoDbEndpoint');
process.env.TABLE_NAME = `test-${process.env.VITEST_POOL_ID ?? '0'}`;
process.env.APP_SECRET = 'test-secret-that-is-long-enough-for-hmac-0123456789';
process.env.NODE_ENV = 'test';
process.env.SMTP_URL = inject('smtpUrl');

beforeAll(async () => {
  const { ensureTable } = await import('#core/db');
  await ensureTable();
});
