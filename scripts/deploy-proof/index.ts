// npm run deploy:proof: checks the stack sst.config.ts builds against core/config (stack.ts,
// stack-checks.ts), builds each Lambda artifact the way `sst deploy` does (esbuild with SST's
// options and externals, native modules npm-installed into the artifact for Linux x64) into a folder
// outside the project, and invokes each with sample AWS events against DynamoDB Local and fauxqs,
// its secrets linked as SST links them. Exits 1 on the first wrong answer. What this does not
// prove: docs/operations.md, "Deploy proof".
import { spawn, spawnSync } from 'node:child_process';
import { createCipheriv, randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ReceiveMessageCommand, SQSClient, type Message } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { SECRET_SETTINGS } from '#core/config';
import { NATIVE_MODULES } from '../../stacks/native-modules';
import { startDynamoDb } from '../local/dynamodb';
import { startQueue } from '../local/jobs';
import { readMessages, startSmtpSink } from '../local/smtp-sink';
import { recordStack, type Stack } from './stack';
import {
  placeholderSecretsFail,
  schedulesNeverLostSilently,
  secretsOnlyAsLinks,
  serverFunctions,
  settingsReachEveryFunction,
  workerQueuesApart,
} from './stack-checks';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const work = mkdtempSync(join(tmpdir(), 'cluefeed-deploy-proof-'));
// esbuild as the project has it (Vite's); SST bundles with esbuild too.
const esbuild = createRequire(createRequire(import.meta.url).resolve('vite/package.json'))(
  'esbuild',
) as typeof import('esbuild');

/** SST's node build (pkg/runtime/node/build.go): what `sst deploy` does with a handler. */
async function buildArtifact(name: string, entry: string, inject: string[] = []) {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, `${name}.mjs`);
  const result = await esbuild.build({
    entryPoints: [entry],
    platform: 'node',
    external: ['sharp', 'pg-native', ...NATIVE_MODULES],
    keepNames: true,
    bundle: true,
    metafile: true,
    outfile,
    format: 'esm',
    target: 'esnext',
    mainFields: ['module', 'main'],
    minify: true,
    inject,
    logLevel: 'error',
    banner: {
      js: [
        `import { createRequire as topLevelCreateRequire } from 'module';`,
        `const require = topLevelCreateRequire(import.meta.url);`,
        `import { fileURLToPath as topLevelFileUrlToPath, URL as topLevelURL } from "url"`,
        `const __filename = topLevelFileUrlToPath(import.meta.url)`,
        `const __dirname = topLevelFileUrlToPath(new topLevelURL(".", import.meta.url))`,
      ].join('\n'),
    },
  });
  const bundledNative = Object.keys(result.metafile.inputs).filter((input) =>
    NATIVE_MODULES.some((pkg) => input.includes(`node_modules/${pkg}/`)),
  );
  if (bundledNative.length > 0) throw new Error(`${name}: native code bundled: ${bundledNative}`);
  const versions = (
    JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    }
  ).dependencies;
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      dependencies: Object.fromEntries(NATIVE_MODULES.map((pkg) => [pkg, versions[pkg] ?? '*'])),
    }),
  );
  const install = spawnSync(
    'npm',
    [
      'install',
      '--force',
      '--os=linux',
      '--cpu=x64',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
    ],
    { cwd: dir, encoding: 'utf8' },
  );
  if (install.status !== 0) throw new Error(`${name}: npm install failed\n${install.stderr}`);
  console.log(`Built ${name}: ${outfile} (+ node_modules: ${NATIVE_MODULES.join(', ')})`);
  return outfile;
}

/** The Remix server as SST wraps it: its regional Lambda URL handler around build/server/index.js. */
function remixServerEntry(): { entry: string; inject: string[] } {
  const templates = join(root, '.sst', 'platform', 'functions', 'remix-server');
  const buildDir = join(root, 'build');
  const entry = join(buildDir, 'server.mjs');
  writeFileSync(
    entry,
    [
      `import * as remixServerBuild from "./server/index.js";`,
      '',
      readFileSync(join(templates, 'regional-server.mjs'), 'utf8'),
    ].join('\n'),
  );
  const polyfill = join(buildDir, 'polyfill.mjs');
  copyFileSync(join(templates, 'polyfill.mjs'), polyfill);
  return { entry, inject: [polyfill] };
}

/** Must match invoke.mjs. */
const RESULT = 'deploy-proof-result: ';

type Invocation = {
  env: Record<string, string>;
  file: string;
  event: unknown;
  exportName?: string;
};

/**
 * Asynchronous on purpose: fauxqs and the SMTP sink run in this process, and a blocking spawn
 * would leave the function waiting on them forever.
 */
function invoke({ env, file, event, exportName = 'handler' }: Invocation): Promise<unknown> {
  const child = spawn(
    process.execPath,
    [join(root, 'scripts', 'deploy-proof', 'invoke.mjs'), file, exportName],
    { cwd: dirname(file), env: env as NodeJS.ProcessEnv, timeout: 60_000 },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(JSON.stringify(event));
  return new Promise((resolve, reject) => {
    child.on('close', (code, signal) => {
      if (code !== 0)
        return reject(new Error(`${file} failed (${code ?? signal}):\n${stderr}\n${stdout}`));
      const line = stdout.split('\n').find((text) => text.startsWith(RESULT));
      if (!line) return reject(new Error(`${file} printed no result:\n${stderr}\n${stdout}`));
      resolve(JSON.parse(line.slice(RESULT.length)));
    });
  });
}

function check(what: string, ok: boolean, detail: unknown) {
  if (!ok) throw new Error(`${what}: unexpected ${JSON.stringify(detail).slice(0, 2_000)}`);
  console.log(`ok  ${what}`);
}

function checkStack(stack: Stack) {
  const functions = serverFunctions(stack).length;
  const checks: [string, string[]][] = [
    [
      `stack: every setting of core/config's schema reaches all ${functions} server functions (forwarded, linked, or named not for AWS)`,
      settingsReachEveryFunction(stack),
    ],
    ['stack: no secret is a plain environment variable of any function', secretsOnlyAsLinks(stack)],
    [
      "stack: every secret's default reads as unset, and fails the start where the secret is needed",
      placeholderSecretsFail(stack),
    ],
    [
      'stack: every schedule retries, dead-letters what still fails, and that queue has an alarm',
      schedulesNeverLostSilently(stack),
    ],
    [
      'stack: the jobs and e-mail queues each have a worker with its own concurrency, and alarmed dead letters',
      workerQueuesApart(stack),
    ],
  ];
  for (const [what, problems] of checks) check(what, problems.length === 0, problems);
}

/** Secret values by SST secret name, as `sst secret set` would hold them. */
type SecretValues = Record<string, string>;

/**
 * Links a function's secrets as SST does on AWS: encrypted into a file beside the bundle, the key
 * in SST_KEY (aes-256-gcm, zero nonce, tag last; what SST's Resource decrypts). Secrets left
 * unset get the stack's default.
 */
function linkSecrets(stack: Stack, dir: string, file: string, values: SecretValues) {
  const links = Object.fromEntries(
    stack.resources
      .filter((resource) => resource.type === 'sst.Secret')
      .map(({ name, args }) => [name, { type: 'sst.sst.Secret', value: values[name] ?? args }]),
  );
  const key = randomBytes(32);
  const cipher = createCipheriv('aes-256-gcm', key, Buffer.alloc(12, 0));
  const encrypted = Buffer.concat([cipher.update(JSON.stringify(links)), cipher.final()]);
  writeFileSync(join(dir, file), Buffer.concat([encrypted, cipher.getAuthTag()]));
  return { SST_KEY: key.toString('base64'), SST_KEY_FILE: file };
}

/** A CloudFront -> Lambda function URL request (payload 2.0), as the Router forwards it. */
function urlEvent(
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string } = {},
) {
  const [rawPath = '/', rawQueryString = ''] = path.split('?');
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath,
    rawQueryString,
    headers: {
      host: 'abcdefgh.lambda-url.eu-west-1.on.aws',
      'x-forwarded-host': 'd111111abcdef8.cloudfront.net',
      'x-forwarded-proto': 'https',
      'x-forwarded-for': '203.0.113.7',
      'user-agent': 'Amazon CloudFront',
      accept: 'text/html',
      ...options.headers,
    },
    requestContext: {
      accountId: 'anonymous',
      apiId: 'abcdefgh',
      domainName: 'abcdefgh.lambda-url.eu-west-1.on.aws',
      http: {
        method,
        path: rawPath,
        protocol: 'HTTP/1.1',
        sourceIp: '203.0.113.7',
        userAgent: 'Amazon CloudFront',
      },
      requestId: 'deploy-proof',
      routeKey: '$default',
      stage: '$default',
      time: '21/Nov/2026:13:00:00 +0000',
      timeEpoch: 1_795_000_000_000,
    },
    body: options.body,
    isBase64Encoded: false,
  };
}

/** What a queue holds now (up to 10 messages), as a worker would receive them. */
async function receiveAll(endpoint: string, queueUrl: string): Promise<Message[]> {
  const sqs = new SQSClient({
    endpoint,
    region: 'eu-west-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    useQueueUrlAsEndpoint: false,
  });
  const { Messages = [] } = await sqs.send(
    new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 2 }),
  );
  sqs.destroy();
  return Messages;
}

/** The event Lambda hands a queue's subscriber, for these messages of queue `name`. */
function sqsEvent(messages: Message[], name: string): SQSEvent {
  return {
    Records: messages.map((message) => ({
      messageId: message.MessageId!,
      receiptHandle: message.ReceiptHandle!,
      body: message.Body!,
      attributes: {
        ApproximateReceiveCount: '1',
        SentTimestamp: String(Date.now()),
        SenderId: 'AIDAEXAMPLE',
        ApproximateFirstReceiveTimestamp: String(Date.now()),
      },
      messageAttributes: {},
      md5OfBody: message.MD5OfBody ?? '',
      eventSource: 'aws:sqs',
      eventSourceARN: `arn:aws:sqs:eu-west-1:123456789012:${name}`,
      awsRegion: 'eu-west-1',
    })),
  };
}

async function main() {
  const started = Date.now();
  // First, while nothing else has touched process.env: evaluating the stack sets every setting.
  const stack = await recordStack();
  checkStack(stack);
  const mailDir = join(work, 'mail');
  const [dynamo, queue, sink] = await Promise.all([
    startDynamoDb(),
    startQueue(),
    startSmtpSink({ dir: mailDir }),
  ]);
  try {
    const publicUrl = 'https://d111111abcdef8.cloudfront.net';
    // What stacks/environment.ts gives every function, plus the local endpoints and fake keys;
    // the secrets are links (linkSecrets), so the functions must read them as deployed ones do.
    const secrets: SecretValues = {
      [SECRET_SETTINGS.APP_SECRET]: 'deploy-proof-secret-that-is-long-enough-0123456789',
      [SECRET_SETTINGS.SMTP_URL]: sink.url,
    };
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? work,
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      TABLE_NAME: 'cluefeed-deploy-proof',
      JOBS_QUEUE_URL: queue.queueUrl,
      EMAIL_QUEUE_URL: queue.emailQueueUrl,
      PUBLIC_URL: publicUrl,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      SQS_ENDPOINT: queue.endpoint,
    };
    // This process reads the table and the jobs itself, with the same values unlinked.
    Object.assign(process.env, env, {
      APP_SECRET: secrets[SECRET_SETTINGS.APP_SECRET],
      SMTP_URL: secrets[SECRET_SETTINGS.SMTP_URL],
    });
    const { ensureTable } = await import('#core/db');
    await ensureTable();

    const remix = remixServerEntry();
    const [web, worker, cron] = await Promise.all([
      buildArtifact('web', remix.entry, remix.inject),
      buildArtifact('worker', join(root, 'functions', 'worker.ts')),
      buildArtifact('cron', join(root, 'functions', 'cron.ts')),
    ]);
    const linked = (file: string, values = secrets, name = 'resource.enc') => ({
      ...env,
      ...linkSecrets(stack, dirname(file), name, values),
    });

    // The first admin, created as docs/operations.md says (sst shell passes resources as JSON).
    const password = 'deploy-proof-password-0123';
    // The password comes on stdin, as a person types it: one set in the shell would win over it.
    const {
      APP_SECRET: _unlinked,
      SMTP_URL: _alsoUnlinked,
      ADMIN_PASSWORD: _typedInstead,
      ...shell
    } = process.env;
    const createAdmin = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'scripts/create-admin.ts', '--username', 'ops'],
      {
        cwd: root,
        input: `${password}\n`,
        encoding: 'utf8',
        env: {
          ...shell,
          TABLE_NAME: '',
          SST_RESOURCE_Table: JSON.stringify({ name: env.TABLE_NAME }),
          SST_RESOURCE_AppSecret: JSON.stringify({ value: secrets[SECRET_SETTINGS.APP_SECRET] }),
          SST_RESOURCE_SmtpUrl: JSON.stringify({ value: secrets[SECRET_SETTINGS.SMTP_URL] }),
        },
      },
    );
    check(
      'create-admin creates the admin from sst shell resources, without printing the password',
      createAdmin.status === 0 &&
        createAdmin.stdout.includes('Created the admin "ops" in table cluefeed-deploy-proof') &&
        !`${createAdmin.stdout}${createAdmin.stderr}`.includes(password),
      createAdmin,
    );

    const home = (await invoke({ env: linked(web), file: web, event: urlEvent('GET', '/') })) as {
      statusCode: number;
      body: string;
    };
    check(
      'web: GET / renders the home page',
      home.statusCode === 200 && /<title>[^<]*Cluefeed/.test(home.body),
      home,
    );
    const bad = (await invoke({
      env: linked(web),
      file: web,
      event: urlEvent('GET', '/a/%E0%A4%A'),
    })) as {
      statusCode: number;
      body: string;
    };
    check(
      'web: a malformed path gets the branded 400',
      bad.statusCode === 400 && bad.body.includes('<h1>Bad request</h1>'),
      bad,
    );
    const oversized = (await invoke({
      env: linked(web),
      file: web,
      event: urlEvent('POST', '/api/events', {
        headers: { 'content-type': 'application/json', origin: publicUrl },
        body: JSON.stringify({ name: 'page_view', path: `/${'x'.repeat(64 * 1024)}` }),
      }),
    })) as { statusCode: number; body: string };
    check(
      'web: a body past its limit gets the 413 that says so',
      oversized.statusCode === 413 && oversized.body.includes('The request body is too large'),
      oversized,
    );
    const signIn = (await invoke({
      env: linked(web),
      file: web,
      event: urlEvent('POST', '/admin-panel/authorize', {
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: publicUrl },
        body: new URLSearchParams({ userName: 'ops', password }).toString(),
      }),
    })) as { statusCode: number; cookies: string[] };
    check(
      'web: the admin signs in (argon2 native module loads from the artifact; the session is signed with the linked AppSecret)',
      [302, 303].includes(signIn.statusCode) && signIn.cookies.length > 0,
      signIn,
    );

    const mailchimp = {
      MAILING_LIST: 'mailchimp',
      MAILCHIMP_SERVER_PREFIX: 'us21',
      MAILCHIMP_LIST_ID: 'deploy-proof',
    };
    const placeholder = await invoke({
      env: { ...linked(cron, secrets, 'placeholder.enc'), ...mailchimp },
      file: cron,
      event: { schedule: 'import-articles' },
    }).then(
      (answer) => ({ answer }),
      (error: unknown) => ({ error: String(error) }),
    );
    check(
      "cron: MAILING_LIST=mailchimp with MailchimpApiKey at the stack's default fails, naming the secret",
      'error' in placeholder &&
        placeholder.error.includes(
          'MAILCHIMP_API_KEY (the MailchimpApiKey secret still holds a placeholder',
        ),
      placeholder,
    );

    await invoke({ env: linked(cron), file: cron, event: { schedule: 'import-articles' } });
    const Messages = await receiveAll(queue.endpoint, queue.queueUrl);
    const Jobs = await import('#core/jobs');
    const processId = (JSON.parse(Messages[0]?.Body ?? '{}') as { processId?: string }).processId;
    const queued = processId ? await Jobs.byId(processId) : undefined;
    check(
      'cron: the EventBridge Scheduler event enqueues the import',
      queued?.name === 'import-articles' && queued.status === 'Queued',
      Messages,
    );

    const answer = await invoke({
      env: linked(worker),
      file: worker,
      event: sqsEvent(Messages, 'cluefeed-Jobs'),
    });
    const ran = await Jobs.byId(processId!);
    check(
      "worker: the jobs queue's SQS batch runs the import to Success with batchItemFailures []",
      JSON.stringify(answer) === '{"batchItemFailures":[]}' && ran?.status === 'Success',
      { answer, ran },
    );

    // The e-mail queue's event: an outbox e-mail, stored and queued as any change queues one.
    const Outbox = await import('#core/outbox');
    const to = 'reader@example.org';
    const email = Outbox.draft('confirm-subscription', {
      to,
      props: {
        audiences: [{ title: 'Deploy proof', frequency: 'daily' }],
        confirmUrl: `${publicUrl}/confirm`,
        preferencesUrl: `${publicUrl}/preferences`,
        unsubscribeUrl: `${publicUrl}/unsubscribe`,
      },
    });
    await Outbox.OutboundEmailEntity.create(email).go();
    await Outbox.dispatch([email]);
    const emails = await receiveAll(queue.endpoint, queue.emailQueueUrl);
    check(
      "outbox: the e-mail's message is on the e-mail queue, saying its kind",
      emails.length === 1 &&
        JSON.parse(emails[0]!.Body!).kind === 'email' &&
        (await receiveAll(queue.endpoint, queue.queueUrl)).length === 0,
      emails,
    );
    const sent = await invoke({
      env: linked(worker),
      file: worker,
      event: sqsEvent(emails, 'cluefeed-Email'),
    });
    const delivered = (await readMessages(mailDir)).filter((message) => message.to.includes(to));
    check(
      "worker: the e-mail queue's SQS batch sends the e-mail through SMTP with batchItemFailures []",
      JSON.stringify(sent) === '{"batchItemFailures":[]}' &&
        (await Outbox.byId(email.id))?.status === 'sent' &&
        delivered.length === 1,
      { sent, delivered },
    );
    console.log(`Deploy proof passed in ${Math.round((Date.now() - started) / 1000)} s.`);
  } finally {
    await Promise.all([dynamo.stop(), queue.stop(), sink.stop()]);
    // DEPLOY_PROOF_KEEP=1 keeps the artifacts to look at (or to invoke by hand with invoke.mjs).
    if (process.env.DEPLOY_PROOF_KEEP) console.log(`Artifacts kept in ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
