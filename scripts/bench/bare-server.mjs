// The baselines the benches measure the app against, as a process of their own like the app:
// `node scripts/bench/bare-server.mjs node|express` answers every request with "ok" (bare Node
// http, or Express with compression as the local web server uses it) and prints its port.
import { createServer } from 'node:http';
import compression from 'compression';
import express from 'express';

const kind = process.argv[2];
let server;
if (kind === 'node') {
  server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
    res.end('ok');
  });
} else if (kind === 'express') {
  const app = express();
  app.disable('x-powered-by');
  app.use(compression());
  app.use((req, res) => {
    res.set({ 'content-type': 'text/plain', 'cache-control': 'no-store' });
    res.send('ok');
  });
  server = createServer(app);
} else {
  console.error('usage: bare-server.mjs node|express');
  process.exit(2);
}
server.listen(0, '127.0.0.1', () => console.log(String(server.address().port)));
