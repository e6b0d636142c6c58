import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONFIRM_SUBSCRIPTION_SUBJECT,
  renderConfirmSubscription,
  smtpMailer,
  type OutgoingMail,
} from '#core/mail';
// The same SMTP sink the local runtime runs: SMTP is exercised for real, not through a mock.
import {
  describeMessage,
  readMessage,
  readMessages,
  startSmtpSink,
  type SmtpSink,
  type StoredMessage,
} from '#scripts/local/smtp-sink';
import { colours } from './layout';

const confirmUrl = 'https://cluefeed.test/subscribe/confirm?token=abc.def';
const props = {
  audiences: [
    { title: 'build DeFi protocols', frequency: 'daily' as const },
    { title: 'collect on-chain art', frequency: 'weekly' as const },
  ],
  confirmUrl,
  preferencesUrl: 'https://cluefeed.test/preferences?token=pref',
  unsubscribeUrl: 'https://cluefeed.test/unsubscribe?token=unsub',
};

describe('confirmation e-mail', () => {
  it('asks to confirm, lists the chosen audiences and links every action', async () => {
    const mail = await renderConfirmSubscription(props);
    expect(mail.subject).toBe('Confirm your Cluefeed subscription');
    expect(mail.html).toContain('<html dir="ltr" lang="en">');
    expect(mail.html).toMatch(/<h1[^>]*>One click to confirm<\/h1>/);
    expect(mail.html).toContain('For those who build DeFi protocols (daily)');
    expect(mail.html).toContain('For those who collect on-chain art (weekly)');
    const button = /<a href="([^"]*)"[^>]*>(?:(?!<\/a>)[\s\S])*Confirm my subscription/.exec(
      mail.html,
    );
    expect(button?.[1]).toBe(confirmUrl);
    expect(mail.html).toContain('expires in 7 days');
    expect(mail.html).toContain(`href="${props.preferencesUrl}"`);
    expect(mail.html).toContain(`href="${props.unsubscribeUrl}"`);
  });

  it('switches to dark colours where the client honours the reader’s preference', async () => {
    const { html } = await renderConfirmSubscription(props);
    expect(html).toContain('<meta name="color-scheme" content="light dark"/>');
    expect(html).toContain('<meta name="supported-color-schemes" content="light dark"/>');
    expect(html).toContain('@media (prefers-color-scheme: dark)');
    expect(html).toContain(`.cf-text { color: ${colours.dark.text} !important; }`);
    expect(html).toContain('class="cf-card"');
  });

  it('has a plain-text part with the confirm link and no markup', async () => {
    const { text } = await renderConfirmSubscription(props);
    expect(text).toContain(confirmUrl);
    expect(text).toContain('For those who build DeFi protocols (daily)');
    expect(text).toContain('Confirm my subscription');
    expect(text).not.toMatch(/<[a-z!/][^>]*>/i);
  });

  it('keeps every text colour at 4.5:1 or more against its background, light and dark', () => {
    for (const theme of [colours.light, colours.dark]) {
      for (const ink of [theme.text, theme.muted, theme.link]) {
        expect(contrast(ink, theme.card)).toBeGreaterThanOrEqual(4.5);
      }
    }
    expect(contrast(colours.onBrand, colours.brand)).toBeGreaterThanOrEqual(4.5);
  });
});

describe('smtpMailer', () => {
  let dir: string;
  let sink: SmtpSink;
  const seen: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cluefeed-mail-'));
    sink = await startSmtpSink({ dir, onMessage: (message) => seen.push(message.id) });
  });

  afterAll(async () => {
    await sink?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('delivers the message with its custom headers over SMTP', async () => {
    const mailer = smtpMailer({ url: sink.url, from: 'Cluefeed <newsletter@cluefeed.test>' });
    const rendered = await renderConfirmSubscription(props);
    // Long enough that SMTP folds the header: the sink must hand it back unfolded.
    const token = 'eyJwIjoidW5zdWJzY3JpYmUiLCJleHAiOjE3OTk5OTk5OTl9.' + 'x'.repeat(60);
    const unsubscribe = `<https://cluefeed.test/unsubscribe?token=${token}>, <mailto:u@cluefeed.test>`;
    const mail: OutgoingMail = {
      to: 'reader@example.org',
      ...rendered,
      headers: {
        'List-Unsubscribe': unsubscribe,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        'X-Cluefeed-Kind': 'confirm-subscription',
      },
    };

    const first = await mailer.send(mail);
    const second = await mailer.send({ ...mail, to: 'second@example.org', subject: 'Second' });

    const messages = await readMessages(dir);
    expect(messages).toHaveLength(2);
    expect(seen).toEqual(messages.map((message) => message.id).reverse());
    const [newest, oldest] = messages as [StoredMessage, StoredMessage];
    expect(newest).toMatchObject({ to: ['second@example.org'], subject: 'Second' });
    expect(newest.headers['message-id']).toBe(second.messageId);
    expect(oldest).toMatchObject({
      from: 'Cluefeed <newsletter@cluefeed.test>',
      to: ['reader@example.org'],
      subject: CONFIRM_SUBSCRIPTION_SUBJECT,
      headers: {
        'message-id': first.messageId,
        'list-unsubscribe': unsubscribe,
        'list-unsubscribe-post': 'List-Unsubscribe=One-Click',
        'x-cluefeed-kind': 'confirm-subscription',
      },
    });
    expect(oldest.html).toBe(rendered.html);
    // The admin Outbox shows the newest few and opens one by id, without reading every file.
    expect(await readMessages(dir, { limit: 1 })).toEqual([newest]);
    expect(await readMessage(dir, oldest.id)).toEqual(oldest);
    expect(await readMessage(dir, 'no-such-id')).toBeUndefined();
    expect(oldest.text).toBe(rendered.text);
    expect(describeMessage(oldest)).toBe(
      `✉  to reader@example.org · "${CONFIRM_SUBSCRIPTION_SUBJECT}" · ${confirmUrl}`,
    );
  });

  it('reads an outbox that was never written to as empty', async () => {
    expect(await readMessages(join(dir, 'missing'))).toEqual([]);
  });
});

/** WCAG 2 contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r = 0, g = 0, bl = 0] = [1, 3, 5].map((i) => {
      const c = parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}
