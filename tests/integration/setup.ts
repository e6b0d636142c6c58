// Runs before every test file: points config at this worker's own table and queues, and creates them.
// Workers are numbered per Vitest project (vitest.config.ts), so the project is in the names too.
import { CreateQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, inject, vi } from 'vitest';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.DYNAMODB_ENDPOINT = inject('dynamoDbEndpoint');
const worker = `${process.env.TEST_PROJECT ?? 'own'}-${process.env.VITEST_POOL_ID ?? '0'}`;
process.env.TABLE_NAME = `test-${worker}`;
process.env.APP_SECRET = 'test-secret-that-is-long-enough-for-hmac-0123456789';
process.env.NODE_ENV = 'test';
process.env.SMTP_URL = inject('smtpUrl');
process.env.SQS_ENDPOINT = inject('sqsEndpoint');
process.env.MAIL_DIR = inject('mailDir');
// The send rate's own test passes its rate; every other test sends as fast as the sink takes.
process.env.SEND_RATE = '1000';
// Feeds in tests are served from 127.0.0.1, which the feed fetch refuses unless allowed. Each test
// file's fake servers take free ports after this is read, so tests allow the host on any port;
// npm start and the benchmark allow their one feed server's origin, and the feed tests check the
// port rule with allow-lists of their own.
process.env.FEED_FETCH_ALLOW = '127.0.0.1';
// Model servers follow the same policy, and the fake OpenAI server is on 127.0.0.1 too; the
// model-fetch tests check the refusals with allow-lists of their own.
process.env.MODEL_FETCH_ALLOW = '127.0.0.1';

// The queue exists before core reads its configuration (once, on first use, often at import).
const sqs = new SQSClient({
  endpoint: process.env.SQS_ENDPOINT,
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  useQueueUrlAsEndpoint: false,
});
const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: `jobs-${worker}` }));
const email = await sqs.send(new CreateQueueCommand({ QueueName: `email-${worker}` }));
sqs.destroy();
process.env.JOBS_QUEUE_URL = QueueUrl;
process.env.EMAIL_QUEUE_URL = email.QueueUrl;

beforeAll(async () => {
  const { ensureTable } = await import('#core/db');
  await ensureTable();
  // As every entry point does, so a module under test can queue a job by name (ADR 0057); after
  // the file's own top-level code, which may set the environment core reads once.
  await import('#core/worker');
});

// Files of the shared-modules project run one after another in one module graph: whatever a file
// spied on, stubbed or faked is undone when it ends, even when a test failed before its own undo.
afterAll(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});
