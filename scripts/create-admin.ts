// Creates the first admin in a deployed stage's table (on AWS there is no `npm start` to seed one):
//   npx sst shell --stage production -- npm run create-admin -- --username alice
// The password comes from ADMIN_PASSWORD or stdin (typed without echo on a terminal, or piped), and
// is never printed. Under `sst shell` the linked resources name the table and secrets; without it,
// set TABLE_NAME, APP_SECRET, PUBLIC_URL and SMTP_URL (and AWS credentials) yourself.
import { parseArgs } from 'node:util';
import { settingsFromSstShell } from './sst-shell';

/** Reads a line from a terminal without echoing it, or everything piped in. */
async function readPassword(): Promise<string> {
  const input = process.stdin;
  if (!input.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of input) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks)
      .toString('utf8')
      .replace(/\r?\n$/, '');
  }
  process.stderr.write('Password (not shown): ');
  input.setRawMode(true);
  let password = '';
  try {
    for await (const chunk of input) {
      for (const char of (chunk as Buffer).toString('utf8')) {
        if (char === '\r' || char === '\n') return password;
        if (char === '\u0003') throw new Error('Cancelled.');
        password = char === '\u007f' ? password.slice(0, -1) : password + char;
      }
    }
    return password;
  } finally {
    input.setRawMode(false);
    input.pause();
    process.stderr.write('\n');
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { username: { type: 'string' } } });
  const userName = values.username ?? process.env.ADMIN_USERNAME ?? 'admin';
  settingsFromSstShell();
  const password = process.env.ADMIN_PASSWORD ?? (await readPassword());
  if (!password) {
    console.error('No password given: set ADMIN_PASSWORD or type it when asked.');
    return 1;
  }
  const { config } = await import('#core/config');
  config();
  const Auth = await import('#core/auth');
  const result = await Auth.ensureAdmin({ userName, password });
  if (!result.created) {
    console.error(`An account named "${userName}" already exists; nothing was changed.`);
    return 1;
  }
  console.log(`Created the admin "${userName}" in table ${config().TABLE_NAME}.`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
