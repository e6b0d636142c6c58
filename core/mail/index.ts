// The Mailer port and its SMTP adapter. SMTP is the one protocol both real providers (SES, any
// relay) and the local runtime's SMTP sink speak, so every environment sends the same bytes.
import { createTransport } from 'nodemailer';
import { config } from '#core/config';

export { renderEmail } from './layout';
export {
  CONFIRM_SUBSCRIPTION_SUBJECT,
  ConfirmSubscriptionEmail,
  renderConfirmSubscription,
  type ConfirmSubscriptionProps,
} from './templates/confirm-subscription';
export { DigestEmail, renderDigestEmail, type DigestEmailProps } from './templates/digest';

export type OutgoingMail = {
  to: string;
  subject: string;
  html: string;
  text: string;
  headers?: Record<string, string>;
};

export interface Mailer {
  send(mail: OutgoingMail): Promise<{ messageId: string }>;
}

/** A pooled transport: a newsletter run reuses a few connections instead of one per message. */
export function smtpMailer(options: { url: string; from: string }): Mailer {
  const transport = createTransport({ url: options.url, pool: true }, { from: options.from });
  return {
    async send({ to, subject, html, text, headers }) {
      const info = await transport.sendMail({ to, subject, html, text, headers });
      return { messageId: info.messageId };
    },
  };
}

let configured: Mailer | undefined;

/** The mailer the configuration describes, made once so its connection pool is shared. */
export function mailer(): Mailer {
  configured ??= smtpMailer({ url: config().SMTP_URL, from: config().MAIL_FROM });
  return configured;
}
export { readMessages, type StoredMessage } from './outbox';
