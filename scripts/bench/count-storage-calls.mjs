// Counts a process's storage calls from outside its code, for `npm run bench:peers`: loaded with
// `node --import` into the app's web server (WEB_NODE_ARGS) and into the floor page, it sees every
// request the process starts through node:http, as the AWS SDK's Node handler sends them
// (diagnostics_channel: nothing is added to the path to DynamoDB Local), and counts those that
// name an AWS operation (X-Amz-Target) by service and operation. With STORAGE_CALLS_SOCKET set,
// it answers the counts so far as JSON on that Unix socket (no port another service could have
// taken); the bench reads them before and after its counted requests.
import { subscribe } from 'node:diagnostics_channel';
import { createServer } from 'node:http';

/**
 * The call an X-Amz-Target names, e.g. `DynamoDB_20120810.GetItem` -> `dynamodb GetItem`,
 * `AmazonSQS.SendMessage` -> `sqs SendMessage`; undefined for a request that names none.
 */
export function storageCall(target) {
  if (typeof target !== 'string' || !target.includes('.')) return undefined;
  const dot = target.lastIndexOf('.');
  const service = target.slice(0, dot);
  const operation = target.slice(dot + 1);
  if (!service || !operation) return undefined;
  if (service.startsWith('DynamoDB_')) return `dynamodb ${operation}`;
  if (service === 'AmazonSQS') return `sqs ${operation}`;
  return `${service} ${operation}`;
}

/** Calls made between two readings of the counts, e.g. `{ 'dynamodb Query': 20 }`. */
export function callsBetween(before, after) {
  const calls = {};
  for (const [name, count] of Object.entries(after)) {
    const made = count - (before[name] ?? 0);
    if (made > 0) calls[name] = made;
  }
  return calls;
}

const socket = process.env.STORAGE_CALLS_SOCKET;
if (socket) {
  const counts = {};
  subscribe('http.client.request.start', ({ request }) => {
    const name = storageCall(request.getHeader('x-amz-target'));
    if (name) counts[name] = (counts[name] ?? 0) + 1;
  });
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(counts));
  });
  server.on('error', (error) => console.error(`count-storage-calls: ${error.message}`));
  // Never what keeps the process alive.
  server.listen(socket).unref();
}
