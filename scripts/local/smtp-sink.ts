// The local runtime's mail server: accepts every message on 127.0.0.1 and keeps it on disk
// (raw .eml plus a parsed .json) for the admin Outbox page and for tests to read back.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { simpleParser, type AddressObject, type HeaderLines } from 'mailparser';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import { monotonicFactory } from 'ulid';

import { readMessage, readMessages, type StoredMessage } from '#core/mail';

export { readMessage, readMessages, type StoredMessage };

export type SmtpSink = { port: number; url: string; stop(): Promise<void> };

const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
// Monotonic, so two messages stored in the same millisecond still sort in arrival order.
const nextId = monotonicFactory();

export async function startSmtpSink(options: {
  dir: string;
  port?: number;
  onMessage?: (message: StoredMessage) => void;
}): Promise<SmtpSink> {
  await mkdir(options.dir, { recursive: true });
  const server = new SMTPServer({
    banner: 'Cluefeed local SMTP sink',
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    size: MAX_MESSAGE_BYTES,
    rejectOversized: true,
    // A pooled client keeps its connection open; stopping should not wait the default 30 s.
    closeTimeout: 1000,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        if (!stream.sizeExceeded) chunks.push(chunk);
      });
      stream.on('end', () => {
        if (stream.sizeExceeded) return callback();
        // Received when its last byte came, not once it was parsed and stored.
        const receivedAt = new Date().toISOString();
        store(options.dir, Buffer.concat(chunks), session, receivedAt).then((message) => {
          options.onMessage?.(message);
          callback();
        }, callback);
      });
    },
  });
  // A client hanging up mid-session is reported here; it must not take the runtime down.
  server.on('error', (error: Error) => console.warn(`SMTP sink: ${error.message}`));

  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function store(dir: string, raw: Buffer, session: SMTPServerSession, receivedAt: string) {
  const parsed = await simpleParser(raw);
  const id = nextId();
  const { mailFrom, rcptTo } = session.envelope;
  const message: StoredMessage = {
    id,
    receivedAt,
    from: parsed.from ? addressesOf(parsed.from) : mailFrom ? mailFrom.address : '',
    // The envelope, not the To header: it is who the message was actually delivered to.
    to: rcptTo.map((recipient) => recipient.address),
    subject: parsed.subject ?? '',
    text: parsed.text ?? '',
    html: parsed.html || '',
    headers: headersOf(parsed.headerLines),
  };
  // Colons are not allowed in file names on every system the runtime may run on.
  const base = join(dir, `${receivedAt.replaceAll(':', '-')}-${id}`);
  await writeFile(`${base}.eml`, raw);
  // Written aside and renamed, so a reader never sees half a message.
  await writeFile(`${base}.json.tmp`, JSON.stringify(message, null, 2));
  await rename(`${base}.json.tmp`, `${base}.json`);
  return message;
}

// `Name <address>` as a person writes it; mailparser's own text form quotes every name.
function addressesOf(header: AddressObject): string {
  return header.value
    .map(({ name, address = '' }) => (name ? `${name} <${address}>` : address))
    .join(', ');
}

// Header values as sent (unfolded), not mailparser's structured forms: List-Unsubscribe and
// List-Unsubscribe-Post must be checked exactly as a mailbox provider would see them.
function headersOf(lines: HeaderLines): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { key, line } of lines) {
    const value = line
      .slice(line.indexOf(':') + 1)
      .replace(/\r?\n(?=[ \t])/g, '')
      .trim();
    headers[key] = key in headers ? `${headers[key]}\n${value}` : value;
  }
  return headers;
}

/** A message the sink process accepted: its envelope recipients, Message-ID, and when (ms). */
export type Accepted = { to: string[]; messageId: string; at: number };

export type SinkProcess = { url: string; port: number; child: ChildProcess };

/**
 * Starts the sink as a process of its own (smtp-sink-process.ts), on `port` if given (a restart
 * keeps its address), calling `onAccepted` for each message just before its 250.
 */
export function startSinkProcess(options: {
  dir: string;
  port?: number;
  onAccepted: (message: Accepted) => void;
}): Promise<SinkProcess> {
  const script = join(dirname(fileURLToPath(import.meta.url)), 'smtp-sink-process.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, MAIL_DIR: options.dir, SMTP_SINK_PORT: String(options.port ?? 0) },
  });
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-4000)));
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('smtp sink ready ')) {
        const url = line.slice('smtp sink ready '.length);
        resolve({ url, port: Number(new URL(url).port), child });
      } else if (line.startsWith('{"accepted"'))
        options.onAccepted((JSON.parse(line) as { accepted: Accepted }).accepted);
    });
    child.once('exit', (code, signal) =>
      reject(new Error(`The SMTP sink exited (${code ?? signal}) before listening:\n${errors}`)),
    );
  });
}

/** One console line per message, with the first link so a developer can click through. */
export function describeMessage(message: StoredMessage): string {
  const link = /https?:\/\/[^\s<>"')\]]+/.exec(message.text)?.[0];
  const parts = [`✉  to ${message.to.join(', ')}`, `"${message.subject}"`, ...(link ? [link] : [])];
  return parts.join(' · ');
}
