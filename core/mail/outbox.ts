// The sent mail the local SMTP sink keeps (one .json per message), read by the admin Outbox and
// by tests. The sink (scripts/local/smtp-sink.ts) writes these files.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

export type StoredMessage = {
  id: string;
  receivedAt: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
};

/** Every stored message, newest first; a missing folder is an empty outbox. */
export async function readMessages(dir: string): Promise<StoredMessage[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const files = names
    .filter((name) => name.endsWith('.json'))
    .sort()
    .reverse();
  return Promise.all(
    files.map(async (name) => JSON.parse(await readFile(join(dir, name), 'utf8')) as StoredMessage),
  );
}
