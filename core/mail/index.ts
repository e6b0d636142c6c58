// The Mailer port and its SMTP adapter. SMTP is the one protocol both real providers (SES, any
// relay) and the local runtime's SMTP sink speak, so every environment sends the same bytes.
import { createTransport } from 'nodemailer';
import { config } from '#core/config';

export { canonicalEmail, emailKey, emailSchema, EmailSchema } from './address';
export { renderEmail } from './layout';
export {
  CONFIRM_SUBSCRIPTION_SUBJECT,
  ConfirmSubscriptionEmail,
  renderConfirmSubscription,
  type ConfirmSubscriptionProps,
} from './templates/confirm-subscription';
export { DigestEmail, renderDigestEmail, type DigestEmailProps } from './templates/digest';
export {
  FEED_READY_SUBJECT,
  FeedReadyEmail,
  renderFeedReady,
  type FeedReadyProps,
} from './templates/feed-ready';
export {
  INVITATION_SUBJECT,
  InvitationEmail,
  renderInvitation,
  type InvitationProps,
} from './templates/invitation';

export type OutgoingMail = {
  to: string;
  subject: string;
  html: string;
  text: string;
  headers?: Record<string, string>;
  /** A fixed Message-ID (`<id@domain>`): a resent copy is recognisably the same message. */
  messageId?: string;
};

export interface Mailer {
  send(mail: OutgoingMail): Promise<{ messageId: string; response: string }>;
}

/**
 * Bounds on one send, so a hung server cannot outlast the outbox's claim on an e-mail (see
 * core/outbox: its lease is longer than these added up).
 */
export const SMTP_TIMEOUTS = {
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 30_000,
} as const;

/** A pooled transport: a newsletter run reuses a few connections instead of one per message. */
export function smtpMailer(options: { url: string; from: string }): Mailer {
  const transport = createTransport(
    { url: options.url, pool: true, ...SMTP_TIMEOUTS },
    { from: options.from },
  );
  return {
    async send({ to, subject, html, text, headers, messageId }) {
      const info = await transport.sendMail({ to, subject, html, text, headers, messageId });
      return { messageId: info.messageId, response: info.response };
    },
  };
}

/**
 * Whether a failed send will fail again however often it is retried: the server answered with a
 * 5xx (mailbox unknown, message refused). Refused connections, time-outs and 4xx answers are
 * temporary.
 */
export function isPermanentFailure(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | undefined)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/** The domain of the sender address, for Message-IDs. */
export function senderDomain(): string {
  return /@([^>\s]+)/.exec(config().MAIL_FROM)?.[1] ?? 'cluefeed.xyz';
}

let configured: Mailer | undefined;

/** The mailer the configuration describes, made once so its connection pool is shared. */
export function mailer(): Mailer {
  configured ??= smtpMailer({ url: config().SMTP_URL, from: config().MAIL_FROM });
  return configured;
}
export { readMessage, readMessages, type StoredMessage } from './outbox';
