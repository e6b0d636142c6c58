// The floor page of `npm run bench:peers` (issue 34): what a reader's page costs on our stack with
// none of our code, as a process of its own like the app. Express + compression + React
// renderToString of 20 stories (title, source, date, 450-character excerpt, rating badge, two
// buttons) read with ONE GetItem (the session named by the cookie) and ONE Query (the 20 items)
// from DynamoDB Local, through the plain AWS SDK. On start it stores its own session and stories
// in a table of its own and prints one JSON line: its port and the Cookie header to send.
//   DYNAMODB_ENDPOINT  the DynamoDB Local to use (required)
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceNotFoundException,
} from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
} from '@aws-sdk/lib-dynamodb';
import compression from 'compression';
import express from 'express';
import { createElement as h } from 'react';
import { renderToString } from 'react-dom/server';

const TABLE = 'floor-page';
const STORIES = 20;
const COOKIE = 'floor_session';
const SOURCES = ['Protocol Review', 'Chainwire Daily', 'Blocknotes', 'Validator Weekly'];
const LABELS = ['Very Relevant', 'Relevant'];
const PROSE =
  'Validators on the network voted to raise the gas limit after a month of testing on two public ' +
  'testnets, where blocks twice the size propagated within the slot on nine clients in ten. ' +
  'Builders say the change lowers fees for lending protocols that settle many small positions, ' +
  'while node operators warn that state growth will raise disk needs within a year. The core ' +
  'developers plan a second vote once history expiry ships, and they ask operators to report ' +
  'propagation times from their own nodes before then.';

const endpoint = process.env.DYNAMODB_ENDPOINT;
if (!endpoint) {
  console.error('floor-page.mjs: DYNAMODB_ENDPOINT is required');
  process.exit(2);
}
const client = new DynamoDBClient({
  endpoint,
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});
const db = DynamoDBDocumentClient.from(client);

async function ensureTable() {
  try {
    await client.send(new DescribeTableCommand({ TableName: TABLE }));
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
    await client.send(
      new CreateTableCommand({
        TableName: TABLE,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: 'pk', AttributeType: 'S' },
          { AttributeName: 'sk', AttributeType: 'S' },
        ],
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
      }),
    );
  }
}

/** A session and a reader's 20 stories (newest first by their sort key). */
async function seed() {
  const token = randomBytes(24).toString('hex');
  const readerId = randomBytes(8).toString('hex');
  const start = Date.parse('2026-11-26T12:00:00.000Z');
  const stories = Array.from({ length: STORIES }, (_, n) => ({
    pk: `feed#${readerId}`,
    sk: `story#${String(STORIES - n).padStart(4, '0')}`,
    id: randomBytes(8).toString('hex'),
    title: `Validators vote to raise the gas limit after testnet trials (no. ${n + 1})`,
    url: `https://news.example/story-${n + 1}`,
    source: SOURCES[n % SOURCES.length],
    publishedAt: new Date(start - n * 7 * 60_000).toISOString(),
    excerpt: PROSE.slice(0, 450),
    label: LABELS[n % LABELS.length],
  }));
  const items = [{ pk: `session#${token}`, sk: 'session', readerId }, ...stories];
  for (let i = 0; i < items.length; i += 25) {
    const batch = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    const { UnprocessedItems } = await db.send(
      new BatchWriteCommand({ RequestItems: { [TABLE]: batch } }),
    );
    if (Object.keys(UnprocessedItems ?? {}).length > 0) throw new Error('Seeding left items');
  }
  return token;
}

const DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

function Story({ story }) {
  return h(
    'article',
    { className: 'story' },
    h('h2', null, h('a', { href: story.url }, story.title)),
    h(
      'p',
      { className: 'meta' },
      story.source,
      ' · ',
      h('time', { dateTime: story.publishedAt }, DATE.format(new Date(story.publishedAt))),
    ),
    h('p', null, story.excerpt),
    h('span', { className: 'badge' }, story.label),
    h(
      'form',
      { method: 'post', action: '/feedback' },
      h('input', { type: 'hidden', name: 'story', value: story.id }),
      h('button', { type: 'submit', name: 'rating', value: 'like' }, 'More like this'),
      h('button', { type: 'submit', name: 'rating', value: 'dislike' }, 'Less like this'),
    ),
  );
}

function Page({ stories }) {
  return h(
    'html',
    { lang: 'en' },
    h(
      'head',
      null,
      h('meta', { charSet: 'utf-8' }),
      h('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
      h('title', null, 'Your feed'),
    ),
    h(
      'body',
      null,
      h(
        'main',
        null,
        h('h1', null, 'Your feed'),
        stories.map((story) => h(Story, { key: story.id, story })),
      ),
    ),
  );
}

function sessionToken(cookieHeader = '') {
  const prefix = `${COOKIE}=`;
  const pair = cookieHeader
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(prefix));
  return pair?.slice(prefix.length);
}

await ensureTable();
const token = await seed();

const app = express();
app.disable('x-powered-by');
app.use(compression());
app.get('/', async (req, res, next) => {
  try {
    const id = sessionToken(req.headers.cookie);
    const session = id
      ? (
          await db.send(
            new GetCommand({ TableName: TABLE, Key: { pk: `session#${id}`, sk: 'session' } }),
          )
        ).Item
      : undefined;
    if (!session) {
      res.status(401).type('text/plain').send('Sign in first.');
      return;
    }
    const { Items = [] } = await db.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `feed#${session.readerId}` },
        ScanIndexForward: false,
        Limit: STORIES,
      }),
    );
    const html = '<!DOCTYPE html>' + renderToString(h(Page, { stories: Items }));
    res.set({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.send(html);
  } catch (error) {
    next(error);
  }
});
const server = createServer(app);
server.listen(0, '127.0.0.1', () =>
  console.log(JSON.stringify({ port: server.address().port, cookie: `${COOKIE}=${token}` })),
);
