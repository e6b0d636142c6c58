// npm run build: the Remix app and the local web server that runs it (scripts/local/build.ts).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from './local/build';

await build(join(dirname(fileURLToPath(import.meta.url)), '..'));
