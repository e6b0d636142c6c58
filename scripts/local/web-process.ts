// The web server on its own, as Lambda runs the app apart from the worker: `npm start` builds this
// file into build/local/web-server.js and runs it with plain Node (compiled JavaScript, as on
// Lambda). Configured by the environment npm start sets (BUILD_DIR, PORT, and the app's own).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { failStarting, serveAsChild } from './child-process';
import { startWebServer } from './server';

const buildDir = process.env.BUILD_DIR;
if (!buildDir) throw new Error('BUILD_DIR is required');
const port = Number(process.env.PORT);

const server = await startWebServer({ buildDir, port }).catch(failStarting);
// The app's log lines still buffered for the table go before the process does.
const { entry } = (await import(pathToFileURL(join(buildDir, 'server', 'index.js')).href)) as {
  entry: { module: { flushLogs?: () => Promise<void> } };
};
serveAsChild(async () => {
  server.close();
  server.closeAllConnections();
  await entry.module.flushLogs?.();
});
