// Runs one built Lambda artifact the way the Node.js runtime does: imports the bundle from its own
// folder (only its own node_modules reachable), provides the `awslambda` streaming globals, calls
// the handler with the event on stdin, and prints the result as JSON on the last line of stdout.
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';

const [file, exportName] = process.argv.slice(2);
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const event = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const context = {
  functionName: 'deploy-proof',
  awsRequestId: 'deploy-proof',
  getRemainingTimeInMillis: () => 20_000,
};

/** Marks the result line among whatever the function logs to stdout. */
const RESULT = 'deploy-proof-result: ';
const STREAMING = Symbol('streaming');
globalThis.awslambda = {
  streamifyResponse: (handler) => Object.assign(handler, { [STREAMING]: true }),
  HttpResponseStream: {
    from: (stream, metadata) => Object.assign(stream, { metadata }),
  },
};

const module = await import(pathToFileURL(file).href);
const handler = module[exportName];
let result;
if (handler[STREAMING]) {
  const body = [];
  const stream = new Writable({
    write: (chunk, _encoding, done) => (body.push(Buffer.from(chunk)), done()),
  });
  await handler(event, stream, context);
  result = { ...stream.metadata, body: Buffer.concat(body).toString('utf8') };
} else {
  result = (await handler(event, context)) ?? null;
}
process.stdout.write(`\n${RESULT}${JSON.stringify(result)}\n`);
process.exit(0);
