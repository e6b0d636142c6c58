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

/** The stored messages, newest first (at most `limit` of them); a missing folder is an empty outbox. */
export async function readMessages(
  dir: string,
  { limit = Infinity }: { limit?: number } = {},
): Promise<StoredMessage[]> {
  const names = (await messageFiles(dir)).slice(0, limit);
  return Promise.all(names.map((name) => readStored(dir, name)));
}

/** One stored message by its id, reading only its own file. */
export async function readMessage(dir: string, id: string): Promise<StoredMessage | undefined> {
  const name = (await messageFiles(dir)).find(
    (candidate) => candidate === `${id}.json` || candidate.endsWith(`-${id}.json`),
  );
  return name === undefined ? undefined : readStored(dir, name);
}

/** The sink's message files, newest first: their names begin with the moment they arrived. */
async function messageFiles(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names
    .filter((name) => name.endsWith('.json'))
    .sort()
    .reverse();
}

async function readStored(dir: string, name: string): Promise<StoredMessage> {
  return JSON.parse(await readFile(join(dir, name), 'utf8')) as StoredMessage;
}
