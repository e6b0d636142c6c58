// The SMTP sink on its own, as a process a test or benchmark can start, kill and start again on
// the same port: stores every message in MAIL_DIR (as the local runtime's sink does) and prints,
// for each, one JSON line `{"accepted":{"to":[...],"messageId":"...","at":<ms>}}` written just
// before the server's 250 for it, so a reader knows which messages the server accepted and when.
// SMTP_SINK_PORT fixes the port (default: any free one). Prints `smtp sink ready <url>` once it
// listens.
import { startSmtpSink } from './smtp-sink';

const dir = process.env.MAIL_DIR;
if (!dir) throw new Error('MAIL_DIR is required');

const sink = await startSmtpSink({
  dir,
  port: Number(process.env.SMTP_SINK_PORT ?? 0),
  // Pipes are written synchronously on Linux: the line is out before the 250 is.
  onMessage: (message) =>
    process.stdout.write(
      `${JSON.stringify({
        accepted: {
          to: message.to,
          messageId: message.headers['message-id'] ?? '',
          // When its last byte came: a sender killed after that may have its 250 coming.
          at: Date.parse(message.receivedAt),
        },
      })}\n`,
    ),
});
console.log(`smtp sink ready ${sink.url}`);

const stop = () => void sink.stop().finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
